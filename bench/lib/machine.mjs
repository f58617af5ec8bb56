// The machine a run was measured on, as the report and docs/benchmarks.md print it.
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem, type as osType, release as osRelease } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths.mjs';
import { run } from './processes.mjs';

/** The 1, 5 and 15 minute load averages, as printed. */
export const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The machine at the start of the run; `loadEnd` is filled in when the run ends. */
export async function machine(postgresVersion, redisVersion) {
  const cpuInfo = readFileSync('/proc/cpuinfo', 'utf8');
  const autocannonPackage = JSON.parse(readFileSync(join(ROOT, 'node_modules/autocannon/package.json'), 'utf8'));
  return {
    nproc: Number((await run('nproc', [], { cwd: ROOT })).trim()),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuInfo)?.[1] ?? cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    os: `${osType()} ${osRelease()}`,
    node: process.version,
    postgres: postgresVersion,
    redis: redisVersion,
    autocannon: autocannonPackage.version,
    loadStart: loadAverages(),
    loadEnd: '',
  };
}
