import { isSealed, openReplay, sealReplay } from './sealed-replay.js';

const CONTENT = { body: { id: 5, key: 'pets_secretsecretsecretsecretsecretse1a2b3c' }, location: 'http://localhost/v1/keys/5' };
const CONTEXT = { token: 'pets_callercallercallercallercaller12ab34', clientId: 7, keyHash: 'a'.repeat(64) };

describe('sealed replays', () => {
  it('opens what it sealed with the same API key and scope, and the sealed text shows none of it', () => {
    const sealed = sealReplay(CONTENT, CONTEXT);
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(CONTENT.body.key);
    expect(sealed).not.toContain('localhost');
    expect(openReplay(sealed, CONTEXT)).toEqual(CONTENT);
  });

  it('seals an absent body as null and leaves out an absent Location', () => {
    expect(openReplay(sealReplay({ body: undefined }, CONTEXT), CONTEXT)).toEqual({ body: null });
  });

  it('uses a fresh IV each time: the same content seals differently', () => {
    expect(sealReplay(CONTENT, CONTEXT)).not.toBe(sealReplay(CONTENT, CONTEXT));
  });

  it.each([
    ['another API key', { ...CONTEXT, token: 'pets_othererotherotherotherotherot56cd78' }],
    ['another client', { ...CONTEXT, clientId: 8 }],
    ['another Idempotency-Key', { ...CONTEXT, keyHash: 'b'.repeat(64) }],
  ])('cannot be opened with %s', (_case, context) => {
    expect(openReplay(sealReplay(CONTENT, CONTEXT), context)).toBeUndefined();
  });

  it('refuses a tampered ciphertext, tag or IV, and a truncated one', () => {
    const sealed = sealReplay(CONTENT, CONTEXT);
    const [prefix, payload] = [sealed.slice(0, 3), Buffer.from(sealed.slice(3), 'base64url')];
    for (const at of [0, 12, 28, payload.length - 1]) {
      const altered = Buffer.from(payload);
      altered[at] ^= 1;
      expect(openReplay(prefix + altered.toString('base64url'), CONTEXT)).toBeUndefined();
    }
    expect(openReplay(prefix + payload.subarray(0, 20).toString('base64url'), CONTEXT)).toBeUndefined();
    expect(openReplay(sealed.slice(0, -4), CONTEXT)).toBeUndefined();
  });

  it('reads plain JSON, as the release before stored it, as not sealed', () => {
    for (const legacy of ['{"id":5}', '[]', 'null', '"text"', '12']) expect(isSealed(legacy)).toBe(false);
    expect(openReplay('{"id":5}', CONTEXT)).toBeUndefined();
  });
});
