/**
 * Every observation a query matches, scored by BM25 as FTS5's `bm25()` scores it (k1 1.2, b 0.75, idf
 * floored at 1e-6, a phrase's frequency counted per occurrence, lengths and averages over the whole index),
 * read from the postings (postings.ts): no newest-N cap, whatever the query's words.
 */
import type { Store } from '../../storage/store';
import { counterValue } from '../../storage/counters';
import { EntryReader } from './postings';
import { INDEXED_OBSERVATIONS, INDEXED_WORDS } from './indexWrites';

/** One item of a query: a word, a prefix, or a phrase (whose last word may be a prefix). */
export interface QueryItem {
  words: string[];
  prefix: boolean;
}

/** Groups of alternatives: every group must match, any item of a group may. */
export interface ParsedQuery {
  groups: QueryItem[][];
}

/** The observations an item matches: parallel arrays, one observation once. */
interface ItemHits {
  seqs: number[];
  tfs: number[];
  lengths: number[];
}

const K1 = 1.2;
const B = 0.75;

/** Above any code point: the end of the range of words that start with a prefix. */
const AFTER_PREFIX = '\u{10FFFF}';

/** Each block of a word's postings (or of every word starting with a prefix). */
function* blocksOf(store: Store, word: string, prefix: boolean): Generator<EntryReader> {
  const statement = prefix
    ? store.statement('SELECT block, entries FROM search_postings WHERE term >= ? AND term < ?')
    : store.statement('SELECT block, entries FROM search_postings WHERE term = ?');
  const reader = new EntryReader();
  try {
    statement.bind(prefix ? [word, word + AFTER_PREFIX] : [word]);
    while (statement.step()) {
      const [block, entries] = statement.get();
      if (entries instanceof Uint8Array) yield reader.reset(entries, Number(block));
    }
  } finally {
    statement.reset();
  }
}

/**
 * Scratch arrays indexed by seq, kept between queries: an entry is current when its stamp is the query's,
 * so nothing is cleared. Ranking is synchronous: one query uses them at a time.
 */
const scratch = {
  stamp: new Uint32Array(0),
  slot: new Int32Array(0),
  met: new Uint16Array(0),
  score: new Float64Array(0),
  query: 0,
};

/** Room in the scratch arrays for seqs up to `maxSeq`, what they hold kept. */
function reserve(maxSeq: number): void {
  if (scratch.stamp.length > maxSeq) return;
  const size = Math.max(maxSeq + 1, scratch.stamp.length * 2, 1024);
  const grow = <T extends Uint32Array | Int32Array | Uint16Array | Float64Array>(from: T, to: T): T => {
    to.set(from as never);
    return to;
  };
  scratch.stamp = grow(scratch.stamp, new Uint32Array(size));
  scratch.slot = grow(scratch.slot, new Int32Array(size));
  scratch.met = grow(scratch.met, new Uint16Array(size));
  scratch.score = grow(scratch.score, new Float64Array(size));
}

function nextStamp(maxSeq: number): number {
  reserve(maxSeq);
  scratch.query = (scratch.query + 1) >>> 0 || 1;
  return scratch.query;
}

/** A word's (or a prefix's words') hits; a prefix's words are summed per observation, as FTS5 counts them. */
function wordHits(store: Store, word: string, prefix: boolean): ItemHits {
  const hits: ItemHits = { seqs: [], tfs: [], lengths: [] };
  // A prefix's words each hold an observation once: their hits are merged through the scratch slots.
  const query = prefix ? nextStamp(0) : 0;
  let { stamp, slot } = scratch;
  for (const entry of blocksOf(store, word, prefix))
    while (entry.next()) {
      const seq = entry.seq;
      if (prefix) {
        if (seq >= stamp.length) {
          reserve(seq);
          ({ stamp, slot } = scratch);
        }
        if (stamp[seq] === query) {
          hits.tfs[slot[seq]] += entry.tf;
          continue;
        }
        stamp[seq] = query;
        slot[seq] = hits.seqs.length;
      }
      hits.seqs.push(seq);
      hits.tfs.push(entry.tf);
      hits.lengths.push(entry.length);
    }
  return hits;
}

/**
 * A phrase's hits: its words one after another, counted once per place they start. The first word's
 * positions are the candidate starts; each next word keeps the starts it follows at its distance.
 */
