import { parseScriptReply } from './limiter.script.js';

describe('parseScriptReply', () => {
  const decision = [0, 3, 40, 1_803_902_400_000, 0];

  it('reads the outcome and counts, and the hash also read as numbers by field, dropping what is not a number', () => {
    expect(parseScriptReply([...decision, ['pets', '7', 'kennels', '2', 'broken', 'x']])).toEqual({
      outcome: 'admitted',
      usedMinute: 3,
      usedDay: 40,
      nowMs: 1_803_902_400_000,
      suspendedUntilMs: 0,
      alsoRead: { pets: 7, kennels: 2 },
    });
    expect(parseScriptReply([...decision, []]).alsoRead).toEqual({});
  });

  it('has nothing also read when no hash was asked', () => {
    expect(parseScriptReply([...decision, null])).not.toHaveProperty('alsoRead');
    expect(parseScriptReply(decision)).not.toHaveProperty('alsoRead');
  });

  it('refuses a reply it does not understand', () => {
    expect(() => parseScriptReply([9, 0, 0, 0, 0])).toThrow('Unexpected rate-limit script reply');
    expect(() => parseScriptReply([0, 'x', 0, 0, 0])).toThrow('Unexpected rate-limit script reply');
  });
});
