import { describeScopesMigration } from '../support/scopes-migration.behaviour.js';
import { postgresSuiteTurn } from '../support/postgres-suite.js';

/** On the PostgreSQL DATABASE_URL names, emptied first (the suites take turns). */
const DATABASE_URL = process.env.DATABASE_URL!;

postgresSuiteTurn(DATABASE_URL);
describeScopesMigration(DATABASE_URL);
