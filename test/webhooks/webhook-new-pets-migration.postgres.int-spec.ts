import { OutboxRepository } from '../../src/modules/webhooks/outbox.repository.js';
import { WebhookNewPets1798329600000 } from '../../src/modules/webhooks/migrations/1798329600000-webhook-new-pets.js';
import { SERVER_MIGRATIONS } from '../support/server-migrations.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { emptyDatabase } from '../support/test-databases.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';

/** A database of this suite's own (test/support/test-databases.ts). */
const url = await emptyDatabase();

const petCreatedEvents = (t: TestApp) =>
  t.dataSource.query<Array<{ body: string }>>(`SELECT body FROM webhook_events WHERE type = 'pet.created' ORDER BY created_at`);

/**
 * The creating INSERT queues an animal and the worker writes its event; `down` writes the events still queued
 * before it puts the INSERT's own event back, so rolling back loses none.
 */
describe('the webhook_new_pets migration (integration, PostgreSQL)', () => {
  let t: TestApp;
  let auth: { Authorization: string };

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL: url, WEBHOOK_DELIVERY: 'false' } });
    const client = await t.app.get(ClientsService).create('Queue', 'pro', {}, OPERATOR);
    auth = { Authorization: `Bearer ${(await t.app.get(ApiKeysService).issue(client.id, { scopes: ['pets:write'] }, OPERATOR)).key}` };
    await t.app.get(OutboxRepository).dispatch(500, 7); // the key's event
  });
  afterAll(() => t.close());

  it('is the latest migration, so undoing the last one undoes it', () => {
    expect(SERVER_MIGRATIONS.at(-1)).toBe(WebhookNewPets1798329600000);
  });

  it('queues a creation, which the worker writes as its pet.created event', async () => {
    const pet = (await t.http().post('/v1/pets').set(auth).send({ name: 'Queued', categoryId: 1 }).expect(201)).body;
    expect(await t.dataSource.query('SELECT id, name FROM webhook_new_pets')).toEqual([{ id: pet.id, name: 'Queued' }]);
    expect(await petCreatedEvents(t)).toEqual([]);

    expect(await t.app.get(OutboxRepository).dispatch(500, 7)).toBe(1);
    expect(await t.dataSource.query('SELECT id FROM webhook_new_pets')).toEqual([]);
    const [event] = (await petCreatedEvents(t)).map(({ body }) => JSON.parse(body));
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'pet.created',
      createdAt: expect.any(String),
      data: pet,
    });
  });

  it('down writes the events still queued, then the INSERT writes its own again; up queues once more', async () => {
    await t.http().post('/v1/pets').set(auth).send({ name: 'Waiting', categoryId: 1 }).expect(201);
    await t.dataSource.undoLastMigration();
    expect((await petCreatedEvents(t)).map(({ body }) => JSON.parse(body).data.name)).toEqual(['Queued', 'Waiting']);

    await t.http().post('/v1/pets').set(auth).send({ name: 'Direct', categoryId: 1 }).expect(201);
    expect((await petCreatedEvents(t)).map(({ body }) => JSON.parse(body).data.name)).toEqual(['Queued', 'Waiting', 'Direct']);

    await t.dataSource.runMigrations();
    await t.http().post('/v1/pets').set(auth).send({ name: 'Queued again', categoryId: 1 }).expect(201);
    expect(await t.dataSource.query('SELECT name FROM webhook_new_pets')).toEqual([{ name: 'Queued again' }]);
  });
});