function phraseHits(store: Store, item: QueryItem): ItemHits {
  const docs = { seqs: [] as number[], lengths: [] as number[], from: [] as number[], count: [] as number[] };
  let starts = new Int32Array(1024);
  let used = 0;
  for (const entry of blocksOf(store, item.words[0], false))
    while (entry.next()) {
      if (starts.length < used + entry.tf) {
        const grown = new Int32Array(Math.max(starts.length * 2, used + entry.tf));
        grown.set(starts.subarray(0, used));
        starts = grown;
      }
      docs.seqs.push(entry.seq);
      docs.lengths.push(entry.length);
      docs.from.push(used);
      const end = entry.positions(starts, used);
      docs.count.push(end - used);
      used = end;
    }
  let maxSeq = 0;
  for (const seq of docs.seqs) if (seq > maxSeq) maxSeq = seq;
  const query = nextStamp(maxSeq);
  const { stamp, slot } = scratch;
  docs.seqs.forEach((seq, d) => {
    stamp[seq] = query;
    slot[seq] = d;
  });
  // Which starts the current word follows (marked with its index), over all its entries (a prefix has several).
  const mark = new Int32Array(used);
  let positions = new Int32Array(64);
  const last = item.words.length - 1;
  for (let i = 1; i <= last; i++) {
    for (const entry of blocksOf(store, item.words[i], item.prefix && i === last))
      while (entry.next()) {
        const seq = entry.seq;
        if (seq > maxSeq || stamp[seq] !== query) continue;
        const d = slot[seq];
        if (docs.count[d] === 0) continue;
        if (positions.length < entry.tf) positions = new Int32Array(entry.tf * 2);
        const end = entry.positions(positions, 0);
        // Both ascending: one pass finds the starts s with the word at s + i.
        let p = 0;
        for (let k = docs.from[d]; k < docs.from[d] + docs.count[d]; k++) {
          const wanted = starts[k] + i;
          while (p < end && positions[p] < wanted) p++;
          if (p < end && positions[p] === wanted) mark[k] = i;
        }
      }
    docs.seqs.forEach((_, d) => {
      let kept = docs.from[d];
      for (let k = docs.from[d]; k < docs.from[d] + docs.count[d]; k++)
        if (mark[k] === i) starts[kept++] = starts[k];
      docs.count[d] = kept - docs.from[d];
    });
  }
  const hits: ItemHits = { seqs: [], tfs: [], lengths: [] };
  docs.seqs.forEach((seq, d) => {
    if (docs.count[d] === 0) return;
    hits.seqs.push(seq);
    hits.tfs.push(docs.count[d]);
    hits.lengths.push(docs.lengths[d]);
  });
  return hits;
}

function itemHits(store: Store, item: QueryItem): ItemHits {
  return item.words.length === 1 ? wordHits(store, item.words[0], item.prefix) : phraseHits(store, item);
}

/** Matching observations and their scores (higher is better), in no order. */
export interface Matches {
  seqs: number[];
  scores: number[];
}

/** Every observation matching `parsed`, with its BM25 score. */
export function matchAll(store: Store, parsed: ParsedQuery): Matches {
  const rows = counterValue(store, INDEXED_OBSERVATIONS);
  const average = counterValue(store, INDEXED_WORDS) / Math.max(1, rows) || 1;
  const groups = parsed.groups.map((group) =>
    group.map((item) => {
      const hits = itemHits(store, item);
      const withHits = hits.seqs.length;
      return { hits, idf: Math.max(1e-6, Math.log((rows - withHits + 0.5) / (withHits + 0.5))) };
    }),
  );
  // The group with the fewest hits first: only what it matches can match at all.
  const size = (group: (typeof groups)[number]) =>
    group.reduce((sum, item) => sum + item.hits.seqs.length, 0);
  groups.sort((a, b) => size(a) - size(b));
  let maxSeq = 0;
  for (const group of groups)
    for (const { hits } of group) for (const seq of hits.seqs) if (seq > maxSeq) maxSeq = seq;
  const query = nextStamp(maxSeq);
  const { stamp, met, score } = scratch;
  const candidates: number[] = [];
  groups.forEach((group, g) => {
    for (const { hits, idf } of group)
      for (let i = 0; i < hits.seqs.length; i++) {
        const seq = hits.seqs[i];
        if (stamp[seq] !== query) {
          if (g > 0) continue;
          stamp[seq] = query;
          met[seq] = 0;
          score[seq] = 0;
          candidates.push(seq);
        }
        // The first item of this group to hit it; one that missed an earlier group never matches.
        if (met[seq] === g) met[seq] = g + 1;
        else if (met[seq] !== g + 1) continue;
        const tf = hits.tfs[i];
        score[seq] += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * hits.lengths[i]) / average));
      }
  });
  const matches: Matches = { seqs: [], scores: [] };
  for (const seq of candidates)
    if (met[seq] === groups.length) {
      matches.seqs.push(seq);
      matches.scores.push(score[seq]);
    }
  return matches;
}

/** A match and its score. */
export interface Ranked {
  seq: number;
  score: number;
}

/**
 * The `count` best of `matches` not in `skip`, best first (ties: the newer observation first), by a heap
 * over the matches: no sort of all of them.
 */
export function bestOf(matches: Matches, count: number, skip: ReadonlySet<number>): Ranked[] {
  const { seqs, scores } = matches;
  // Whether match a ranks below match b.
  const below = (a: number, b: number) =>
    scores[a] < scores[b] || (scores[a] === scores[b] && seqs[a] < seqs[b]);
  const heap: number[] = [];
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < heap.length && below(heap[left], heap[least])) least = left;
      if (right < heap.length && below(heap[right], heap[least])) least = right;
      if (least === at) return;
      [heap[at], heap[least]] = [heap[least], heap[at]];
      at = least;
    }
  };
  for (let i = 0; i < seqs.length; i++) {
    if (skip.has(seqs[i])) continue;
    if (heap.length < count) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!below(heap[at], heap[parent])) break;
        [heap[at], heap[parent]] = [heap[parent], heap[at]];
        at = parent;
      }
    } else if (count > 0 && below(heap[0], i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap
    .sort((a, b) => (below(a, b) ? 1 : below(b, a) ? -1 : 0))
    .map((i) => ({ seq: seqs[i], score: scores[i] }));
}
