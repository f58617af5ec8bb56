import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { AppParts, Clock } from '../../common/index.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditLog } from './audit.service.js';
import { actorName } from './change-context.js';

const NOW = new Date('2027-03-01T12:00:00Z');

describe('AuditLog (the repository mocked)', () => {
  const events = { insert: jest.fn<AuditEventsRepository['insert']>() };
  let log: AuditLog;

  beforeEach(async () => {
    jest.resetAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [
        AuditLog,
        { provide: AuditEventsRepository, useValue: events },
        { provide: Clock, useValue: { now: () => new Date(NOW) } },
        { provide: AppParts, useValue: { auditActions: ['client.created', 'key.created', 'key.rolled', 'admin_token.created'] } },
      ],
    }).compile();
    log = moduleRef.get(AuditLog);
  });

  it('writes the time, the actor, the action, the ids, the request id and the details', async () => {
    const details = { successorKeyId: 9, overlapSeconds: 60 };
    await log.record({ actor: { kind: 'key', id: 4 }, requestId: 'req-1' }, { action: 'key.rolled', clientId: 2, keyId: 4, details });
    expect(events.insert).toHaveBeenCalledWith({
      occurredAt: NOW,
      actor: 'key:4',
      action: 'key.rolled',
      clientId: 2,
      keyId: 4,
      requestId: 'req-1',
      details,
    });
  });

  it('writes null for what the change did not touch, and empty details', async () => {
    await log.record({ actor: { kind: 'cli' } }, { action: 'admin_token.created' });
    expect(events.insert).toHaveBeenCalledWith(
      expect.objectContaining({ actor: 'cli', clientId: null, keyId: null, requestId: null, details: {} }),
    );
  });

  it('refuses an action no module declares: a typo never reaches the log', async () => {
    await expect(log.record({ actor: { kind: 'cli' } }, { action: 'key.rolld' })).rejects.toThrow(
      'No module declares the audit action "key.rolld"',
    );
    expect(events.insert).not.toHaveBeenCalled();
  });

  it('names each kind of actor', () => {
    expect([actorName({ kind: 'cli' }), actorName({ kind: 'admin-token', id: 3 }), actorName({ kind: 'key', id: 12 })]).toEqual([
      'cli',
      'admin-token:3',
      'key:12',
    ]);
  });
});
