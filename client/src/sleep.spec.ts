import { jest } from '@jest/globals';
import { sleep } from './sleep.js';

describe('sleep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('resolves after the time, and at once for none', async () => {
    let done = false;
    const slept = sleep(1_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
    await expect(sleep(-5)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason when it aborts, before or during the wait", async () => {
    const reason = new Error('stop');
    await expect(sleep(1_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const slept = sleep(1_000, controller.signal);
    controller.abort(reason);
    await expect(slept).rejects.toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('leaves the signal without its listener once it has slept', async () => {
    const controller = new AbortController();
    const removed = jest.spyOn(controller.signal, 'removeEventListener');
    const slept = sleep(10, controller.signal);
    await jest.advanceTimersByTimeAsync(10);
    await slept;
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
  });
});
