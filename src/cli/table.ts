/** Aligned plain-text columns for the CLI's human output (help, status, tools, search). */

import { visibleLine } from '../shared/visibleText';

const GAP = '  ';

export interface TableOptions {
  /** Put before every line. */
  indent?: string;
  /** Wrap the last column at word boundaries so that lines stay within this many characters. */
  width?: number;
}

/**
 * A cell as one visible line, so that a name holding a line break, an escape sequence or a bidi override
 * (`invoice<U+202E>gpj.exe`) can neither break the table nor change what the terminal shows. Leading spaces
 * are the table's own indentation (an MCP tool under its server) and stay.
 */
function visibleCell(cell: string): string {
  return `${/^ */.exec(cell)![0]}${visibleLine(cell)}`;
}

/** The narrowest the last column is wrapped to, however wide the columns before it are. */
const MIN_WRAP = 24;

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, line];
}

/**
 * One string per row (several lines when its last cell wraps): every column as wide as its widest cell, so
 * the columns line up whatever the content.
 */
export function tableRows(table: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  if (table.length === 0) return [];
  const rows = table.map((row) => row.map(visibleCell));
  const indent = options.indent ?? '';
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns - 1 }, (_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  const lastStart = widths.reduce((start, width) => start + width + GAP.length, indent.length);
  const lastWidth = options.width ? Math.max(MIN_WRAP, options.width - lastStart) : Infinity;
  return rows.map((row) => {
    const lead = widths.map((width, column) => (row[column] ?? '').padEnd(width)).join(GAP);
    const [first, ...rest] = wrap(row[columns - 1] ?? '', lastWidth);
    return [
      `${indent}${lead}${lead ? GAP : ''}${first}`.trimEnd(),
      ...rest.map((line) => `${' '.repeat(lastStart)}${line}`),
    ].join('\n');
  });
}
