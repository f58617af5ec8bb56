import { DEFAULT_SCOPES, isScope, normalizeScopes, SCOPES, scopeString } from './scopes.js';

describe('scopes', () => {
  it('knows the catalogue, and the default is read and write of pets', () => {
    expect(SCOPES.filter(isScope)).toEqual(['pets:read', 'pets:write', 'keys:manage']);
    expect(DEFAULT_SCOPES).toEqual(['pets:read', 'pets:write']);
    expect(['PETS:READ', 'pets:*', '', 'pets:read '].filter(isScope)).toEqual([]);
  });

  it('normalizes to each scope once, in catalogue order', () => {
    expect(normalizeScopes(['keys:manage', 'pets:read', 'keys:manage'])).toEqual(['pets:read', 'keys:manage']);
  });

  it('stores space-separated, and reads back only the names it knows', () => {
    expect(scopeString.to(['pets:read', 'keys:manage'])).toBe('pets:read keys:manage');
    expect(scopeString.from('pets:read pets:write')).toEqual(['pets:read', 'pets:write']);
    expect(scopeString.from('pets:read pets:delete keys:manage')).toEqual(['pets:read', 'keys:manage']);
    expect(scopeString.from('')).toEqual([]);
  });
});
