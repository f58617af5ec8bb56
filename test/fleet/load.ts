/** Longest a load may run if nobody stops it (a failing test must not hang the suite). */
const LOAD_BOUND_MS = 120_000;

/**
 * A bounded closed-loop load: `workers` loops, each awaiting `step` before the next one, so at most
 * `workers` requests are in flight. `stop()` ends the loops after their current step and resolves
 * once all have ended; past LOAD_BOUND_MS they end by themselves.
 */
export function startLoad(workers: number, step: (worker: number) => Promise<void>): { stop: () => Promise<void> } {
  let running = true;
  const deadline = Date.now() + LOAD_BOUND_MS;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    while (running && Date.now() < deadline) await step(worker);
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits until at least `seconds` remain in the current UTC minute, so a burst stays in one quota window. */
export async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60 - (Math.floor(Date.now() / 1000) % 60);
  if (left < seconds) await sleep(left * 1000 + 100);
}
