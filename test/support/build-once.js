// Jest global setup of the projects whose suites run the built output as a real process (the
// CLI, graceful shutdown): compile the service once, before any suite. One build, so parallel
// suites never write dist/ at the same time; when both the e2e and the integration projects run,
// the second setup finds the build done.
import { execFileSync } from 'node:child_process';

let built = false;

export default function buildOnce() {
  if (built) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  built = true;
}
