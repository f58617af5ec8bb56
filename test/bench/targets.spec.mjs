import { describe, expect, it } from '@jest/globals';
import { evaluateTargets } from '../../bench/phases/write-results.mjs';

/** A throughput row of `server` on `endpointKey` with these per-round req/s and server CPU ms. */
const row = (server, endpointKey, rps, cpu) => ({
  server,
  endpointKey,
  endpoint: endpointKey,
  cpuMsPerRequest: cpu[Math.floor(cpu.length / 2)],
  rounds: rps.map((r, i) => ({ rps: r, cpuMsPerRequest: cpu[i] })),
});

function targetsOf({ listCpu, createRps }) {
  const before = { step: 'before', server: 'ladder-1' };
  const throughput = [
    row('ladder-1', 'list', [1000, 1000, 1000], [0.6, 0.6, 0.6]),
    row('postgres', 'list', [2000, 2000, 2000], listCpu),
    row('ladder-1', 'create', [1000, 1000, 1000], [1, 1, 1]),
    row('postgres', 'create', createRps, [1, 1, 1]),
  ];
  const ladder = ['list', 'create'].flatMap((endpointKey) => [
    { ...before, endpointKey },
    { step: 'now (B)', server: 'postgres', endpointKey, endpoint: endpointKey },
  ]);
  const measured = { throughput, ratios: { sqliteVsPostgres: {} }, ladder, deepPages: [] };
  return Object.fromEntries(evaluateTargets(measured, 100_000).map((t) => [t.name, t]));
}

describe('evaluateTargets', () => {
  it('holds the CPU per list request to 0.71 of the code before the work, per round, besides 0.30 ms', () => {
    const met = targetsOf({ listCpu: [0.4, 0.42, 0.9], createRps: [1000, 1000, 1000] });
    expect(met['server CPU per list request, now / before']).toMatchObject({ target: '≤ 0.71', measured: '0.70', status: 'MET' });
    expect(met['server CPU per list request (B)']).toMatchObject({ measured: '0.420 ms', status: 'NOT MET' });
    const missed = targetsOf({ listCpu: [0.44, 0.44, 0.2], createRps: [1000, 1000, 1000] });
    expect(missed['server CPU per list request, now / before']).toMatchObject({ measured: '0.73', status: 'NOT MET' });
  });

  it('compares creation with the code before the work round by round', () => {
    expect(targetsOf({ listCpu: [0.3, 0.3, 0.3], createRps: [990, 1010, 1020] })['create req/s, now / before']).toMatchObject({
      measured: '1.01',
      status: 'MET',
    });
    expect(targetsOf({ listCpu: [0.3, 0.3, 0.3], createRps: [990, 980, 1020] })['create req/s, now / before']).toMatchObject({
      measured: '0.99',
      status: 'NOT MET',
    });
  });

  it('says NOT MEASURED without a ladder to compare with', () => {
    const targets = Object.fromEntries(
      evaluateTargets({ throughput: [], ratios: { sqliteVsPostgres: {} }, ladder: undefined, deepPages: [] }, 100_000).map((t) => [
        t.name,
        t,
      ]),
    );
    expect(targets['server CPU per list request, now / before (BENCH_LADDER)'].status).toBe('NOT MEASURED');
  });
});
