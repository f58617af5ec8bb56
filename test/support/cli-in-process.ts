import { format } from 'node:util';
import { runCli } from '../../src/cli/index.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A command line run in this process as `dist/src/cli.js` runs it, on `databaseUrl`: its exit code
 * and everything it wrote to stdout and stderr, directly or through the console (as Node's console
 * writes, log and info to stdout, warn and error to stderr). One at a time: the streams are shared.
 */
export async function runCliInProcess(args: string[], databaseUrl: string): Promise<CliResult> {
  const written = { stdout: '', stderr: '' };
  const to = (stream: keyof typeof written) => (chunk: string | Uint8Array) => {
    written[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  const toConsole =
    (stream: keyof typeof written) =>
    (...parts: unknown[]) =>
      to(stream)(`${format(...parts)}\n`);
  const saved = { env: process.env, stdout: process.stdout.write, stderr: process.stderr.write, console: { ...console } };
  process.env = { ...process.env, DATABASE_URL: databaseUrl };
  process.stdout.write = to('stdout');
  process.stderr.write = to('stderr');
  Object.assign(console, {
    log: toConsole('stdout'),
    info: toConsole('stdout'),
    debug: toConsole('stdout'),
    warn: toConsole('stderr'),
    error: toConsole('stderr'),
  });
  try {
    return { code: await runCli(args), ...written };
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    Object.assign(console, saved.console);
    process.env = saved.env;
  }
}
