import { linkTarget } from './link-header.js';

describe('linkTarget', () => {
  it('finds the link of a relation among several, in any spelling the RFC allows', () => {
    const header = '</v1/pets?cursor=a>; rel="prev", <https://api.pets.example/v1/pets?limit=20&cursor=b>; rel="next"';
    expect(linkTarget(header, 'next')).toBe('https://api.pets.example/v1/pets?limit=20&cursor=b');
    expect(linkTarget('</v1/pets>;rel=successor-version', 'successor-version')).toBe('/v1/pets');
    expect(linkTarget('</a>; title="x"; REL="start next"', 'next')).toBe('/a');
  });

  it('finds nothing without that relation, or without a header', () => {
    expect(linkTarget('</v1/pets>; rel="successor-version"', 'next')).toBeUndefined();
    expect(linkTarget('</v1/pets>; title="next"', 'next')).toBeUndefined();
    expect(linkTarget(null, 'next')).toBeUndefined();
  });
});
