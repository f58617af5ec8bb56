// How the report writes figures and tables: the printed text and docs/benchmarks.md alike.

/** A number with thousands separators and `digits` decimals; "n/a" for a missing figure. */
export const num = (value, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';

export const ratio = (value) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');

/** A ratio's median over the rounds with their range (`spread` of stats.mjs): "1.12 (1.05–1.20)"; "" when absent. */
export const ratioRange = (s) => (s ? `${ratio(s.median)} (${ratio(s.min)}–${ratio(s.max)})` : '');

/** A plain-text table; the first `textColumns` columns are left-aligned, the others (figures) right-aligned. */
export function textTable(head, rows, textColumns = 2) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i < textColumns ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same table in Markdown. */
export function markdownTable(head, rows, textColumns = 2) {
  const line = (cells) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), `| ${head.map((_, i) => (i < textColumns ? '---' : '---:')).join(' | ')} |`, ...rows.map(line)].join('\n');
}
