/**
 * Full-text search of observations on FTS4 (sql.js has no FTS5), ranked by BM25 computed from `matchinfo`
 * exactly as FTS5's `bm25()` does (k1 1.2, b 0.75, idf floored at 1e-6), so the two rank alike (over the
 * newest RANKED_CANDIDATES matches of a query).
 *
 * Query language: words (all must match), "exact phrases", prefix* and OR between two items. Anything else
 * is read as plain words, so no query is ever an error.
 */
import type { Store } from '../storage/store';
import { type ObservationFilters, filterSql, observationColumns, toObservation } from './query';
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
/**
 * How many matches, newest first, are ranked: all of them unless a query's words are in more than about 1%
 * of the observations. Then ranking all (a score per row) would cost tens of milliseconds; the newest
 * matches are ranked instead, and more words, a "phrase" or a filter reach further back.
 */
export const RANKED_CANDIDATES = 1000;

/** One item of a query: a word, a prefix, or a phrase (whose last word may be a prefix). */
export interface QueryItem {
  words: string[];
  prefix: boolean;
}

export interface ParsedQuery {
  /** Groups of alternatives: every group must match, any item of a group may. */
  groups: QueryItem[][];
}

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

function itemExpression(item: QueryItem): string {
  return `"${item.words.join(' ')}${item.prefix ? '*' : ''}"`;
}

/** The FTS4 MATCH expression: every word quoted, so nothing in it can be read as syntax. */
export function matchExpression(parsed: ParsedQuery): string {
  return parsed.groups.map((group) => group.map(itemExpression).join(' OR ')).join(' ');
}

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 of one row from matchinfo 'pcnax' (phrases, columns, rows, average length, then per phrase: hits
 * here, hits everywhere, rows with hits) and the row's length in words.
 */
function bm25(matchinfo: Uint8Array, tokens: number): number {
  const info = new Uint32Array(matchinfo.buffer, matchinfo.byteOffset, matchinfo.byteLength >>> 2);
  const phrases = info[0];
  const rows = info[2];
  const average = info[3] || 1;
  const lengthNorm = K1 * (1 - B + (B * tokens) / average);
  let score = 0;
  for (let i = 0; i < phrases; i++) {
    const hits = info[4 + 3 * i];
    if (hits === 0) continue;
    const withHits = info[6 + 3 * i];
    const idf = Math.max(1e-6, Math.log((rows - withHits + 0.5) / (withHits + 0.5)));
    score += (idf * hits * (K1 + 1)) / (hits + lengthNorm);
  }
  return score;
}

const RANK_FUNCTION = 'cd_bm25';

/**
 * Run `work`, registering the ranking function first if the database lacks it: functions live on the
 * connection, and a reader opens a new connection each time it reloads the snapshot.
 */
function withRanking<T>(store: Store, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (!String((error as Error).message).includes(`no such function: ${RANK_FUNCTION}`)) throw error;
    store.db.create_function(RANK_FUNCTION, bm25);
    return work();
  }
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
  // The index is scanned newest first (CROSS JOIN fixes the order) and only the newest RANKED_CANDIDATES
  // matches are scored: a word in a third of all observations would otherwise cost a score per row.
  const ranked = withRanking(db, () =>
    db.all(
      `SELECT seq, ${RANK_FUNCTION}(info, tokens) AS score FROM (
         SELECT o.seq AS seq, o.at AS at, o.tokens AS tokens, matchinfo(observations_fts, 'pcnax') AS info
         FROM observations_fts CROSS JOIN observations o ON o.seq = observations_fts.docid
         WHERE observations_fts MATCH ? AND ${filters.sql}
         ORDER BY observations_fts.docid DESC LIMIT ${RANKED_CANDIDATES})
       ORDER BY score DESC, at DESC LIMIT ? OFFSET ?`,
      [matchExpression(parsed), ...filters.params, limit + 1, offset],
    ),
  );
  const page = ranked.slice(0, limit);
  const rows = new Map(
    db
      .all(
        `SELECT o.seq AS seq, ${observationColumns('o.')} FROM observations o
         WHERE o.seq IN (${page.map(() => '?').join(', ') || 'NULL'})`,
        page.map((row) => Number(row.seq)),
      )
      .map((row) => [Number(row.seq), toObservation(row)]),
  );
  const hits: SearchHit[] = [];
  for (const { seq, score } of page) {
    const observation = rows.get(Number(seq));
    if (!observation) continue;
    hits.push({ ...observation, score: Number(score), ...snippetOf(observation.text, parsed) });
  }
  return { hits, more: ranked.length > limit, noWords: false };
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
