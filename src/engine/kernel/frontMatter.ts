/**
 * The YAML front matter of skills, commands and agents, read just far enough for their top-level text
 * fields (name, description): plain, quoted and block (`>`, `|`) scalars and indented continuation lines.
 * Nested maps are skipped. No YAML dependency for a handful of keys.
 */

export interface MarkdownDoc {
  fields: Record<string, string>;
  /** The text after the front matter (the whole text when there is none). */
  body: string;
}

const TOP_LEVEL_KEY = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/;

export function readFrontMatter(text: string): MarkdownDoc {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---[ \t]*\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/.exec(normalized);
  if (!match) return { fields: {}, body: normalized };
  const fields: Record<string, string> = {};
  const lines = match[1].split('\n');
  for (let i = 0; i < lines.length; i++) {
    const key = TOP_LEVEL_KEY.exec(lines[i]);
    if (!key) continue;
    const continuation: string[] = [];
    while (i + 1 < lines.length && (/^\s/.test(lines[i + 1]) || lines[i + 1] === '')) {
      continuation.push(lines[++i].trim());
    }
    fields[key[1]] = scalar((key[2] ?? '').trim(), continuation);
  }
  return { fields, body: normalized.slice(match[0].length) };
}

function scalar(head: string, continuation: string[]): string {
  if (head === '|' || head === '|-') return trimEnd(continuation).join('\n');
  if (head === '>' || head === '>-' || head === '') return fold(continuation);
  const quote = head[0];
  if ((quote === '"' || quote === "'") && head.endsWith(quote) && head.length > 1) {
    const inner = head.slice(1, -1);
    return quote === '"'
      ? inner.replace(/\\(["\\nt])/g, (_, c: string) => ({ n: '\n', t: '\t' })[c] ?? c)
      : inner.replace(/''/g, "'");
  }
  return fold([head, ...continuation]);
}

/** Folded lines join with spaces; an empty line is a paragraph break. */
function fold(lines: string[]): string {
  return trimEnd(lines)
    .join('\n')
    .replace(/([^\n])\n(?=[^\n])/g, '$1 ')
    .replace(/\n\n/g, '\n')
    .trim();
}

function trimEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === '') end--;
  return lines.slice(0, end);
}
