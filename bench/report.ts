/** A benchmark section: a printed table plus machine-readable results for bench/results.json. */
export interface BenchSection {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  results: Record<string, unknown>;
  /** One line per target: what was measured against what was asked. */
  targets?: string[];
}

export function formatTable(section: BenchSection): string {
  const cells = [section.columns, ...section.rows.map((row) => row.map(String))];
  const widths = section.columns.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padStart(widths[i])).join(' | ')} |`;
  return [
    `## ${section.title}`,
    '',
    line(section.columns),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
    ...(section.targets?.length ? ['', ...section.targets.map((target) => `- ${target}`)] : []),
  ].join('\n');
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
