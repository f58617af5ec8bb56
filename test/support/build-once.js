// Jest global setup: compile the service once, before any suite, for the suites that run the
// built output as a real process (the CLI, graceful shutdown). One build, so parallel suites
// never write dist/ at the same time.
import { execFileSync } from 'node:child_process';

export default function buildOnce() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
