import { LuaFactory, type LuaEngine } from 'wasmoon';
import type { Clock } from '../common/index.js';
import { InProcessHashes } from './in-process-hashes.js';
import { LIMITER_SCRIPT, parseScriptReply, scriptArguments } from './limiter.script.js';
import { LimiterStore, type LimiterFacts, type LimiterRequest } from './limiter.store.js';

type LimiterFunction = (key: string, ...argv: string[]) => unknown;

/** Where the script's `redis.call` goes: the table of the subject being decided. */
interface Tables {
  clients: InProcessHashes;
  addresses: InProcessHashes;
  active: InProcessHashes;
}

/** How many subjects the in-process limiter holds at most, per kind. */
export interface InProcessCapacity {
  /** Clients with a valid key: bounded by the clients that exist, so a flood cannot reach it. */
  clients: number;
  /** Addresses of callers without a valid key: the table a flood of addresses fills. */
  addresses: number;
}

/** Far above the clients one replica serves in a day; an address costs about 400 bytes. */
export const DEFAULT_CLIENT_CAPACITY = 100_000;

/**
 * The limiter for a single instance (no `REDIS_URL`) and the fallback while Redis is out: the
 * same Lua script as in Redis, run in an embedded Lua VM over in-memory hashes, timed by the
 * service's clock. Calls are synchronous, so each decision is atomic within the process.
 *
 * Clients and anonymous addresses live in separate bounded tables, so flooding addresses can
 * never push a client's counts out. When the address table is full, a new address is refused
 * (counted nowhere) until room frees up, and the addresses already counted keep their counts:
 * evicting them instead would let a flood reset a throttled guesser. When the client table is
 * full (only with more clients than it holds), the client idle longest starts counting over.
 */
export class InProcessStore extends LimiterStore {
  private constructor(
    private readonly engine: LuaEngine,
    private readonly limiter: LimiterFunction,
    private readonly tables: Tables,
    private readonly clock: Clock,
  ) {
    super();
  }

  static async create(clock: Clock, capacity: InProcessCapacity): Promise<InProcessStore> {
    const engine = await new LuaFactory().createEngine();
    const clients = new InProcessHashes(clock, capacity.clients, 'evict-least-recent');
    const tables: Tables = { clients, addresses: new InProcessHashes(clock, capacity.addresses, 'refuse-new'), active: clients };
    engine.global.set('redis', {
      call: (command: string, key: string, ...args: unknown[]) => tables.active.call(command, key, args),
    });
    const limiter = (await engine.doString(
      `return function(key, a1, a2, a3, a4, a5, a6) local KEYS, ARGV = {key}, {a1, a2, a3, a4, a5, a6} ${LIMITER_SCRIPT} end`,
    )) as LimiterFunction;
    return new InProcessStore(engine, limiter, tables, clock);
  }

  consume(request: LimiterRequest): Promise<LimiterFacts> {
    const now = this.clock.now().getTime();
    const table = request.keyId === undefined ? this.tables.addresses : this.tables.clients;
    this.tables.active = table;
    if (!table.hasRoomFor(request.subjectKey)) {
      return Promise.resolve({ outcome: 'refused', usedMinute: request.limits.perMinute, usedDay: 0, nowMs: now, suspendedUntilMs: 0 });
    }
    const reply = this.limiter(request.subjectKey, ...scriptArguments(request, now));
    return Promise.resolve(parseScriptReply(reply));
  }

  /** Subjects held now, per kind. */
  get size(): InProcessCapacity {
    return { clients: this.tables.clients.size, addresses: this.tables.addresses.size };
  }

  close(): Promise<void> {
    this.tables.clients.close();
    this.tables.addresses.close();
    this.engine.global.close();
    return Promise.resolve();
  }
}
