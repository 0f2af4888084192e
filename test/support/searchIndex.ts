/**
 * The search index as a rebuild from the observations table would write it, against what it holds: after
 * any sequence of writes, removals and folds the two must agree entry for entry.
 */
import assert from 'node:assert/strict';
import { counterValue } from '../../src/engine/storage/counters';
import type { Store } from '../../src/engine/storage/store';
import { words } from '../../src/engine/memory/text';
import { INDEXED_OBSERVATIONS, INDEXED_WORDS } from '../../src/engine/memory/searchIndex/indexWrites';
import { EntryReader } from '../../src/engine/memory/searchIndex/postings';

interface IndexDifference {
  /** `word seq length positions` lines in the index and not in a rebuild, and the other way round. */
  extra: string[];
  missing: string[];
  counters: { observations: [held: number, rebuilt: number]; words: [held: number, rebuilt: number] };
}

function searchIndexDifference(store: Store): IndexDifference {
  const rebuilt = new Set<string>();
  let totalWords = 0;
  const rows = store.all('SELECT seq, text FROM observations');
  for (const row of rows) {
    const textWords = words(String(row.text));
    totalWords += textWords.length;
    const positions = new Map<string, number[]>();
    textWords.forEach((word, i) => positions.set(word, [...(positions.get(word) ?? []), i]));
    for (const [word, list] of positions)
      rebuilt.add(`${word} ${Number(row.seq)} ${textWords.length} ${list.join(',')}`);
  }
  const held = new Set<string>();
  const reader = new EntryReader();
  for (const row of store.all('SELECT term, block, entries FROM search_postings')) {
    reader.reset(row.entries as Uint8Array, Number(row.block));
    while (reader.next()) {
      const out = new Int32Array(reader.tf);
      const end = reader.positions(out, 0);
      held.add(`${String(row.term)} ${reader.seq} ${reader.length} ${[...out.subarray(0, end)].join(',')}`);
    }
  }
  return {
    extra: [...held].filter((line) => !rebuilt.has(line)),
    missing: [...rebuilt].filter((line) => !held.has(line)),
    counters: {
      observations: [counterValue(store, INDEXED_OBSERVATIONS), rows.length],
      words: [counterValue(store, INDEXED_WORDS), totalWords],
    },
  };
}

/** Fails, saying which entries differ, unless the index holds exactly what a rebuild would. */
export function assertIndexAgrees(store: Store, message = ''): void {
  const { extra, missing, counters } = searchIndexDifference(store);
  assert.deepEqual(
    { extra: extra.slice(0, 5), missing: missing.slice(0, 5) },
    { extra: [], missing: [] },
    message,
  );
  assert.equal(counters.observations[0], counters.observations[1], `observations counted ${message}`);
  assert.equal(counters.words[0], counters.words[1], `words counted ${message}`);
}
