import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { Clock, type Principal } from '../../common/index.js';
import { ApiKeysService, InsufficientScopeException, ScopeCatalogue, type ApiKeyView } from '../auth/index.js';
import { KeyLimitReachedException, KeyNotFoundException } from './keys.exceptions.js';
import { KeysService, MAX_LIVE_KEYS } from './keys.service.js';

const NOW = new Date('2027-03-01T12:00:00Z');
const caller: Principal = { keyId: 1, clientId: 7, scopes: ['pets:read', 'pets:write', 'keys:manage'] };
const view: ApiKeyView = {
  id: 2,
  clientId: 7,
  name: 'ci',
  prefix: 'pets_abcdefgh',
  scopes: ['pets:read'],
  createdAt: NOW.toISOString(),
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: '2027-03-01T11:58:42.123Z',
};
/** The calling key, in the request the audit event names. */
const byCaller = { actor: { kind: 'key' as const, id: 1 }, requestId: 'req-42' };
const shown = { id: 2, name: 'ci', prefix: 'pets_abcdefgh', scopes: ['pets:read'], createdAt: NOW.toISOString(), expiresAt: null };

/** The resolution of a real catalogue of the three scopes, pets' two the defaults. */
const catalogue = {
  resolve: (scopes?: readonly string[]) =>
    scopes === undefined ? ['pets:read', 'pets:write'] : ['pets:read', 'pets:write', 'keys:manage'].filter((s) => scopes.includes(s)),
};

describe('KeysService (the auth module mocked)', () => {
  let service: KeysService;
  const keys = {
    listLive: jest.fn<ApiKeysService['listLive']>(),
    issue: jest.fn<ApiKeysService['issue']>(),
    roll: jest.fn<ApiKeysService['roll']>(),
    revokeOfClient: jest.fn<ApiKeysService['revokeOfClient']>(),
  };

  beforeEach(async () => {
    jest.resetAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [
        KeysService,
        { provide: ApiKeysService, useValue: keys },
        { provide: ScopeCatalogue, useValue: catalogue },
        { provide: Clock, useValue: { now: () => new Date(NOW) } },
      ],
    }).compile();
    service = moduleRef.get(KeysService);
  });

  it("lists the caller's client's live keys, lastUsedAt to the minute, without client or revocation fields", async () => {
    keys.listLive.mockResolvedValue([view]);
    await expect(service.list(caller)).resolves.toEqual([{ ...shown, lastUsedAt: '2027-03-01T11:58:00.000Z' }]);
    expect(keys.listLive).toHaveBeenCalledWith(7);
  });

  it('creates with the default scopes, an expiry from the clock, the limit of live keys, and the change context', async () => {
    keys.issue.mockResolvedValue({ key: 'pets_secret', apiKey: view });
    await expect(service.create(caller, { name: 'ci', expiresInSeconds: 60 }, byCaller)).resolves.toEqual({
      ...shown,
      lastUsedAt: '2027-03-01T11:58:00.000Z',
      key: 'pets_secret',
    });
    expect(keys.issue).toHaveBeenCalledWith(
      7,
      { name: 'ci', scopes: ['pets:read', 'pets:write'], expiresAt: new Date('2027-03-01T12:01:00Z') },
      byCaller,
      MAX_LIVE_KEYS,
    );
  });

  it('refuses scopes the calling key lacks, naming the first, before issuing anything', async () => {
    const reader = { ...caller, scopes: ['pets:read', 'keys:manage'] };
    await expect(service.create(reader, { name: 'ci', scopes: ['pets:read', 'pets:write'] }, byCaller)).rejects.toMatchObject({
      constructor: InsufficientScopeException,
      message: expect.stringContaining('pets:write'),
    });
    expect(keys.issue).not.toHaveBeenCalled();
  });

  it('turns the limit into 409 key_limit_reached, for creations and rolls', async () => {
    keys.issue.mockResolvedValue('limit-reached');
    keys.roll.mockResolvedValue('limit-reached');
    await expect(service.create(caller, { name: 'ci' }, byCaller)).rejects.toBeInstanceOf(KeyLimitReachedException);
    await expect(service.roll(caller, 2, 60, byCaller)).rejects.toBeInstanceOf(KeyLimitReachedException);
  });

  it("rolls within the caller's client with the overlap in milliseconds; a key not found there is 404", async () => {
    keys.roll.mockResolvedValue({ key: 'pets_new', apiKey: view });
    await expect(service.roll(caller, 2, 90, byCaller)).resolves.toMatchObject({ key: 'pets_new', name: 'ci' });
    expect(keys.roll).toHaveBeenCalledWith(2, 7, 90_000, byCaller, MAX_LIVE_KEYS);
    keys.roll.mockResolvedValue('not-found');
    await expect(service.roll(caller, 3, 90, byCaller)).rejects.toBeInstanceOf(KeyNotFoundException);
  });

  it("revokes within the caller's client; a key not found there is 404", async () => {
    keys.revokeOfClient.mockResolvedValue('revoked');
    await expect(service.revoke(caller, 2, byCaller)).resolves.toBeUndefined();
    expect(keys.revokeOfClient).toHaveBeenCalledWith(2, 7, byCaller);
    keys.revokeOfClient.mockResolvedValue('not-found');
    await expect(service.revoke(caller, 3, byCaller)).rejects.toBeInstanceOf(KeyNotFoundException);
  });
});
