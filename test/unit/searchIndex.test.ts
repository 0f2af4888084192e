/**
 * The memory's search index against SQLite's own FTS5 (better-sqlite3): every match ranked as `bm25()` ranks
 * it, common words included; and the index equal to a rebuild from the observations after every kind of
 * write: a chunk, a replaced report, a fold, a database that had FTS4.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { MEMORY_EVENTS, searchObservations } from '../../src/engine/memory';
import { analyseAgentEvent, analyseMemoryEvent } from '../../src/engine/memory/eventMemory';
import { indexedText, removeFromSearchIndex } from '../../src/engine/memory/searchIndex/indexWrites';
import { derivedId } from '../../src/engine/memory/ids';
import { ObservationWriter } from '../../src/engine/memory/observationWriter';
import { parseQuery } from '../../src/engine/memory/search';
import { counterValue } from '../../src/engine/storage/counters';
import { migrate } from '../../src/engine/storage/schema';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { Store } from '../../src/engine/storage/store';
import { databaseBefore } from '../support/oldSchema';
import { assertIndexAgrees } from '../support/searchIndex';

const T0 = Date.parse('2026-03-01T10:00:00Z');

/** A small deterministic corpus: a few very common words, a long tail, repeats within a text. */
function corpus(count: number): string[] {
  const common = ['test', 'parser', 'error', 'build'];
  const tail = Array.from({ length: 300 }, (_, i) => `w${(i * 7919) % 1000}x`);
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    const length = 3 + Math.floor(next() * 25);
    return Array.from({ length }, () =>
      next() < 0.3 ? common[Math.floor(next() * common.length)] : tail[Math.floor(next() ** 2 * tail.length)],
    ).join(' ');
  });
}

async function emptyStore(): Promise<Store> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  migrate(db);
  return new Store(db);
}

/** Saves written by the real writer, `perChunk` to a transaction (live ingestion writes one at a time). */
function save(store: Store, texts: readonly string[], perChunk: number, session = 'session-a'): void {
  for (let from = 0; from < texts.length; from += perChunk)
    store.transaction(() => {
      const writer = new ObservationWriter(store);
      texts.slice(from, from + perChunk).forEach((text, i) => {
        const n = from + i;
        const item = analyseMemoryEvent(
          { hook_event_name: MEMORY_EVENTS.save, id: derivedId(`${session} ${n}`), text },
          MEMORY_EVENTS.save,
        );
        assert.ok(item);
        writer.add(item, n + 1, session, T0 + n * 1000);
      });
      writer.flush();
    });
}

/** FTS5's syntax for the same query. */
function fts5(query: string): string {
  return parseQuery(query)
    .groups.map((group) =>
      group.map((item) => `"${item.words.join(' ')}"${item.prefix ? ' *' : ''}`).join(' OR '),
    )
    .join(' AND ');
}

