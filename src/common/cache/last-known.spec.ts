import { LastKnown } from './last-known.js';

const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('LastKnown', () => {
  it('answers what the read answers while the database is up', async () => {
    const last = new LastKnown<string, number>(60_000, 10);
    last.remember('a', 1, 0);
    await expect(last.read('a', 1, () => Promise.resolve(2))).resolves.toBe(2);
  });

  it('answers the value remembered within the stale window while the database is unavailable', async () => {
    const last = new LastKnown<string, number>(60_000, 10);
    last.remember('a', 1, 0);
    await expect(last.read('a', 59_999, () => Promise.reject(unavailable))).resolves.toBe(1);
    await expect(last.read('a', 60_000, () => Promise.reject(unavailable))).rejects.toBe(unavailable);
  });

  it('fails as the read failed for any other error, or when nothing is remembered', async () => {
    const last = new LastKnown<string, number>(60_000, 10);
    last.remember('a', 1, 0);
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    await expect(last.read('a', 1, () => Promise.reject(bug))).rejects.toBe(bug);
    await expect(last.read('b', 1, () => Promise.reject(unavailable))).rejects.toBe(unavailable);
    last.forget('a');
    expect(last.has('a', 1)).toBe(false);
  });
});
