import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeScopesMigration } from '../support/scopes-migration.behaviour.js';

// A file, not memory: the schema of the previous release must outlive its connection.
const path = join(tmpdir(), `pets-scopes-migration-${process.pid}-${Date.now()}.sqlite`);

afterAll(() => {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
});

describeScopesMigration(`sqlite:${path}`);
