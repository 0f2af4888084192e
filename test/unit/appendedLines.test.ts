/**
 * A transcript's fingerprint after each chunk (what tells the next import whether the file still holds what
 * was read) taken from the bytes the chunk read, equal to hashing the file's bytes, and without reading it again.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ChunkFingerprints, LineReader } from '../../src/engine/kernel/appendedLines';
import { tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
let file: string;
let small: string;

before(() => {
  ws = tempWorkspace('cd-appended-lines-');
  file = path.join(ws.home, 'lines.jsonl');
  // Lines of 1 to 3,000 bytes, so that chunks end anywhere relative to the 4 KiB hashed.
  const lines = Array.from({ length: 120 }, (_, i) =>
    JSON.stringify({ i, text: 'x'.repeat((i * 97) % 3000) }),
  );
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  small = path.join(ws.home, 'small.jsonl');
  fs.writeFileSync(small, '{"a":1}\n{"b":2}\n');
});
after(() => ws.cleanup());

/** `handle` with its reads counted. */
function counted(handle: FileHandle): { handle: FileHandle; reads: () => number } {
  let reads = 0;
  const wrapper = {
    read: (...args: Parameters<FileHandle['read']>) => {
      reads++;
      return handle.read(...args);
    },
  } as unknown as FileHandle;
  return { handle: wrapper, reads: () => reads };
}

/** The file's first 4 KiB and the 4 KiB before `offset` (fewer in a shorter file), hashed here. */
function expected(name: string, offset: number): { head: string; tail: string } {
  const bytes = fs.readFileSync(name);
  const length = Math.min(offset, 4096);
  const sha1 = (part: Buffer) => createHash('sha1').update(part).digest('hex');
  return { head: sha1(bytes.subarray(0, length)), tail: sha1(bytes.subarray(offset - length, offset)) };
}

/** Reads `name` from `start` in chunks of `chunkBytes`; each fingerprint beside a fresh one, and the reads it took. */
async function readAll(name: string, start: number, chunkBytes: number) {
  const handle = await fs.promises.open(name, 'r');
  try {
    const own = counted(handle);
    const marks = new ChunkFingerprints(own.handle);
    const reader = new LineReader();
    const pairs = [];
    for (let offset = start; ;) {
      const chunk = await reader.read(handle, offset, chunkBytes);
      offset += chunk?.length ?? 0;
      const mark = await marks.at(offset, chunk?.kind === 'lines' ? chunk.bytes : undefined);
      pairs.push([mark, expected(name, offset)]);
      if (!chunk) break;
    }
    return { pairs, reads: own.reads() };
  } finally {
    await handle.close();
  }
}

describe('fingerprints of a file read in chunks', () => {
  for (const chunkBytes of [1000, 4096, 9000, 1 << 20])
    test(`from its start, in chunks of ${chunkBytes} bytes: as hashed again, with no read of their own`, async () => {
      const { pairs, reads } = await readAll(file, 0, chunkBytes);
      assert.ok(pairs.length >= 2);
      for (const [mark, fresh] of pairs) assert.deepEqual(mark, fresh);
      // A chunk shorter than the 4 KiB hashed needs the bytes before it.
      if (chunkBytes >= 4096 + 3000) assert.equal(reads, 0);
    });

  test('from an offset past its first bytes: those are read once for the whole file', async () => {
    const text = fs.readFileSync(file, 'utf8');
    const start = text.indexOf('\n', 10_000) + 1;
    const { pairs, reads } = await readAll(file, start, 9000);
    for (const [mark, fresh] of pairs) assert.deepEqual(mark, fresh);
    assert.equal(reads, 1);
  });

  test('a file shorter than the bytes hashed', async () => {
    const { pairs, reads } = await readAll(small, 0, 4096);
    for (const [mark, fresh] of pairs) assert.deepEqual(mark, fresh);
    assert.equal(reads, 0);
  });
});
