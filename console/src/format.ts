/** `03:58:00 UTC`, or with the day when it is not today's: the console shows every instant in UTC, as usage days are. */
export function utcInstant(at: Date, now: Date = new Date()): string {
  const iso = at.toISOString();
  const time = `${iso.slice(11, 19)} UTC`;
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

/** `42 s`, `15 min`, `3 h 20 min`: how long a person waits, rounded up. */
export function waitOf(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole < 120) return `${whole} s`;
  const minutes = Math.ceil(whole / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** An API timestamp as a person reads it, or a dash when there is none. */
export const dateTime = (iso: string | null): string => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—');
