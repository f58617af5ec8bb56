import { InvalidUsagePeriodException, usagePeriod } from './usage-period.js';

const NOW = new Date('2027-03-01T23:59:59.999Z');

/** The field and message of the exception `usagePeriod` throws. */
function refusal(query: { from?: string; to?: string }) {
  try {
    usagePeriod(query, NOW);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidUsagePeriodException);
    const { details, message } = error as InvalidUsagePeriodException;
    expect(details).toEqual([{ field: details![0].field, message }]);
    return { field: details![0].field, message };
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

describe('usagePeriod', () => {
  it('reads the last 30 UTC days, today included, by default', () => {
    expect(usagePeriod({}, NOW)).toEqual({ from: '2027-01-31', to: '2027-03-01' });
  });

  it('ends the 30 days on `to`, and starts today-ended periods at `from`', () => {
    expect(usagePeriod({ to: '2024-03-01' }, NOW)).toEqual({ from: '2024-02-01', to: '2024-03-01' }); // a leap year
    expect(usagePeriod({ from: '2027-02-27' }, NOW)).toEqual({ from: '2027-02-27', to: '2027-03-01' });
  });

  it('reads one day, or up to 93, leap days included', () => {
    expect(usagePeriod({ from: '2028-02-29', to: '2028-02-29' }, NOW)).toEqual({ from: '2028-02-29', to: '2028-02-29' });
    expect(usagePeriod({ from: '2027-01-01', to: '2027-04-03' }, NOW)).toEqual({ from: '2027-01-01', to: '2027-04-03' });
  });

  it.each([
    [{ from: '2027-02-29' }, 'from', 'from must be a UTC day as YYYY-MM-DD (got "2027-02-29")'],
    [{ to: '2027-13-01' }, 'to', 'to must be a UTC day as YYYY-MM-DD (got "2027-13-01")'],
    [{ to: '2027-3-1' }, 'to', 'to must be a UTC day as YYYY-MM-DD (got "2027-3-1")'],
    [{ from: '2027-03-01T00:00:00Z' }, 'from', 'from must be a UTC day as YYYY-MM-DD (got "2027-03-01T00:00:00Z")'],
    [{ from: '2027-03-02', to: '2027-03-01' }, 'from', 'from (2027-03-02) must not be after to (2027-03-01)'],
    [{ from: '2027-03-02' }, 'from', 'from (2027-03-02) must not be after to (2027-03-01)'],
    [{ from: '2027-01-01', to: '2027-04-04' }, 'from', 'from 2027-01-01 to 2027-04-04 is 94 days; at most 93 are read at once'],
    [{ from: '2026-11-27' }, 'from', 'from 2026-11-27 to 2027-03-01 is 95 days; at most 93 are read at once'],
  ])('refuses %j, naming %s', (query, field, message) => {
    expect(refusal(query)).toEqual({ field, message });
  });
});
