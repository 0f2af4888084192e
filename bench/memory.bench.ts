/**
 * Memory search at 100,000 observations: our postings index and BM25 (sql.js, memory/searchIndex/) against
 * better-sqlite3's FTS5 `bm25()` on the same corpus and queries, with the overlap of their top 10 as a
 * quality signal: all queries, and apart those matching over 1,000 observations (common words).
 */
import Database from 'better-sqlite3';
import { MEMORY_EVENTS, searchObservations } from '../src/engine/memory';
import { derivedId } from '../src/engine/memory/ids';
import { analyseMemoryEvent } from '../src/engine/memory/eventMemory';
import { ObservationWriter } from '../src/engine/memory/observationWriter';
import { type ParsedQuery, parseQuery } from '../src/engine/memory/search';
import { migrate } from '../src/engine/storage/schema';
import { loadSqlJs } from '../src/engine/kernel/sqlJs';
import { Store } from '../src/engine/storage/store';
import { type BenchSection, median, percentile, round } from './report';

const OBSERVATIONS = 100_000;
const QUERIES = 50;
const RUNS = 5;
const TOP = 10;
const TARGET_P95_MS = 10;
/** A query matching more observations than this is a common one (FTS4 once ranked only the newest 1,000). */
const COMMON_MATCHES = 1000;

