import { setImmediate } from 'node:timers';

/**
 * Hands values back at the end of the current turn of the event loop, all of a turn's together:
 * the in-process limiter decides at once but answers this way, so a turn's requests continue side
 * by side, as when Redis answers a turn's auto-pipelined scripts in one reply (docs/benchmarks.md).
 */
export class EndOfTurn {
  private pending: Array<() => void> = [];

  settle<T>(value: T): Promise<T> {
    return new Promise((resolve) => {
      if (this.pending.push(() => resolve(value)) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const settling = this.pending;
    this.pending = [];
    for (const resolve of settling) resolve();
  }
}
