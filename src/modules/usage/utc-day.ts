const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of the UTC day holding `ms`: the limiter's day window, numbered as its script numbers it. */
export const utcDayOf = (ms: number): number => Math.floor(ms / DAY_MS);

export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The day number of `YYYY-MM-DD`, or undefined if it names no calendar day (`2027-02-30`). */
export function dayNumber(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(ms) || dayText(utcDayOf(ms)) !== text ? undefined : utcDayOf(ms);
}
