import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import type { Redis } from 'ioredis';

export interface MonitoredCommands {
  /** The commands recorded so far (name and arguments, as MONITOR shows them). */
  readonly commands: string[][];
  /** Records what ran before it, then closes the MONITOR connection; resolves with every command recorded. */
  stop: () => Promise<string[][]>;
}

/**
 * Records the commands MONITOR shows on `client`'s server that `keep` selects (with the source
 * address of the client that sent each, or `lua`), from the moment it resolves until `stop()`.
 * Both ends are markers, not waits: MONITOR shows commands in the order the server ran them, so once
 * it has shown an ECHO sent after some commands, it has shown those too (a fixed wait can end
 * before the stream delivered them on a busy machine). MONITOR runs on a plain socket of its own:
 * ioredis's `monitor()` fails ("Command queue state error") when a busy server's first MONITOR line
 * comes in the same packet as the OK to MONITOR.
 */
export async function monitorCommands(client: Redis, keep: (args: string[], source: string) => boolean): Promise<MonitoredCommands> {
  const { host, port, username, password } = client.options;
  const socket = connect(port ?? 6379, host ?? '127.0.0.1');
  socket.setEncoding('utf8');
  const commands: string[][] = [];
  const markers = new Map<string, () => void>();
  let recording = false;
  let pending = '';
  let answered: (error?: Error) => void = () => undefined;
  const monitoring = new Promise<void>((resolve, reject) => (answered = (error) => (error ? reject(error) : resolve())));
  socket.on('error', (error) => answered(error));
  socket.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\r\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('-')) answered(new Error(`Redis MONITOR: ${line.slice(1)}`));
      else if (line === '+OK') answered();
      else if (line.startsWith('+')) {
        // +1795588398.687969 [0 127.0.0.1:55356] "evalsha" "…" (as ioredis parses it)
        const source = line.slice(line.indexOf('[') + 1, line.indexOf(']')).split(' ')[1] ?? '';
        const args = line
          .slice(line.indexOf('"') + 1, -1)
          .split('" "')
          .map((arg) => arg.replace(/\\"/g, '"'));
        const marker = args[0]?.toLowerCase() === 'echo' ? markers.get(args[1]) : undefined;
        if (marker) marker();
        else if (recording && keep(args, source)) commands.push(args);
      }
    }
  });
  await once(socket, 'connect');
  if (password) socket.write(`AUTH ${username ? `${username} ` : ''}${password}\r\n`);
  socket.write('MONITOR\r\n');
  await monitoring;

  /** Resolves once MONITOR has shown everything the server ran before this call. */
  const caughtUp = async () => {
    const marker = `monitor-marker-${randomUUID()}`;
    const shown = new Promise<void>((resolve) => markers.set(marker, resolve));
    await client.echo(marker);
    await shown;
    markers.delete(marker);
  };
  await caughtUp();
  recording = true;
  return {
    commands,
    stop: async () => {
      await caughtUp();
      recording = false;
      socket.destroy();
      return commands;
    },
  };
}
