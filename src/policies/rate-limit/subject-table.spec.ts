import { jest } from '@jest/globals';
import { Clock } from '../../common/index.js';
import { SubjectTable } from './subject-table.js';

class ManualClock extends Clock {
  ms = 1_000;
  now(): Date {
    return new Date(this.ms);
  }
}

const record = (n: number, expiresAtMs = Infinity) => ({ n, expiresAtMs });

describe('SubjectTable', () => {
  const clock = new ManualClock();
  const tables: SubjectTable<ReturnType<typeof record>>[] = [];
  const table = (capacity: number, whenFull: 'evict-least-recent' | 'refuse-new') => {
    const created = new SubjectTable<ReturnType<typeof record>>(clock, capacity, whenFull);
    tables.push(created);
    return created;
  };

  beforeEach(() => (clock.ms = 1_000));
  afterEach(() => tables.splice(0).forEach((t) => t.close()));

  it('answers the record added for a subject, and nothing for others', () => {
    const subjects = table(10, 'evict-least-recent');
    const added = subjects.add('k', record(1), 1_000);
    expect(subjects.get('k', 1_000)).toBe(added);
    expect(subjects.get('other', 1_000)).toBeUndefined();
  });

  it('forgets a record at the instant of its expiresAtMs', () => {
    const subjects = table(10, 'evict-least-recent');
    subjects.add('k', record(1, 1_500), 1_000);
    expect(subjects.get('k', 1_499)).toEqual(record(1, 1_500));
    expect(subjects.get('k', 1_500)).toBeUndefined();
    expect(subjects.size).toBe(0);
  });

  it('sweeps expired records by the service clock every minute', () => {
    jest.useFakeTimers();
    try {
      const subjects = table(10, 'evict-least-recent');
      subjects.add('k', record(1, 5_000), 1_000);
      clock.ms = 5_000;
      jest.advanceTimersByTime(60_000);
      expect(subjects.size).toBe(0);
      subjects.close();
    } finally {
      jest.useRealTimers();
    }
  });

  describe('when full', () => {
    it('evicts the record used longest ago with evict-least-recent', () => {
      const subjects = table(2, 'evict-least-recent');
      subjects.add('a', record(1), 1_000);
      subjects.add('b', record(2), 1_000);
      subjects.get('a', 1_000);
      expect(subjects.hasRoom(1_000)).toBe(true);
      subjects.add('c', record(3), 1_000);
      expect([subjects.get('a', 1_000)?.n, subjects.get('b', 1_000), subjects.size]).toEqual([1, undefined, 2]);
    });

    it('keeps every record with refuse-new and has no room for a newcomer until one expires', () => {
      const subjects = table(2, 'refuse-new');
      subjects.add('a', record(1, 5_000), 1_000);
      subjects.add('b', record(2), 1_000);
      expect(subjects.hasRoom(1_000)).toBe(false);
      expect(subjects.hasRoom(5_000)).toBe(true);
      expect(subjects.size).toBe(1);
    });

    it('sweeps for room at most once a second', () => {
      const subjects = table(1, 'refuse-new');
      subjects.add('a', record(1, 5_000), 1_000);
      expect(subjects.hasRoom(4_999)).toBe(false);
      expect(subjects.hasRoom(5_000)).toBe(false);
      expect(subjects.hasRoom(5_999)).toBe(true);
    });
  });
});