describe('search ranks every match as FTS5 does', () => {
  test('the top 10 of common words, prefixes, phrases and OR agree with bm25(), ties aside', async () => {
    const texts = corpus(3000);
    const store = await emptyStore();
    save(store, texts, 500);
    const native = new Database(':memory:');
    native.exec("CREATE VIRTUAL TABLE docs USING fts5(text, tokenize = 'unicode61')");
    const insert = native.prepare('INSERT INTO docs (rowid, text) VALUES (?, ?)');
    native.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
    const seqOf = new Map(
      store.all('SELECT id, seq FROM observations').map((row) => [String(row.id), Number(row.seq)]),
    );
    const queries = [
      'test',
      'parser',
      'test parser',
      'w1x',
      'w79*',
      '"test parser"',
      '"error w"*',
      'build OR w0x',
      'w0x error',
    ];
    for (const query of queries) {
      const expression = fts5(query);
      const best = native
        .prepare('SELECT rowid, bm25(docs) AS score FROM docs WHERE docs MATCH ? ORDER BY score LIMIT 10')
        .all(expression) as Array<{ rowid: number; score: number }>;
      const matches = (
        native.prepare('SELECT count(*) AS n FROM docs WHERE docs MATCH ?').get(expression) as { n: number }
      ).n;
      const ours = searchObservations(store, { query, limit: 10 }).hits;
      assert.equal(ours.length, best.length, query);
      // Scores equal to FTS5's (it negates them), place by place: ties may order differently.
      const theirs = native.prepare(
        'SELECT rowid, -bm25(docs) AS score FROM docs WHERE docs MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
      );
      const scored = new Map(
        (
          theirs.all(expression, JSON.stringify(ours.map((hit) => seqOf.get(hit.id)))) as Array<{
            rowid: number;
            score: number;
          }>
        ).map((row) => [row.rowid, row.score]),
      );
      ours.forEach((hit, i) => {
        assert.ok(
          Math.abs((hit.score ?? 0) - scored.get(seqOf.get(hit.id)!)!) < 1e-9,
          `${query}: our score of hit ${i}`,
        );
        assert.ok(
          Math.abs((hit.score ?? 0) + best[i].score) < 1e-9,
          `${query}: place ${i} (${matches} matches)`,
        );
      });
    }
    assert.ok(
      (native.prepare('SELECT count(*) AS n FROM docs WHERE docs MATCH ?').get('test') as { n: number }).n >
        1000,
      'a common word matches over 1,000 observations',
    );
    native.close();
  });
});

describe('the index equals a rebuild from the observations', () => {
  test('written a chunk at a time and one observation at a time (blocks extended in place)', async () => {
    const store = await emptyStore();
    save(store, corpus(4500), 1500);
    save(store, corpus(200), 1, 'live');
    assertIndexAgrees(store);
    assert.ok(store.number('SELECT max(seq) FROM observations') > 4096, 'spans more than one block');
  });

  test("a session's report replaced by its next one leaves the index", async () => {
    const store = await emptyStore();
    const report = (text: string, n: number) =>
      store.transaction(() => {
        const writer = new ObservationWriter(store);
        const item = analyseAgentEvent({
          agent: 'claude-code',
          name: '',
          sessionId: 'session-r',
          kind: 'stop',
          message: text,
        });
        assert.ok(item);
        writer.add(item, n, 'session-r', T0 + n);
        writer.flush();
      });
    report('Refactored the tokenizer and fixed the parser', 1);
    report('Moved the snapshot writer off the main thread', 2);
    assertIndexAgrees(store);
    assert.deepEqual(searchObservations(store, { query: 'tokenizer' }).hits, []);
    assert.equal(searchObservations(store, { query: 'snapshot' }).hits.length, 1);
  });

  test('a database that had FTS4 is indexed after it moves: searches before and after the catch-up agree', async () => {
    const db = await databaseBefore('search_postings');
    const texts = corpus(2500);
    texts.forEach((text, i) =>
      db.run(
        `INSERT INTO observations (seq, id, session_id, type, source, text, tokens, at)
         VALUES (?, ?, 'old', 'discovery', 'saved', ?, 1, ?)`,
        [i + 1, derivedId(`old ${i}`), text, T0 + i],
      ),
    );
    db.run('INSERT INTO observations_fts (docid, text) SELECT seq, text FROM observations');
    migrate(db);
    const store = new Store(db);
    assert.equal(counterValue(store, 'search.unindexed_below'), 2501, 'nothing indexed at the move');
    // New observations come in before the old are indexed, and an old one is folded away meanwhile.
    save(store, ['parser rewrite landed'], 1, 'new');
    store.transaction(() => {
      removeFromSearchIndex(store, [indexedText(7, texts[6])]);
      store.run('DELETE FROM observations WHERE seq = 7');
    });
    const found = searchObservations(store, { query: 'parser', limit: 3 }).hits;
    assert.equal(found.length, 3, 'a search indexes what is not yet, first');
    assert.equal(counterValue(store, 'search.unindexed_below'), 0);
    assertIndexAgrees(store);
  });
});
