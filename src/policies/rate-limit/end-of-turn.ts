import { setImmediate } from 'node:timers';

/**
 * Hands values back at the end of the current turn of the event loop, once its I/O callbacks have
 * run, all of a turn's together. The in-process limiter decides at once (each decision atomic, in
 * arrival order) but answers this way, so the requests of one turn continue side by side, as they
 * do when Redis answers a turn's auto-pipelined scripts in one reply: running each stage of the
 * pipeline for a batch of requests cost a quarter less CPU per request than running every request
 * through on its own (docs/benchmarks.md, "Findings").
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
