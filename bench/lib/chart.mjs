// The chart of docs/benchmarks.md: the list's median req/s and p99 per server, in two panels of
// horizontal bars, as a self-contained SVG (no fonts, styles or scripts from elsewhere), drawn from
// the results object the benchmark writes to docs/benchmarks.json.
import { num } from './format.mjs';

const TOP = 72; // the first bar's top, below the title and the panels' headings
const ROW = 26; // one server's row
const BAR = 16; // a bar's height
const LABEL_WIDTH = 190; // the servers' names, right-aligned to the left of the bars, unless one needs more
const CHARACTER_WIDTH = 8; // at font-size 13, wider than any sans-serif font's average character
const PANEL_WIDTH = 300;
const VALUE_ROOM = 64; // room after the longest bar for its value
const GAP = 40;

const PANELS = [
  { field: 'rps', title: 'req/s (median), longer is better', format: (value) => num(value) },
  { field: 'p99', title: 'p99 ms (median), shorter is better', format: (value) => num(value, 1) },
];

/** The ceilings grey, the usual build orange, the ladder's earlier builds light blue, the service blue. */
function colour(server) {
  if (server.startsWith('ceiling')) return '#9a9a9a';
  if (server === 'peer') return '#d9822b';
  if (server.startsWith('ladder-')) return '#8db4dc';
  return '#2f6fad';
}

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (value) => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
const text = (x, y, content, attributes = '') =>
  `<text x="${x.toFixed(1)}" y="${y}"${attributes ? ` ${attributes}` : ''}>${escapeXml(content)}</text>`;

/**
 * The SVG of one bar per server on the list in each panel (req/s, p99), each labelled with its value.
 * @param {{ date: string, config: { rounds: number, durationS: number, connections: number }, throughput: { server: string, label: string, endpointKey: string, rps: number, p99: number }[] }} results
 * @returns {string}
 */
export function renderChart(results) {
  const rows = results.throughput.filter((row) => row.endpointKey === 'list');
  const { rounds, durationS, connections } = results.config;
  const labelWidth = Math.max(LABEL_WIDTH, 20 + CHARACTER_WIDTH * Math.max(0, ...rows.map((row) => row.label.length)));
  const width = labelWidth + PANELS.length * (PANEL_WIDTH + GAP);
  const height = TOP + rows.length * ROW + 8;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" font-family="sans-serif" font-size="13">`,
    '<title>The list endpoint: median req/s and p99 per server</title>',
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(12, 22, 'GET /v1/pets (20 animals): median req/s and p99 per server', 'font-size="15" font-weight="bold"'),
    text(
      12,
      42,
      `${results.date.slice(0, 10)}: ${rounds} alternating rounds of ${durationS} s, ${connections} connections (npm run bench)`,
      'fill="#555555"',
    ),
  ];
  rows.forEach((row, i) => parts.push(text(labelWidth - 10, TOP + i * ROW + BAR - 3, row.label, 'text-anchor="end"')));
  PANELS.forEach((panel, p) => {
    const left = labelWidth + p * (PANEL_WIDTH + GAP);
    const max = Math.max(0, ...rows.map((row) => row[panel.field]).filter(Number.isFinite)) || 1;
    parts.push(text(left, TOP - 12, panel.title, 'font-weight="bold"'));
    parts.push(`<line x1="${left}" y1="${TOP - 4}" x2="${left}" y2="${height - 4}" stroke="#888888"/>`);
    rows.forEach((row, i) => {
      const value = row[panel.field];
      const length = Number.isFinite(value) ? ((PANEL_WIDTH - VALUE_ROOM) * value) / max : 0;
      const top = TOP + i * ROW;
      parts.push(
        `<rect class="bar ${panel.field}" x="${left}" y="${top}" width="${length.toFixed(1)}" height="${BAR}" fill="${colour(row.server)}"/>`,
        text(left + length + 5, top + BAR - 3, panel.format(value)),
      );
    });
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
