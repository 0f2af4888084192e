/**
 * The search index's postings: for each word, the observations holding it, in blocks of BLOCK_SEQS
 * observations (a row of `search_postings` per word and block). An entry is self-delimiting and relative to
 * its block, so a block grows by appending bytes (SQL `||`) and never needs decoding to be extended:
 *
 *   varint(seq - block start) varint(words in the observation) varint(tf) tf × varint(position delta)
 *
 * Positions are word indexes (the first absolute, then deltas): what a phrase query checks. No database here.
 */

/** Observations per block: a common word's block is at most some 20 KB, rewritten whole when one is removed. */
const BLOCK_SEQS = 4096;

export function blockOf(seq: number): number {
  return Math.floor(seq / BLOCK_SEQS);
}

/** An observation's words, with the positions of each. */
export interface IndexedText {
  seq: number;
  /** Its words as the tokenizer gives them (memory/text.ts `words`). */
  words: readonly string[];
}

/** Growing bytes of varints. */
export class EntryBytes {
  private bytes = new Uint8Array(64);
  length = 0;

  varint(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    let rest = value >>> 0;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    this.bytes[this.length++] = rest;
  }

  entry(offset: number, length: number, positions: ArrayLike<number>): void {
    this.varint(offset);
    this.varint(length);
    this.varint(positions.length);
    let previous = 0;
    for (let i = 0; i < positions.length; i++) {
      this.varint(positions[i] - previous);
      previous = positions[i];
    }
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** Each word of `texts` with, per block, the encoded entries of the texts holding it. */
export function encodeTexts(texts: readonly IndexedText[]): Map<string, Map<number, EntryBytes>> {
  const byWord = new Map<string, Map<number, EntryBytes>>();
  for (const { seq, words } of texts) {
    const positions = new Map<string, number[]>();
    words.forEach((word, position) => {
      const list = positions.get(word);
      if (list) list.push(position);
      else positions.set(word, [position]);
    });
    const block = blockOf(seq);
    for (const [word, list] of positions) {
      let blocks = byWord.get(word);
      if (!blocks) byWord.set(word, (blocks = new Map()));
      let bytes = blocks.get(block);
      if (!bytes) blocks.set(block, (bytes = new EntryBytes()));
      bytes.entry(seq - block * BLOCK_SEQS, words.length, list);
    }
  }
  return byWord;
}

/**
 * A block's entries read one at a time, without a call per entry: `next()` moves to the next entry (false at
 * the end) and sets `seq`, `length` and `tf`; `positions()` reads the entry's positions, if wanted, before
 * the next `next()`.
 */
export class EntryReader {
  seq = 0;
  length = 0;
  tf = 0;
  private at = 0;
  /** Whether `at` is past the current entry's positions. */
  private pastPositions = true;
  private base = 0;
  private bytes: Uint8Array = new Uint8Array(0);

  reset(bytes: Uint8Array, block: number): this {
    this.bytes = bytes;
    this.base = block * BLOCK_SEQS;
    this.at = 0;
    this.pastPositions = true;
    return this;
  }

  private varint(): number {
    const bytes = this.bytes;
    let byte = bytes[this.at++];
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    while (this.at < bytes.length) {
      byte = bytes[this.at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) break;
      scale *= 0x80;
    }
    return value;
  }

  next(): boolean {
    if (!this.pastPositions) this.skipPositions();
    if (this.at >= this.bytes.length) return false;
    this.seq = this.base + this.varint();
    this.length = this.varint();
    this.tf = this.varint();
    this.pastPositions = false;
    return true;
  }

  /** Move past the current entry's positions without reading them. */
  private skipPositions(): void {
    const bytes = this.bytes;
    for (let i = 0; i < this.tf && this.at < bytes.length; i++) while (bytes[this.at++] >= 0x80);
    this.pastPositions = true;
  }

  /** The current entry's positions (word indexes, ascending) into `out` from `offset`; returns the end. */
  positions(out: Int32Array, offset: number): number {
    let position = 0;
    let end = offset;
    for (let i = 0; i < this.tf && this.at < this.bytes.length; i++) {
      position += this.varint();
      out[end++] = position;
    }
    this.pastPositions = true;
    return end;
  }
}

/** The block's bytes without the entries of `drop`: re-encoded, or undefined when nothing is left. */
export function withoutEntries(
  bytes: Uint8Array,
  block: number,
  drop: ReadonlySet<number>,
): Uint8Array | undefined {
  const kept = new EntryBytes();
  const reader = new EntryReader().reset(bytes, block);
  let positions = new Int32Array(64);
  while (reader.next()) {
    if (drop.has(reader.seq)) continue;
    if (positions.length < reader.tf) positions = new Int32Array(reader.tf * 2);
    const end = reader.positions(positions, 0);
    kept.entry(reader.seq - block * BLOCK_SEQS, reader.length, positions.subarray(0, end));
  }
  return kept.length > 0 ? kept.done() : undefined;
}
