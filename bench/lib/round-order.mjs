// The order of the loads in a round. Each load leaves something behind for the next (PostgreSQL
// still writing the previous inserts, a warmer cache), so no server may always come first. And the
// machine is shared, so its speed drifts within seconds: a load is cut into slices taken in turn
// with the other servers', so that every server of a comparison meets the same drift.

/** `servers` in the order round `round` (1-based) loads them: as given in odd rounds, reversed in even ones. */
export function roundOrder(servers, round) {
  return round % 2 === 1 ? servers : [...servers].reverse();
}

/**
 * The loads of round `round`: endpoint by endpoint, `slices` turns (slice 0 first), each loading every
 * server that serves the endpoint, in the round's order in even turns and reversed in odd ones, so
 * the loads a ratio compares interleave.
 * @template {{ endpoints: string[] }} S
 * @param {S[]} servers @param {string[]} endpoints @param {number} round @param {number} [slices]
 * @returns {{ server: S, endpoint: string, slice: number }[]}
 */
export function roundPlan(servers, endpoints, round, slices = 1) {
  const order = roundOrder(servers, round);
  return endpoints.flatMap((endpoint) => {
    const serving = order.filter((s) => s.endpoints.includes(endpoint));
    return Array.from({ length: slices }, (_, slice) =>
      (slice % 2 === 0 ? serving : [...serving].reverse()).map((server) => ({ server, endpoint, slice })),
    ).flat();
  });
}
