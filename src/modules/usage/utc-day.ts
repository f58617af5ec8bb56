const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of the UTC day holding `ms`: the limiter's day window, numbered as its script numbers it. */
export const utcDayOf = (ms: number): number => Math.floor(ms / DAY_MS);

export const dayText = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);
