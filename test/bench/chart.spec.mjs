import { describe, expect, it } from '@jest/globals';
import { renderChart } from '../../bench/lib/chart.mjs';

const list = (server, label, rps, p99) => ({ server, label, endpointKey: 'list', endpoint: 'GET /v1/pets?limit=20', rps, p99 });

/** The part of docs/benchmarks.json the chart reads: four servers on the list, and B on another endpoint. */
const results = {
  date: '2026-11-24T10:00:00.000Z',
  config: { rounds: 5, durationS: 5, connections: 50 },
  throughput: [
    list('ceiling', 'A ceiling', 6871.2, 35.02),
    list('ladder-1', 'L1 <before> & "after"', 1500, 120.46),
    list('postgres', 'B PostgreSQL + Redis', 2045.4, 100.3),
    { ...list('postgres', 'B PostgreSQL + Redis', 2503, 56.9), endpointKey: 'get', endpoint: 'GET /v1/pets/{id}' },
    list('peer', 'P usual build', 2329, 103.58),
  ],
};

/** Each bar of a panel (`rps` or `p99`) with its width and the value written after it. */
const bars = (svg, panel) =>
  [...svg.matchAll(new RegExp(`<rect class="bar ${panel}"[^>]* width="([\\d.]+)"[^>]*/>\\n<text[^>]*>([^<]*)</text>`, 'g'))].map(
    ([, width, value]) => ({ width: Number(width), value }),
  );

describe('renderChart', () => {
  const svg = renderChart(results);

  it('draws one req/s bar and one p99 bar per server on the list, in the run’s order, each with its value', () => {
    expect(bars(svg, 'rps').map((bar) => bar.value)).toEqual(['6,871', '1,500', '2,045', '2,329']);
    expect(bars(svg, 'p99').map((bar) => bar.value)).toEqual(['35.0', '120.5', '100.3', '103.6']);
  });

  it('names every server once, its label escaped', () => {
    expect(svg).toContain('>L1 &lt;before&gt; &amp; &quot;after&quot;</text>');
    expect(svg).not.toContain('<before>');
    for (const label of ['A ceiling', 'B PostgreSQL + Redis', 'P usual build']) expect(svg.split(`>${label}</text>`)).toHaveLength(2);
  });

  it('draws bars in proportion to their values, the largest the longest', () => {
    const [ceiling, ladder] = bars(svg, 'rps');
    expect(ladder.width / ceiling.width).toBeCloseTo(1500 / 6871.2, 2);
    const p99 = bars(svg, 'p99');
    expect(Math.max(...p99.map((bar) => bar.width))).toBe(p99[1].width);
  });

  it('widens the names’ column for a long name, so it starts inside the picture', () => {
    const label = 'L6 +one INCR a turn and JSON text';
    const long = renderChart({ ...results, throughput: [list('ladder-6', label, 4416, 37.6)] });
    const x = Number(long.match(/<text x="([\d.]+)"[^>]*text-anchor="end">L6 \+one INCR/)[1]);
    expect(x).toBeGreaterThanOrEqual(label.length * 8);
    const [bar] = [...long.matchAll(/<rect class="bar rps" x="([\d.]+)"/g)].map(([, left]) => Number(left));
    expect(bar).toBeGreaterThan(x);
    expect(svg).toContain('<text x="180.0" y="85" text-anchor="end">A ceiling</text>');
  });

  it('writes n/a with no bar for a figure that is missing', () => {
    const missing = renderChart({ ...results, throughput: [list('peer', 'P usual build', 2329, NaN)] });
    expect(bars(missing, 'p99')).toEqual([{ width: 0, value: 'n/a' }]);
  });

  it('is one self-contained SVG document: no links, scripts, styles or fonts from elsewhere', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/href|<script|<style|@import|url\(/);
    expect(svg.match(/<text/g)).toHaveLength(svg.match(/<\/text>/g)?.length ?? 0);
  });
});
