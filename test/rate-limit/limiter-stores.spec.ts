import { DEFAULT_CLIENT_CAPACITY, InProcessStore } from '../../src/policies/rate-limit/in-process.store.js';
import { describeLimiterStore } from '../support/limiter-store.behaviour.js';

describeLimiterStore('in-process store', (clock) => {
  const store = new InProcessStore(clock, { clients: DEFAULT_CLIENT_CAPACITY, addresses: 50_000 });
  return Promise.resolve({ store, name: 'in-process', close: () => Promise.resolve() });
});