/** Deterministic, so every run measures the same corpus and queries. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STEMS = [
  'parser',
  'token',
  'session',
  'snapshot',
  'ingest',
  'writer',
  'reader',
  'memory',
  'budget',
  'search',
  'timeline',
  'anchor',
  'config',
  'server',
  'client',
  'schema',
  'migration',
  'index',
  'query',
  'cache',
  'login',
  'auth',
  'user',
  'route',
  'handler',
  'request',
  'response',
  'error',
  'test',
  'build',
  'render',
  'widget',
  'panel',
  'gauge',
  'prompt',
  'context',
  'hook',
  'event',
  'log',
  'file',
];
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ter',
  'zan',
  'po',
  'ri',
  'vex',
  'dul',
  'sen',
  'gor',
  'tha',
  'ble',
  'quin',
];

/** About 3,000 words: real stems first (the most frequent), then made-up ones for the long tail. */
function vocabulary(next: () => number): string[] {
  const words = new Set(STEMS);
  while (words.size < 3000) {
    const length = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/** Zipf-like (s = 1) sampling of vocabulary ranks. */
function zipf(size: number, next: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= size; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = next() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid] < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

function corpus(): { texts: string[]; words: string[]; rank: () => number; next: () => number } {
  const next = random(42);
  const words = vocabulary(next);
  const rank = zipf(words.length, next);
  const w = () => words[rank()];
  const phrase = (n: number) => Array.from({ length: n }, w).join(' ');
  const file = () => `src/${w()}/${w()}.ts`;
  const templates = [
    () => `Modified ${file()}: replaced "${phrase(3)}" with "${phrase(4)}"`,
    () => `Created ${file()} (${1 + Math.floor(next() * 300)} lines)`,
    () => `Tests failed: npm test — ${w()}Error: ${phrase(3)} is not ${w()}`,
    () => `Tests passed: npm test — ${Math.floor(next() * 400)} passing`,
    () => `Asked: ${phrase(2)} the ${phrase(2)} in ${file()} so that ${phrase(5)}`,
    () => `Decided to ${phrase(2)} instead of ${phrase(2)} because ${phrase(6)}`,
    () => `Explore subagent reported: ${phrase(12)}`,
    () => `Ran node scripts/${w()}.js — ${phrase(6)}`,
    () => `Fetched https://docs.example.com/${w()}/${w()} (looking for: ${phrase(3)})`,
  ];
  const texts = Array.from({ length: OBSERVATIONS }, () =>
    templates[Math.floor(next() * templates.length)](),
  );
  return { texts, words, rank, next };
}

/** 1-3 word queries on content words (most of them), a few very common words, prefixes and phrases. */
function queries(texts: string[], words: string[], rank: () => number, next: () => number): string[] {
  const out: string[] = [];
  const contentWord = () => {
    for (;;) {
      const r = rank();
      if (r >= 5) return words[r];
    }
  };
  for (let i = 0; i < 27; i++) out.push(Array.from({ length: 1 + (i % 3) }, contentWord).join(' '));
  for (let i = 0; i < 3; i++) out.push(words[i]);
  for (let i = 0; i < 10; i++) {
    const word = contentWord();
    out.push(`${word.slice(0, Math.max(3, word.length - 2))}*`);
  }
  while (out.length < QUERIES) {
    const text = texts[Math.floor(next() * texts.length)].toLowerCase().match(/[a-z]+/g) ?? [];
    const start = Math.floor(next() * Math.max(1, text.length - 2));
    if (text.length > 3) out.push(`"${text.slice(start, start + 2).join(' ')}"`);
  }
  return out;
}

/** FTS5 syntax for the same parsed query (a prefix star goes after the closing quote there). */
function fts5Expression(parsed: ParsedQuery): string {
  return parsed.groups
    .map((group) => group.map((item) => `"${item.words.join(' ')}"${item.prefix ? ' *' : ''}`).join(' OR '))
    .join(' AND ');
}

function timeQuery(run: () => unknown): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return median(times);
}

export async function benchMemory(): Promise<BenchSection> {
  const { texts, words, rank, next } = corpus();
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  const store = new Store(db);
  migrate(db);
  const buildStarted = performance.now();
  const base = Date.parse('2026-01-01T00:00:00Z');
  for (let chunk = 0; chunk < texts.length; chunk += 5000) {
    store.transaction(() => {
      const writer = new ObservationWriter(store);
      for (let i = chunk; i < Math.min(texts.length, chunk + 5000); i++) {
        const event = { hook_event_name: MEMORY_EVENTS.save, id: derivedId(String(i)), text: texts[i] };
        const item = analyseMemoryEvent(event, MEMORY_EVENTS.save);
        if (item) writer.add(item, i + 1, `session-${Math.floor(i / 50)}`, base + i * 60_000);
      }
      writer.flush();
    });
  }
  const buildMs = performance.now() - buildStarted;
  const dbBytes = store.export().length;

  const native = new Database(':memory:');
  native.exec("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize = 'unicode61', prefix = '3 4 5')");
  const insert = native.prepare('INSERT INTO docs (rowid, text) VALUES (?, ?)');
  native.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
  const nativeSearch = native.prepare(
    `SELECT rowid, bm25(docs) AS score, snippet(docs, 0, '', '', '…', 24) AS snippet FROM docs
     WHERE docs MATCH ? ORDER BY score LIMIT ${TOP}`,
  );
  const nativeCount = native.prepare('SELECT count(*) AS n FROM docs WHERE docs MATCH ?');
  const nativeScores = native.prepare(
    'SELECT rowid, bm25(docs) AS score FROM docs WHERE docs MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
  );
  const seqOf = new Map(
    store.all('SELECT id, seq FROM observations').map((row) => [String(row.id), Number(row.seq)]),
  );

  const asked = queries(texts, words, rank, next);
  const ours: number[] = [];
  const theirs: number[] = [];
  const overlaps: number[] = [];
  /** Queries matching over COMMON_MATCHES observations: their overlap is reported apart. */
  const common: boolean[] = [];
  let slowest = { query: '', ms: 0 };
  for (const query of asked) {
    const expression = fts5Expression(parseQuery(query));
    const ourMs = timeQuery(() => searchObservations(store, { query, limit: TOP }));
    const nativeMs = timeQuery(() => nativeSearch.all(expression));
    ours.push(ourMs);
    theirs.push(nativeMs);
    if (ourMs > slowest.ms) slowest = { query, ms: ourMs };
    // Short texts tie often: one of our hits agrees when FTS5 scores it at least as well as its own 10th.
    const ourTop = searchObservations(store, { query, limit: TOP }).hits.map((hit) => seqOf.get(hit.id));
    const nativeTop = nativeSearch.all(expression) as Array<{ rowid: number; score: number }>;
    if (nativeTop.length > 0) {
      const bar = nativeTop[nativeTop.length - 1].score + 1e-9;
      const scored = nativeScores.all(expression, JSON.stringify(ourTop)) as Array<{ score: number }>;
      overlaps.push(scored.filter((row) => row.score <= bar).length / nativeTop.length);
      common.push((nativeCount.get(expression) as { n: number }).n > COMMON_MATCHES);
    }
  }
  native.close();
  store.close();

  const p50 = percentile(ours, 50);
  const p95 = percentile(ours, 95);
  const nativeP50 = percentile(theirs, 50);
  const nativeP95 = percentile(theirs, 95);
  const mean = (values: number[]) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  const overlap = mean(overlaps);
  const commonOverlap = mean(overlaps.filter((_, i) => common[i]));
  const commonCount = common.filter(Boolean).length;
  return {
    title: `Memory search, ${OBSERVATIONS.toLocaleString('en-US')} observations, ${asked.length} queries, top ${TOP}`,
    columns: ['engine', 'p50 ms', 'p95 ms', 'max ms', 'p50 ratio', 'p95 ratio', 'top-10 overlap'],
    rows: [
      [
        'ours: sql.js, postings + BM25',
        round(p50, 2),
        round(p95, 2),
        round(Math.max(...ours), 2),
        round(p50 / nativeP50, 1),
        round(p95 / nativeP95, 1),
        `${Math.round(overlap * 100)}%`,
      ],
      [
        'better-sqlite3 FTS5 bm25()',
        round(nativeP50, 2),
        round(nativeP95, 2),
        round(Math.max(...theirs), 2),
        1,
        1,
        '-',
      ],
    ],
    results: {
      observations: OBSERVATIONS,
      queries: asked,
      buildMs: Math.round(buildMs),
      dbBytes,
      ours: { p50, p95, max: Math.max(...ours) },
      native: { p50: nativeP50, p95: nativeP95, max: Math.max(...theirs) },
      top10Overlap: overlap,
      commonQueries: commonCount,
      top10OverlapCommon: commonOverlap,
      slowest,
    },
    targets: [
      `search p95 ${round(p95, 2)} ms at ${OBSERVATIONS.toLocaleString('en-US')} observations (target < ${TARGET_P95_MS} ms): ${p95 < TARGET_P95_MS ? 'met' : 'NOT met'}; slowest query ${JSON.stringify(slowest.query)} ${round(slowest.ms, 1)} ms`,
      `ranking agrees with FTS5 bm25() on ${Math.round(overlap * 100)}% of the top ${TOP} on average (ties counted as agreeing; target 90%): ${overlap >= 0.9 ? 'met' : 'NOT met'}; ${Math.round(commonOverlap * 100)}% for the ${commonCount} queries matching over ${COMMON_MATCHES.toLocaleString('en-US')} observations`,
      `search p50 ${round(p50 / nativeP50, 2)}x and p95 ${round(p95 / nativeP95, 2)}x FTS5's (targets 1.5x and 1x): ${p50 <= 1.5 * nativeP50 && p95 <= nativeP95 ? 'met' : 'NOT met'}`,
      `corpus written through the observation writer in ${Math.round(buildMs)} ms; snapshot ${round(dbBytes / 1e6)} MB`,
    ],
  };
}
