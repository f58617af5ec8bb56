import { jest } from '@jest/globals';
import { deprecationNotice, warnOfDeprecation } from './deprecation.js';

const base = new URL('https://api.pets.example/v1');

describe('deprecationNotice', () => {
  it('reads Deprecation, Sunset and the successor link', () => {
    const headers = new Headers({
      Deprecation: '@1767225600',
      Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      Link: '</v1/pets>; rel="successor-version"',
    });
    expect(deprecationNotice('getPet', headers, base)).toEqual({
      operation: 'getPet',
      deprecatedAt: new Date('2026-01-01T00:00:00Z'),
      sunsetAt: new Date('2030-12-05T00:00:00Z'),
      successor: 'https://api.pets.example/v1/pets',
    });
  });

  it('is only the deprecation when Sunset and the link are missing or unreadable', () => {
    const deprecatedOnly = { operation: 'getPet', deprecatedAt: new Date(0) };
    expect(deprecationNotice('getPet', new Headers({ Deprecation: '@0' }), base)).toEqual(deprecatedOnly);
    expect(deprecationNotice('getPet', new Headers({ Deprecation: '@0', Sunset: 'soon' }), base)).toEqual(deprecatedOnly);
  });

  it('is nothing for an operation that is not deprecated', () => {
    expect(deprecationNotice('listPets', new Headers({ Link: '</v1/pets?cursor=x>; rel="next"' }), base)).toBeUndefined();
    expect(deprecationNotice('listPets', new Headers({ Deprecation: 'true' }), base)).toBeUndefined();
  });
});

describe('warnOfDeprecation', () => {
  it('says what, since when, until when and what instead', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    warnOfDeprecation({ operation: 'getPet', deprecatedAt: new Date(0), sunsetAt: new Date(86_400_000), successor: 'https://x/v1/pets' });
    warnOfDeprecation({ operation: 'getPet', deprecatedAt: new Date(0) });
    expect(warn.mock.calls).toEqual([
      [
        '@pet-adoption/client: getPet is deprecated since 1970-01-01T00:00:00.000Z; it stops working on 1970-01-02T00:00:00.000Z; use https://x/v1/pets instead.',
      ],
      ['@pet-adoption/client: getPet is deprecated since 1970-01-01T00:00:00.000Z.'],
    ]);
    warn.mockRestore();
  });
});
