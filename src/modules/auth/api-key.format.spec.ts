import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey, tokenFormat } from './api-key.format.js';

describe('API key format', () => {
  it('makes keys of pets_ + 32 base62 characters + a 6-character checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^pets_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('makes a different key every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
  });

  it('refuses a key whose checksum does not match its body', () => {
    const key = generateApiKey();
    const body = key.slice(5, 37);
    const flipped = body[0] === 'a' ? 'b' + body.slice(1) : 'a' + body.slice(1);
    expect(isWellFormedApiKey(`pets_${flipped}${key.slice(37)}`)).toBe(false);
  });

  it.each(['', 'pets_', 'pets_short', 'sk_' + 'a'.repeat(38), generateApiKey() + 'x', generateApiKey().replace('pets_', 'PETS_')])(
    'refuses the malformed token %p',
    (token) => expect(isWellFormedApiKey(token)).toBe(false),
  );

  it('hashes with SHA-256 and keeps a short display prefix', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(displayPrefix(key)).toBe(key.slice(0, 13));
  });
});

describe('tokenFormat', () => {
  const admin = tokenFormat('pets_admin_');

  it('makes tokens of another prefix with the same body, checksum, hash and display prefix', () => {
    const token = admin.generate();
    expect(token).toMatch(/^pets_admin_[0-9A-Za-z]{38}$/);
    expect(admin.isWellFormed(token)).toBe(true);
    expect(admin.hash(token)).toBe(hashApiKey(token));
    expect(admin.displayPrefix(token)).toBe(token.slice(0, 19));
  });

  it('tells the two kinds apart: neither is well formed as the other', () => {
    expect(isWellFormedApiKey(admin.generate())).toBe(false);
    expect(admin.isWellFormed(generateApiKey())).toBe(false);
  });
});
