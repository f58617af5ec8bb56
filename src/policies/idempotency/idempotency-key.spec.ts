import { ValidationFailedException } from '../../common/index.js';
import { bodyFingerprint, canonicalJson, idempotencyKeyHash } from './idempotency-key.js';

describe('idempotencyKeyHash', () => {
  it('is undefined without the header and the SHA-256 of a valid one', () => {
    expect(idempotencyKeyHash(undefined)).toBeUndefined();
    expect(idempotencyKeyHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    ['1 character', 'k'],
    ['255 characters', 'k'.repeat(255)],
    ['spaces and symbols', ' ~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|} '],
  ])('accepts %s', (_case, header) => {
    expect(idempotencyKeyHash(header)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007f'],
    ['non-ASCII', 'café'],
    ['repeated', ['a', 'b']],
  ])('refuses %s with validation_failed on Idempotency-Key', (_case, header) => {
    expect(() => idempotencyKeyHash(header)).toThrow(ValidationFailedException);
    try {
      idempotencyKeyHash(header);
    } catch (error) {
      expect((error as ValidationFailedException).details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    }
  });
});

describe('canonicalJson and bodyFingerprint', () => {
  it('sorts object keys at every depth and drops white space', () => {
    expect(canonicalJson({ b: [{ z: 1, a: null }], a: 'x', c: { y: true, x: 1.5 } })).toBe(
      '{"a":"x","b":[{"a":null,"z":1}],"c":{"x":1.5,"y":true}}',
    );
  });

  it('gives the same fingerprint to the same JSON value, whatever the key order', () => {
    expect(bodyFingerprint(JSON.parse('{"name":"Rex","categoryId":1}'))).toBe(
      bodyFingerprint(JSON.parse('{ "categoryId": 1.0, "name": "Rex" }')),
    );
  });

  it('tells different values apart, including array order, types and a missing field', () => {
    const fingerprints = [
      { name: 'Rex', categoryId: 1 },
      { name: 'Rex', categoryId: '1' },
      { name: 'Rex' },
      { name: 'Rex', categoryId: 1, status: 'available' },
      [1, 2],
      [2, 1],
      null,
      {},
      [],
    ].map(bodyFingerprint);
    expect(new Set(fingerprints).size).toBe(fingerprints.length);
  });

  it('treats an absent body as null', () => {
    expect(bodyFingerprint(undefined)).toBe(bodyFingerprint(null));
  });
});
