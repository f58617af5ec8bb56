import { InProcessLocks, type KeyHolder } from './idempotency-locks.js';

describe('InProcessLocks', () => {
  const locks = new InProcessLocks();
  const scope = { clientId: 7, keyHash: 'k' };
  const holderOf = (fingerprint: string, clientId = 7) =>
    locks.run({ ...scope, clientId }, fingerprint, (holder) => Promise.resolve(holder));

  it('lets one request hold a key while it runs, and tells the others whether they carry its body', async () => {
    let release!: () => void;
    const seen: KeyHolder[] = [];
    const first = locks.run(scope, 'body', async (holder) => {
      seen.push(holder);
      await new Promise<void>((resolve) => (release = resolve));
    });
    seen.push(await holderOf('body'), await holderOf('another body'), await holderOf('body', 8));
    release();
    await first;
    expect(seen).toEqual(['this request', 'same body', 'other body', 'this request']);
  });

  it('frees the key when the holder ends, by answering or failing', async () => {
    await expect(locks.run(scope, 'body', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await holderOf('another body')).toBe('this request');
  });
});
