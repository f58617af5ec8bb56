import { serverParts } from '../../src/app.module.js';

/** The server's migrations, gathered from its modules, in the order TypeORM runs them: by the timestamp their names end with. */
export const SERVER_MIGRATIONS = [...serverParts().migrations].sort((a, b) => Number(a.name.slice(-13)) - Number(b.name.slice(-13)));
