/**
 * Full-text search of observations, every match ranked by BM25 as FTS5's `bm25()` ranks it (sql.js has no
 * FTS5): the postings and the scoring are in searchIndex/.
 *
 * Query language: words (all must match), "exact phrases", prefix* and OR between two items. Anything else
 * is read as plain words, so no query is ever an error.
 */
import type { Store } from '../storage/store';
import { type ObservationFilters, filterSql, observationColumns, toObservation } from './query';
import { ensureSearchIndex } from './searchIndex/indexWrites';
import {
  type Matches,
  type ParsedQuery,
  type QueryItem,
  type Ranked,
  bestOf,
  matchAll,
} from './searchIndex/ranking';
import { foldDiacritics, words } from './text';
import type { Observation } from './types';

export interface SearchOptions extends ObservationFilters {
  /** Empty: the latest observations, newest first. */
  query: string;
  /** Default 20, at most MAX_SEARCH_LIMIT. */
  limit?: number;
  offset?: number;
}

export interface SearchHit extends Observation {
  /** BM25 (higher is better); null when listing without a query. */
  score: number | null;
  /** Text around the best match, and where in it the query's words are. */
  snippet: string;
  matches: Array<[start: number, end: number]>;
}

export interface SearchResult {
  hits: SearchHit[];
  /** More observations match beyond this page. */
  more: boolean;
  /** The query had nothing searchable in it (only punctuation): nothing was searched. */
  noWords: boolean;
}

const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
const SNIPPET_TOKENS = 24;

export type { ParsedQuery };

/** Read a user's query; what is not our small syntax becomes words. */
export function parseQuery(query: string): ParsedQuery {
  const raw: Array<string | 'OR'> = [];
  const pattern = /"([^"]*)"(\*?)|(\S+)/g;
  // An unbalanced quote makes the whole query plain words.
  const text = (query.match(/"/g)?.length ?? 0) % 2 === 1 ? query.replace(/"/g, ' ') : query;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[3] === 'OR') raw.push('OR');
    else if (match[3] !== 'AND' && match[3] !== 'NOT')
      raw.push(match[1] !== undefined ? `"${match[1]}"${match[2]}` : match[3]);
  }
  const groups: QueryItem[][] = [];
  let joinNext = false;
  for (const token of raw) {
    if (token === 'OR') {
      joinNext = groups.length > 0;
      continue;
    }
    const quoted = token.startsWith('"');
    const body = quoted ? token.slice(1, token.lastIndexOf('"')) : token;
    const itemWords = words(body);
    if (itemWords.length === 0) continue;
    const item = {
      words: itemWords,
      prefix: token.endsWith('*') || (quoted && body.trimEnd().endsWith('*')),
    };
    if (joinNext) groups[groups.length - 1].push(item);
    else groups.push([item]);
    joinNext = false;
  }
  return { groups };
}

export function searchObservations(db: Store, options: SearchOptions): SearchResult {
  const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(options.limit ?? DEFAULT_SEARCH_LIMIT)));
  const offset = Math.max(0, Math.floor(options.offset ?? 0));
  const filters = filterSql(options, 'o.');
  if (options.query.trim() === '') {
    const rows = db.all(
      `SELECT ${observationColumns('o.')} FROM observations o WHERE ${filters.sql}
       ORDER BY o.at DESC, o.seq DESC LIMIT ? OFFSET ?`,
      [...filters.params, limit + 1, offset],
    );
    const hits = rows.slice(0, limit).map((row) => {
      const observation = toObservation(row);
      return { ...observation, score: null, snippet: observation.text, matches: [] };
    });
    return { hits, more: rows.length > limit, noWords: false };
  }
  const parsed = parseQuery(options.query);
  if (parsed.groups.length === 0) return { hits: [], more: false, noWords: true };
  ensureSearchIndex(db);
  const wanted = offset + limit + 1;
  const ranked = passingBest(db, matchAll(db, parsed), wanted, filters).slice(offset);
  const page = ranked.slice(0, limit);
  const rows = new Map(
    db
      .all(
        `SELECT o.seq AS seq, ${observationColumns('o.')} FROM observations o
         WHERE o.seq IN (SELECT value FROM json_each(?))`,
        [JSON.stringify(page.map((hit) => hit.seq))],
      )
      .map((row) => [Number(row.seq), toObservation(row)]),
  );
  const hits: SearchHit[] = [];
  for (const { seq, score } of page) {
    const observation = rows.get(seq);
    if (!observation) continue;
    hits.push({ ...observation, score, ...snippetOf(observation.text, parsed) });
  }
  return { hits, more: ranked.length > limit, noWords: false };
}

/**
 * The `wanted` best matches that the filters let through (forgotten observations never do), best first:
 * the best are checked first, then eight times as many each round, so a filter that lets most through costs
 * one look-up and one that lets few through still finds them.
 */
function passingBest(
  db: Store,
  matches: Matches,
  wanted: number,
  filters: { sql: string; params: Array<string | number> },
): Ranked[] {
  const checked = new Set<number>();
  const passing: Ranked[] = [];
  for (let batch = wanted + 16; passing.length < wanted; batch *= 8) {
    const next = bestOf(matches, batch, checked);
    if (next.length === 0) break;
    const allowed = new Set(
      db
        .all(
          `SELECT o.seq AS seq FROM observations o WHERE o.seq IN (SELECT value FROM json_each(?)) AND ${filters.sql}`,
          [JSON.stringify(next.map((hit) => hit.seq)), ...filters.params],
        )
        .map((row) => Number(row.seq)),
    );
    for (const hit of next) {
      checked.add(hit.seq);
      if (allowed.has(hit.seq)) passing.push(hit);
    }
  }
  return passing.slice(0, wanted);
}

/** Whether a folded word of the text matches an item word (the last word of a prefix item by prefix). */
function matcher(parsed: ParsedQuery): (word: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const item of parsed.groups.flat()) {
    item.words.forEach((word, i) => {
      if (item.prefix && i === item.words.length - 1) prefixes.push(word);
      else exact.add(word);
    });
  }
  return (word) => exact.has(word) || prefixes.some((prefix) => word.startsWith(prefix));
}

/** The stretch of `text` with the most matching words, cut at word boundaries. */
function snippetOf(text: string, parsed: ParsedQuery): { snippet: string; matches: Array<[number, number]> } {
  const isMatch = matcher(parsed);
  const tokens: Array<{ start: number; end: number; hit: boolean }> = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const start = match.index ?? 0;
    tokens.push({
      start,
      end: start + match[0].length,
      hit: isMatch(foldDiacritics(match[0].toLowerCase())),
    });
  }
  // The earliest window holding the most hits: it ends at its last hit, leaving context before the first.
  const before = [0];
  for (const token of tokens) before.push(before[before.length - 1] + (token.hit ? 1 : 0));
  let best = 0;
  for (let start = 1; start + SNIPPET_TOKENS <= tokens.length; start++) {
    const hits = before[start + SNIPPET_TOKENS] - before[start];
    if (hits > before[best + SNIPPET_TOKENS] - before[best]) best = start;
  }
  const last = Math.min(tokens.length, best + SNIPPET_TOKENS) - 1;
  const from = best === 0 ? 0 : (tokens[best]?.start ?? 0);
  const to = last === tokens.length - 1 || last < 0 ? text.length : tokens[last].end;
  const lead = from > 0 ? '…' : '';
  const snippet = `${lead}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
  const matches: Array<[number, number]> = tokens
    .slice(best, last + 1)
    .filter((token) => token.hit)
    .map((token) => [token.start - from + lead.length, token.end - from + lead.length]);
  return { snippet, matches };
}
