/**
 * The sum of a metric's samples in a Prometheus text exposition whose labels include `labels`
 * (all of a counter's series when none are given).
 */
export function metricSum(exposition: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  return exposition
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => wanted.every((pair) => line.includes(pair)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** Prints the figures of each scenario as one table at the end of the run. */
export class Summary {
  private readonly rows: Array<{ scenario: string; figures: string[] }> = [];

  constructor(private readonly title = 'Fleet suite summary') {}

  add(scenario: string, ...figures: string[]): void {
    this.rows.push({ scenario, figures });
    console.log(`${scenario}\n  ${figures.join('\n  ')}`);
  }

  print(): void {
    const width = Math.max(8, ...this.rows.map(({ scenario }) => scenario.length));
    const lines = this.rows.flatMap(({ scenario, figures }) =>
      figures.map((figure, index) => `${(index === 0 ? scenario : '').padEnd(width)} | ${figure}`),
    );
    console.log([this.title, `${'Scenario'.padEnd(width)} | Figures`, `${'-'.repeat(width)}-+-${'-'.repeat(60)}`, ...lines].join('\n'));
  }
}
