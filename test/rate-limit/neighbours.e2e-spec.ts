import { FakeClock } from '../support/fake-clock.js';
import { describeNeighbours } from '../support/neighbours.behaviour.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { migratedDatabase, type MigratedDatabase } from '../support/test-databases.js';

/** The in-process limiter (no Redis) on PostgreSQL, on a clock that stays in one minute. */
let replica: TestApp | undefined;
let database: MigratedDatabase | undefined;

afterEach(async () => {
  await replica?.close();
  database?.release();
  [replica, database] = [undefined, undefined];
});

describeNeighbours('in-process limiter', async () => {
  database = await migratedDatabase();
  replica = await createTestApp({ env: { DATABASE_URL: database.url }, clock: new FakeClock(new Date('2027-03-01T12:00:05Z')) });
  return { replicas: [replica], databaseUrl: database.url, awayFromMinuteEnd: () => Promise.resolve() };
});
