// Optional CPU profile (BENCH_PROFILE=1): a fresh instance of B under `node --cpu-prof`, warmed for
// 20 s, then loaded for BENCH_PROFILE_S; the profile is kept in bench/results/ and its top printed.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { load } from '../lib/load.mjs';
import { log } from '../lib/log.mjs';
import { ROOT } from '../lib/paths.mjs';
import { startServer, stopServer } from '../lib/processes.mjs';
import { formatProfile, summariseProfile } from '../lib/profile.mjs';

const WARM_UP_S = 20;

/**
 * `server` is B (its script, env and targets); undefined when the server wrote no profile (said in `notes`).
 * @param {{ server: any, tmp: string, resultsDir: string, config: { profileS: number, connections: number }, notes: string[] }} options
 */
export async function profileService({ server, tmp, resultsDir, config, notes }) {
  const profileDir = join(tmp, 'profile');
  mkdirSync(profileDir, { recursive: true });
  log(`profiling ${server.label} under load (node --cpu-prof, ${config.profileS} s of load after ${WARM_UP_S} s of warm-up)`);
  const spawned = Date.now();
  const profiled = await startServer({
    name: `${server.label} (profiled)`,
    script: server.script,
    env: server.env,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    readyPath: '/health/live',
    logFile: join(tmp, 'profiled.log'),
    cwd: ROOT,
  });
  const target = server.targets.list;
  await load({ base: profiled.base, target, connections: config.connections, seconds: WARM_UP_S, latencies: false });
  const skipMs = Date.now() - spawned;
  const r = await load({ base: profiled.base, target, connections: config.connections, seconds: config.profileS, pid: profiled.pid });
  await stopServer(profiled);
  const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    notes.push('BENCH_PROFILE: the profiled server wrote no profile.');
    return undefined;
  }
  const kept = join(resultsDir, 'postgres-list.cpuprofile');
  copyFileSync(join(profileDir, file), kept);
  const profile = {
    ...summariseProfile(kept, { top: 25, skipMs }),
    file: 'bench/results/postgres-list.cpuprofile',
    rps: r.rps,
    cpuMsPerRequest: r.cpuMsPerRequest,
  };
  console.log(formatProfile(profile));
  return profile;
}
