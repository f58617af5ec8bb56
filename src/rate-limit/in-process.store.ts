import { LuaFactory, type LuaEngine } from 'wasmoon';
import type { Clock } from '../common/clock/clock.js';
import { InProcessHashes } from './in-process-hashes.js';
import {
  LIMITER_SCRIPT,
  LimiterStore,
  parseScriptReply,
  scriptArguments,
  type LimiterFacts,
  type LimiterRequest,
} from './limiter.script.js';

type LimiterFunction = (key: string, ...argv: string[]) => unknown;

/**
 * The limiter for a single instance (no `REDIS_URL`) and the fallback while Redis is out: the
 * same Lua script as in Redis, run in an embedded Lua VM over in-memory hashes, timed by the
 * service's clock. Calls are synchronous, so each decision is atomic within the process.
 */
export class InProcessStore extends LimiterStore {
  private constructor(
    private readonly engine: LuaEngine,
    private readonly limiter: LimiterFunction,
    private readonly hashes: InProcessHashes,
    private readonly clock: Clock,
  ) {
    super();
  }

  static async create(clock: Clock): Promise<InProcessStore> {
    const engine = await new LuaFactory().createEngine();
    const hashes = new InProcessHashes(clock);
    engine.global.set('redis', { call: (command: string, key: string, ...args: unknown[]) => hashes.call(command, key, args) });
    const limiter = (await engine.doString(
      `return function(key, a1, a2, a3, a4, a5, a6) local KEYS, ARGV = {key}, {a1, a2, a3, a4, a5, a6} ${LIMITER_SCRIPT} end`,
    )) as LimiterFunction;
    return new InProcessStore(engine, limiter, hashes, clock);
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    const reply = this.limiter(request.subjectKey, ...scriptArguments(request, this.clock.now().getTime()));
    return Promise.resolve(parseScriptReply(reply));
  }

  close(): Promise<void> {
    this.hashes.close();
    this.engine.global.close();
    return Promise.resolve();
  }
}
