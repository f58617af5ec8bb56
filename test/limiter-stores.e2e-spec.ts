import { InProcessStore } from '../src/rate-limit/in-process.store.js';
import { describeLimiterStore } from './support/limiter-store.behaviour.js';

describeLimiterStore('in-process store', async (clock) => {
  const store = await InProcessStore.create(clock);
  return { store, close: () => store.close() };
});
