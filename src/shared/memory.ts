/**
 * Memory presentation shared by the host (QuickPicks, documents) and the dashboard webview: the observation
 * types in seed 001's order of importance, their codicons, and the `type:` filters a search box accepts.
 * Pure: no `vscode`, no DOM.
 */

/**
 * The observation types, most important first (the engine's OBSERVATION_TYPES): seed 001's, and `question`
 * for a prompt that asks instead of telling (none of seed 001's describes "how does X work?").
 */
export const MEMORY_TYPES = [
  'decision',
  'problem',
  'warning',
  'refactor',
  'success',
  'discovery',
  'feature',
  'bugfix',
  'pattern',
  'solution',
  'question',
] as const;

export type MemoryType = (typeof MEMORY_TYPES)[number];

export function isMemoryType(value: unknown): value is MemoryType {
  return typeof value === 'string' && (MEMORY_TYPES as readonly string[]).includes(value);
}

/** A codicon per type (the name after `codicon-` / inside `$(...)`). */
export const MEMORY_TYPE_ICONS: Record<MemoryType, string> = {
  decision: 'law',
  problem: 'error',
  warning: 'warning',
  refactor: 'wrench',
  success: 'pass',
  discovery: 'lightbulb',
  feature: 'sparkle',
  bugfix: 'bug',
  pattern: 'layers',
  solution: 'verified',
  question: 'question',
};

/** What each type is for, as shown when choosing one. */
export const MEMORY_TYPE_DESCRIPTIONS: Record<MemoryType, string> = {
  decision: 'A choice made and why; kept longest in the next session’s context',
  problem: 'Something broken or blocking',
  warning: 'A pitfall to avoid next time',
  refactor: 'A change of structure',
  success: 'Something that worked (tests passed, a build went through)',
  discovery: 'A fact learned about the code or the tools',
  feature: 'New behaviour added',
  bugfix: 'A fix and what it fixed',
  pattern: 'A convention the code follows',
  solution: 'How a problem was solved',
  question: 'Something asked about the code or the tools, not yet an answer',
};

export function memoryTypeIcon(type: string): string {
  return isMemoryType(type) ? MEMORY_TYPE_ICONS[type] : 'note';
}

/**
 * Split a search box's text into the words to search and `type:` filters, e.g.
 * `type:bugfix,problem login` -> query `login`, types [bugfix, problem]. Unknown types stay in the query.
 */
export function parseMemoryQuery(value: string): { query: string; types: MemoryType[] } {
  const types: MemoryType[] = [];
  const rest: string[] = [];
  for (const token of value.split(/\s+/)) {
    if (!token) continue;
    const match = /^(?:type|t):(.+)$/i.exec(token);
    const asked = match ? match[1].toLowerCase().split(',').filter(Boolean) : [];
    if (asked.length > 0 && asked.every(isMemoryType)) {
      for (const type of asked) if (!types.includes(type)) types.push(type);
    } else {
      rest.push(token);
    }
  }
  return { query: rest.join(' '), types };
}

/** One line of text (whitespace runs collapsed), cut to `max` characters with an ellipsis. */
export function oneLineClip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/**
 * A typed word becomes a prefix from this many letters on: a shorter one stands for thousands of words of a
 * long history, each read from the search index (some 0.4 s at 100,000 observations for one letter).
 */
const MIN_TYPED_PREFIX = 3;

/**
 * Search as you type: the word being typed is a prefix (`token buck` finds "token bucket") once it has
 * MIN_TYPED_PREFIX letters. A query that ends with a space, a quote or `*`, or whose last word is `OR`, is
 * left as it is.
 */
export function typingQuery(query: string): string {
  const match = /(?:^|\s)([^\s"*]+)$/.exec(query);
  const typed = match && /[\p{L}\p{N}]+$/u.exec(match[1]);
  if (!match || match[1] === 'OR' || !typed || typed[0].length < MIN_TYPED_PREFIX) return query;
  // Inside an open phrase (odd number of quotes) the word belongs to the phrase: leave it.
  if ((query.match(/"/g)?.length ?? 0) % 2 === 1) return query;
  return `${query}*`;
}
