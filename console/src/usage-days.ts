import type { Usage } from '../../client/src/index.js';

const DAY_MS = 86_400_000;

/** One figure per UTC day of the period, in order. */
export interface DailySeries {
  days: string[];
  admitted: number[];
  refused: number[];
}

/** Every UTC day from `usage.from` to `usage.to`, a day without requests as 0, for one key or, without `keyId`, all keys. */
export function dailySeries(usage: Usage, keyId?: number): DailySeries {
  const series: DailySeries = { days: [], admitted: [], refused: [] };
  const index = new Map<string, number>();
  for (let at = Date.parse(`${usage.from}T00:00:00Z`); at <= Date.parse(`${usage.to}T00:00:00Z`); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    index.set(day, series.days.push(day) - 1);
    series.admitted.push(0);
    series.refused.push(0);
  }
  for (const row of usage.days) {
    const at = index.get(row.day);
    if (at === undefined || (keyId !== undefined && row.keyId !== keyId)) continue;
    series.admitted[at] += row.admitted;
    series.refused[at] += row.refused;
  }
  return series;
}

/** The keys with requests in the period, live or not, in id order. */
export const keysWithUsage = (usage: Usage): number[] => [...new Set(usage.days.map(({ keyId }) => keyId))].sort((a, b) => a - b);
