import { DEFAULT_CLIENT_CAPACITY, InProcessStore } from '../../src/rate-limit/in-process.store.js';
import { describeLimiterStore } from '../support/limiter-store.behaviour.js';

describeLimiterStore('in-process store', async (clock) => {
  const store = await InProcessStore.create(clock, { clients: DEFAULT_CLIENT_CAPACITY, addresses: 50_000 });
  return { store, close: () => store.close() };
});
