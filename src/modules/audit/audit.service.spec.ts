import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { AppParts, encodeCursor, ValidationFailedException } from '../../common/index.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditService } from './audit.service.js';
import type { AuditEvent } from './entities/audit-event.entity.js';

/** An event as PostgreSQL's driver may hand it over: bigint columns as strings. */
const event = (id: number): AuditEvent =>
  ({
    id: String(id),
    occurredAt: new Date('2027-03-01T12:00:00Z'),
    actor: 'cli',
    action: 'key.created',
    clientId: '3',
    keyId: String(id * 10),
    requestId: null,
    details: { scopes: ['pets:read'] },
  }) as unknown as AuditEvent;

describe('AuditService (the repository mocked)', () => {
  const events = { findPage: jest.fn<AuditEventsRepository['findPage']>() };
  let service: AuditService;

  beforeEach(async () => {
    jest.resetAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [
        AuditService,
        { provide: AuditEventsRepository, useValue: events },
        { provide: AppParts, useValue: { auditActions: ['key.created', 'key.revoked'] } },
      ],
    }).compile();
    service = moduleRef.get(AuditService);
  });

  it('lists the first page newest first, 20 by default, with numbers for ids and an ISO time', async () => {
    events.findPage.mockResolvedValue([event(2), event(1)]);
    await expect(service.list({})).resolves.toEqual({
      items: [
        {
          id: 2,
          occurredAt: '2027-03-01T12:00:00.000Z',
          actor: 'cli',
          action: 'key.created',
          clientId: 3,
          keyId: 20,
          requestId: null,
          details: { scopes: ['pets:read'] },
        },
        expect.objectContaining({ id: 1, keyId: 10 }),
      ],
      nextCursor: null,
    });
    expect(events.findPage).toHaveBeenCalledWith({ clientId: undefined, action: undefined }, undefined, 21);
  });

  it('hands out a cursor after the last event when there is more, and continues below it with the same filters', async () => {
    events.findPage.mockResolvedValue([event(9), event(7), event(5)]);
    const first = await service.list({ clientId: 3, action: 'key.created', limit: 2 });
    expect(first.nextCursor).toEqual(expect.any(String));
    events.findPage.mockResolvedValue([event(4)]);
    await expect(service.list({ clientId: 3, action: 'key.created', limit: 2, cursor: first.nextCursor! })).resolves.toMatchObject({
      nextCursor: null,
    });
    expect(events.findPage).toHaveBeenLastCalledWith({ clientId: 3, action: 'key.created' }, 7, 3);
  });

  it.each([
    ['a malformed cursor', { cursor: 'abc' }, 'cursor'],
    ['a cursor whose checksum is wrong', { cursor: `${encodeCursor({ after: 5, clientId: null, action: null })}x` }, 'cursor'],
    ['a cursor at no id', { cursor: encodeCursor({ after: 0, clientId: null, action: null }) }, 'cursor'],
    ['a cursor of another client', { clientId: 4, cursor: encodeCursor({ after: 5, clientId: 3, action: null }) }, 'cursor'],
    ['a cursor of another action', { cursor: encodeCursor({ after: 5, clientId: null, action: 'key.created' }) }, 'cursor'],
    ['an unknown action', { action: 'key.deleted' }, 'action'],
    ['a client id that is not a positive integer', { clientId: 0 }, 'clientId'],
    ['a limit of 0', { limit: 0 }, 'limit'],
    ['a limit above 100', { limit: 101 }, 'limit'],
    ['a fractional limit', { limit: 1.5 }, 'limit'],
  ])('refuses %s with 400 validation_failed naming the field, before reading', async (_case, query, field) => {
    const refused = service.list(query);
    await expect(refused).rejects.toBeInstanceOf(ValidationFailedException);
    await expect(refused).rejects.toMatchObject({ details: [expect.objectContaining({ field })] });
    expect(events.findPage).not.toHaveBeenCalled();
  });

  it('names every bad field at once', async () => {
    await expect(service.list({ action: 'nope', limit: 0, cursor: 'x' })).rejects.toMatchObject({
      details: [{ field: 'limit' }, { field: 'action' }, { field: 'cursor' }].map((detail) => expect.objectContaining(detail)),
    });
  });
});
