#!/usr/bin/env node
// `npm run bench:chart`: redraws docs/benchmarks.svg and rewrites the generated section of
// docs/benchmarks.md from docs/benchmarks.json, without running the benchmark: after a change to
// how the report or the chart is written, the docs follow the last run's figures.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { log } from './lib/log.mjs';
import { ROOT } from './lib/paths.mjs';
import { writeDocs } from './lib/report.mjs';

const docsDir = join(ROOT, 'docs');
await writeDocs(JSON.parse(readFileSync(join(docsDir, 'benchmarks.json'), 'utf8')), docsDir);
log('wrote docs/benchmarks.svg and the generated section of docs/benchmarks.md from docs/benchmarks.json');
