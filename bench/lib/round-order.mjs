// The order of the loads in a round. Each load leaves something behind for the next (PostgreSQL
// still writing the previous inserts, a warmer cache), so no server may always come first.

/** `servers` in the order round `round` (1-based) loads them: as given in odd rounds, reversed in even ones. */
export function roundOrder(servers, round) {
  return round % 2 === 1 ? servers : [...servers].reverse();
}

/**
 * The loads of round `round`: endpoint by endpoint, every server that serves it in the round's
 * order, so the loads a ratio compares run one right after the other.
 * @template {{ endpoints: string[] }} S
 * @param {S[]} servers @param {string[]} endpoints @param {number} round
 * @returns {{ server: S, endpoint: string }[]}
 */
export function roundPlan(servers, endpoints, round) {
  const order = roundOrder(servers, round);
  return endpoints.flatMap((endpoint) => order.filter((s) => s.endpoints.includes(endpoint)).map((server) => ({ server, endpoint })));
}
