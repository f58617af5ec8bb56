/**
 * The fleet suite (`npm run test:fleet`): test/fleet/*.fleet-spec.ts, one file at a time, against
 * servers it starts itself (test/fleet/fleet.fleet-spec.ts says which). Not part of `npm test`.
 */
import { common } from './jest.common.js';

/** @type {import('jest').Config} */
export default {
  ...common,
  testRegex: ['test/fleet/.*\\.fleet-spec\\.ts$'],
  testTimeout: 180_000,
  maxWorkers: 1,
};
