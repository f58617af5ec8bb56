// Child processes of the contract run: started with a readiness pattern, always stopped by the caller.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { clearInterval, setInterval } from 'node:timers';

/** A port that was free a moment ago (the OS picks it, so parallel runs do not collide). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = new Set();

/**
 * Starts `command args` and resolves once its stdout (or `readyStream`: 'stderr') matches `ready`
 * (with the match), or rejects with its output when it exits first or does not get ready within `timeoutMs`.
 */
export function start(name, command, args, { env, cwd, ready, readyStream = 'stdout', timeoutMs = 60_000 }) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const handle = { name, child, stdout: '', stderr: '', exited: false };
  children.add(handle);
  child.stdout.setEncoding('utf8').on('data', (chunk) => (handle.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (handle.stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  void exited.then(() => (handle.exited = true));
  handle.exitedPromise = exited;

  return new Promise((resolve, reject) => {
    const fail = (reason) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(new Error(`${name} ${reason}\n--- stdout ---\n${handle.stdout.slice(-4000)}\n--- stderr ---\n${handle.stderr.slice(-4000)}`));
    };
    const timer = setTimeout(() => fail(`was not ready within ${timeoutMs} ms`), timeoutMs);
    const poll = setInterval(() => {
      const match = ready.exec(stripAnsi(handle[readyStream]));
      if (match) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve({ handle, match });
      }
    }, 50);
    child.once('error', (error) => fail(`could not start: ${error.message}`));
    void exited.then(({ code, signal }) => fail(`exited before it was ready (code ${code}, signal ${signal})`));
  });
}

/** Stops every child started by `start`: SIGTERM, then SIGKILL after `graceMs`. */
export async function stopAll(graceMs = 5_000) {
  await Promise.all(
    [...children].map(async (handle) => {
      if (handle.exited || handle.child.exitCode !== null || handle.child.signalCode !== null) return;
      handle.child.kill('SIGTERM');
      const timer = setTimeout(() => handle.child.kill('SIGKILL'), graceMs);
      await handle.exitedPromise;
      clearTimeout(timer);
    }),
  );
  children.clear();
}

export function stripAnsi(text) {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
