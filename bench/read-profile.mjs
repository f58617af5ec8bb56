#!/usr/bin/env node
// Summarises a V8 .cpuprofile from `node --cpu-prof` (see bench/lib/profile.mjs):
//   node bench/read-profile.mjs <file.cpuprofile> [--top 25] [--skip-ms 5000] [--weight samples|time]
// --skip-ms leaves out the first milliseconds of the profile (the start-up and warm-up).
import { parseArgs } from 'node:util';
import { formatProfile, summariseProfile } from './lib/profile.mjs';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string', default: '25' },
    'skip-ms': { type: 'string', default: '0' },
    weight: { type: 'string', default: 'samples' },
  },
});
if (positionals.length !== 1 || !['samples', 'time'].includes(values.weight)) {
  console.error('usage: node bench/read-profile.mjs <file.cpuprofile> [--top N] [--skip-ms MS] [--weight samples|time]');
  process.exit(2);
}
const weight = values.weight === 'time' ? 'time' : 'samples';
console.log(formatProfile(summariseProfile(positionals[0], { top: Number(values.top), skipMs: Number(values['skip-ms']), weight })));
