/**
 * Writes of the search index (postings.ts), inside the caller's transaction, with the two figures BM25
 * needs of the whole index: how many observations it holds and how many words they have.
 */
import { runAtOnce, type Steps } from '../../kernel/steps';
import { addToCounter, counterValue, setCounter } from '../../storage/counters';
import type { Store } from '../../storage/store';
import { words } from '../text';
import { type IndexedText, blockOf, encodeTexts, withoutEntries } from './postings';

export const INDEXED_OBSERVATIONS = 'search.observations';
export const INDEXED_WORDS = 'search.words';
/**
 * Observations below this seq are not indexed yet: those a database held when it moved to this index
 * (catchUpSearchIndex indexes them, newest first). 0 once every one is.
 */
const UNINDEXED_BELOW = 'search.unindexed_below';
/** Observations indexed per transaction while catching up: some 30 ms each. */
const CATCH_UP_SLICE = 2000;

/** Add observations (not in the index yet) to it. */
export function addToSearchIndex(store: Store, texts: readonly IndexedText[]): void {
  if (texts.length === 0) return;
  for (const [word, blocks] of encodeTexts(texts))
    for (const [block, bytes] of blocks)
      store.run(
        // Entries are relative to their block, so appending bytes extends it (|| keeps them, as text).
        `INSERT INTO search_postings (term, block, entries) VALUES (?, ?, ?)
         ON CONFLICT (term, block) DO UPDATE SET entries = CAST(entries || excluded.entries AS BLOB)`,
        [word, block, bytes.done()],
      );
  addToCounter(store, INDEXED_OBSERVATIONS, texts.length);
  addToCounter(
    store,
    INDEXED_WORDS,
    texts.reduce((sum, text) => sum + text.words.length, 0),
  );
}

/** Remove observations from the index, given the words they were indexed with. */
export function removeFromSearchIndex(store: Store, texts: readonly IndexedText[]): void {
  // One not indexed yet (a database still catching up) has nothing to remove.
  const unindexedBelow = counterValue(store, UNINDEXED_BELOW);
  const indexed = texts.filter((text) => text.seq >= unindexedBelow);
  if (indexed.length === 0) return;
  const drops = new Map<string, Set<number>>();
  for (const { seq, words: textWords } of indexed)
    for (const word of new Set(textWords)) {
      const key = `${blockOf(seq)}\u0000${word}`;
      let seqs = drops.get(key);
      if (!seqs) drops.set(key, (seqs = new Set()));
      seqs.add(seq);
    }
  for (const [key, seqs] of drops) {
    const split = key.indexOf('\u0000');
    const block = Number(key.slice(0, split));
    const word = key.slice(split + 1);
    const row = store.get('SELECT entries FROM search_postings WHERE term = ? AND block = ?', [word, block]);
    if (!(row?.entries instanceof Uint8Array)) continue;
    const kept = withoutEntries(row.entries, block, seqs);
    if (kept)
      store.run('UPDATE search_postings SET entries = ? WHERE term = ? AND block = ?', [kept, word, block]);
    else store.run('DELETE FROM search_postings WHERE term = ? AND block = ?', [word, block]);
  }
  addToCounter(store, INDEXED_OBSERVATIONS, -indexed.length);
  addToCounter(store, INDEXED_WORDS, -indexed.reduce((sum, text) => sum + text.words.length, 0));
}

/** An observation's text as the index holds it. */
export function indexedText(seq: number, text: string): IndexedText {
  return { seq, words: words(text) };
}

/** Index the observations a database held before it had this index, a slice per transaction: how many. */
export function* catchUpSearchIndex(store: Store): Steps<number> {
  let indexed = 0;
  for (;;) {
    const below = counterValue(store, UNINDEXED_BELOW);
    if (below <= 0) return indexed;
    store.transaction(() => {
      const rows = store.all('SELECT seq, text FROM observations WHERE seq < ? ORDER BY seq DESC LIMIT ?', [
        below,
        CATCH_UP_SLICE,
      ]);
      addToSearchIndex(
        store,
        rows.map((row) => indexedText(Number(row.seq), String(row.text))),
      );
      indexed += rows.length;
      setCounter(
        store,
        UNINDEXED_BELOW,
        rows.length < CATCH_UP_SLICE ? 0 : Number(rows[rows.length - 1].seq),
      );
    });
    yield;
  }
}

/** Index what is not yet, at once: a search (or a reader of a snapshot) always sees every observation. */
export function ensureSearchIndex(store: Store): void {
  if (counterValue(store, UNINDEXED_BELOW) > 0) runAtOnce(catchUpSearchIndex(store));
}
