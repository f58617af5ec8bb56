import { OutboxRepository } from '../../src/modules/webhooks/outbox.repository.js';
import { WebhookPetFeed1798416000000 } from '../../src/modules/webhooks/migrations/1798416000000-webhook-pet-feed.js';
import { SERVER_MIGRATIONS } from '../support/server-migrations.js';
import { createTestApp, OPERATOR, type TestApp } from '../support/test-app.js';
import { emptyDatabase } from '../support/test-databases.js';
import { eventually } from '../support/eventually.js';
import { ApiKeysService } from '../../src/modules/auth/index.js';
import { ClientsService } from '../../src/modules/plans/index.js';

/** A database of this suite's own (test/support/test-databases.ts). */
const url = await emptyDatabase();

/**
 * The creating INSERT writes nothing but the animal: the delivery worker reads `pets` as a feed, in the order of the
 * creating transactions, and takes an animal only once every older transaction has ended, so a creation that commits
 * late is never passed over. `down` queues what the feed has not reached and puts the trigger back; `up` writes the queue.
 */
describe('the pets feed of pet.created (integration, PostgreSQL)', () => {
  let t: TestApp;
  let auth: { Authorization: string };
  const dispatch = () => t.app.get(OutboxRepository).dispatch(500, 7);
  const create = async (name: string) => (await t.http().post('/v1/pets').set(auth).send({ name, categoryId: 1 }).expect(201)).body;
  const announced = async () =>
    (await t.dataSource.query<Array<{ body: string }>>(`SELECT body FROM webhook_events WHERE type = 'pet.created'`))
      .map(({ body }) => JSON.parse(body).data.name as string)
      .sort();
  /** Other suites' transactions on this server may hold the feed back a moment: the events once `count` are written. */
  const settled = (count: number) =>
    eventually(
      async () => (await dispatch(), announced()),
      (names) => names.length >= count,
    );

  beforeAll(async () => {
    t = await createTestApp({ env: { DATABASE_URL: url, WEBHOOK_DELIVERY: 'false' } });
    const client = await t.app.get(ClientsService).create('Feed', 'pro', {}, OPERATOR);
    auth = { Authorization: `Bearer ${(await t.app.get(ApiKeysService).issue(client.id, { scopes: ['pets:write'] }, OPERATOR)).key}` };
    await dispatch(); // the key's event
  });
  afterAll(() => t.close());

  it('is the latest migration, so undoing the last one undoes it', () => {
    expect(SERVER_MIGRATIONS.at(-1)).toBe(WebhookPetFeed1798416000000);
  });

  it('writes a creation as its pet.created event from the feed, once', async () => {
    const pet = await create('Fed');
    expect(await announced()).toEqual([]);

    expect(await settled(1)).toEqual(['Fed']);
    const [{ body }] = await t.dataSource.query<Array<{ body: string }>>(`SELECT body FROM webhook_events WHERE type = 'pet.created'`);
    expect(JSON.parse(body)).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      type: 'pet.created',
      createdAt: expect.any(String),
      data: pet,
    });
    expect(await dispatch()).toBe(0);
  });

  it('holds a creation back while an older transaction runs, so the older one, committing later, is not passed over', async () => {
    const early = t.dataSource.createQueryRunner();
    await early.startTransaction();
    try {
      await early.query(`INSERT INTO pets (name, category_id, status) VALUES ('Early', 1, 'available')`);
      await create('Late');
      expect(await dispatch()).toBe(0);
      await early.commitTransaction();
    } finally {
      await early.release();
    }
    expect(await settled(3)).toEqual(['Early', 'Fed', 'Late']);
  });

  it('announces nothing of a creation rolled back, and goes on past it', async () => {
    const undone = t.dataSource.createQueryRunner();
    await undone.startTransaction();
    await undone.query(`INSERT INTO pets (name, category_id, status) VALUES ('Undone', 1, 'available')`);
    await undone.rollbackTransaction();
    await undone.release();
    await create('After');
    expect(await settled(4)).toEqual(['After', 'Early', 'Fed', 'Late']);
  });

  it('down queues what the feed has not reached, the migration before writes the queue, and up reads the feed again', async () => {
    const queued = async () =>
      (await t.dataSource.query<Array<{ name: string }>>('SELECT name FROM webhook_new_pets ORDER BY id')).map(({ name }) => name);
    await create('Waiting');
    await t.dataSource.undoLastMigration();
    expect(await queued()).toEqual(['Waiting']);
    await create('Queued');
    expect(await queued()).toEqual(['Waiting', 'Queued']);

    // 1798329600000's down: the queue written, then the INSERT writes its own event.
    await t.dataSource.undoLastMigration();
    expect(await announced()).toEqual(['After', 'Early', 'Fed', 'Late', 'Queued', 'Waiting']);
    await create('Direct');
    expect(await announced()).toEqual(['After', 'Direct', 'Early', 'Fed', 'Late', 'Queued', 'Waiting']);

    await t.dataSource.runMigrations();
    await create('Fed again');
    expect(await queued()).toEqual([]);
    expect(await settled(8)).toEqual(['After', 'Direct', 'Early', 'Fed', 'Fed again', 'Late', 'Queued', 'Waiting']);
  });
});
