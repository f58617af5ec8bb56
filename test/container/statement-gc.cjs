/* global setInterval, clearInterval */
// Prepares and drops many better-sqlite3 statements, as TypeORM's SQLite driver does on every query,
// then allocates until the garbage collector has freed them; prints "survived" and exits 0. A native
// module built on node::ObjectWrap against Node 24.19+ aborts here (nodejs/node#65446). Run with the
// Node to check, from a folder whose node_modules holds better-sqlite3: native-modules.spec.ts runs it
// on the Node of the tests, check-image.mjs in the image.
const Database = require('better-sqlite3');

const db = new Database(':memory:');
for (let i = 0; i < 100_000; i++) db.prepare('SELECT ?').get(i);
let garbage = [];
const allocate = setInterval(() => {
  garbage = Array.from({ length: 100_000 }, (_, i) => ({ i }));
}, 5);
setTimeout(() => {
  clearInterval(allocate);
  db.close();
  console.log(garbage.length > 0 ? 'survived' : 'no garbage made');
}, 1_500);
