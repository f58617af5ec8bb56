export const cell = (value: string | number | null) => String(value ?? '-');

/** Rows under their headers in aligned columns; `none` when there are no rows. */
export function formatTable(headers: readonly string[], rows: readonly string[][], none = ''): string {
  if (rows.length === 0) return none;
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
  const line = (cells: readonly string[]) => cells.map((value, column) => value.padEnd(widths[column])).join('  ');
  return [headers, ...rows].map((cells) => line(cells).trimEnd()).join('\n');
}

export function withNextPage(text: string, nextCursor: string | null | undefined): string {
  return nextCursor ? `${text}\nMore: --cursor ${nextCursor}` : text;
}
