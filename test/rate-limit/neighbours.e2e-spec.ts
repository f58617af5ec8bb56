import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDatabase } from '../support/cli-in-process.js';
import { FakeClock } from '../support/fake-clock.js';
import { describeNeighbours } from '../support/neighbours.behaviour.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The in-process limiter (no Redis), on a clock that stays in one minute. */
let replica: TestApp | undefined;
let databaseFile: string | undefined;

afterEach(async () => {
  await replica?.close();
  if (databaseFile) removeDatabase(databaseFile);
  [replica, databaseFile] = [undefined, undefined];
});

describeNeighbours('in-process limiter', async () => {
  databaseFile = join(tmpdir(), `pets-neighbours-${randomUUID()}.sqlite`);
  const databaseUrl = `sqlite:${databaseFile}`;
  replica = await createTestApp({ env: { DATABASE_URL: databaseUrl }, clock: new FakeClock(new Date('2027-03-01T12:00:05Z')) });
  return { replicas: [replica], databaseUrl, awayFromMinuteEnd: () => Promise.resolve() };
});
