/**
 * The frames of zstd data, walked by their headers without decoding anything (RFC 8878, 3.1), so what a
 * frame asks of the decoder is known before it is decoded. A decoder allocates a frame's window up front,
 * and a frame of a few bytes may declare a window (or, in a single segment, a content size) of gigabytes:
 * a 76 KB file may ask for 2 GB.
 */

/** zstd's own default decoding limit (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27): a larger window needs `--long`. */
export const MAX_WINDOW_BYTES = 128 * 1024 * 1024;

const FRAME_MAGIC = 0xfd2fb528;
/** Skippable frames carry 0x184D2A50 to 0x184D2A5F (3.1.2): data to pass over. */
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** A block's size is at most 128 KiB (Block_Maximum_Size). */
const MAX_BLOCK_BYTES = 128 * 1024;

class ZstdFrameError extends Error {}

export interface ZstdFrame {
  /** Where the frame starts and ends in the data. */
  start: number;
  end: number;
  /** The memory the decoder sets aside for it: the window, or the whole content of a single segment. */
  windowBytes: number;
  /** The decompressed size the header declares, when it declares one. */
  contentBytes?: number;
}

export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && readLe(bytes, 0, 4) === FRAME_MAGIC;
}

function readLe(bytes: Uint8Array, offset: number, length: number): number {
  let value = 0;
  for (let i = length - 1; i >= 0; i--) value = value * 256 + bytes[offset + i];
  return value;
}

/** The frames of `data` in order, skippable frames left out; throws ZstdFrameError where a header is wrong. */
export function* zstdFrames(data: Uint8Array): Generator<ZstdFrame> {
  let offset = 0;
  const need = (bytes: number, what: string) => {
    if (offset + bytes > data.length) throw new ZstdFrameError(`cut short in ${what} at byte ${offset}`);
  };
  while (offset < data.length) {
    const start = offset;
    need(4, 'a frame magic number');
    const magic = readLe(data, offset, 4);
    offset += 4;
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(4, 'a skippable frame');
      const size = readLe(data, offset, 4);
      offset += 4;
      need(size, 'a skippable frame');
      offset += size;
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new ZstdFrameError(`no zstd frame at byte ${start}`);
    need(1, 'a frame header');
    const descriptor = data[offset++];
    if (descriptor & 0x08) throw new ZstdFrameError(`reserved bit set in the frame header at byte ${start}`);
    const singleSegment = (descriptor & 0x20) !== 0;
    const checksum = (descriptor & 0x04) !== 0;
    const dictionaryBytes = [0, 1, 2, 4][descriptor & 0x03];
    const sizeFlag = descriptor >> 6;
    const contentSizeBytes = sizeFlag === 0 ? (singleSegment ? 1 : 0) : 1 << sizeFlag;
    let windowBytes = 0;
    if (!singleSegment) {
      need(1, 'a window descriptor');
      const window = data[offset++];
      const base = 2 ** (10 + (window >> 3));
      windowBytes = base + (base / 8) * (window & 0x07);
    }
    need(dictionaryBytes + contentSizeBytes, 'a frame header');
    offset += dictionaryBytes;
    let contentBytes: number | undefined;
    if (contentSizeBytes > 0) {
      contentBytes = readLe(data, offset, contentSizeBytes) + (contentSizeBytes === 2 ? 256 : 0);
      offset += contentSizeBytes;
    }
    if (singleSegment) windowBytes = contentBytes ?? 0;
    for (let last = false; !last;) {
      need(3, 'a block header');
      const header = readLe(data, offset, 3);
      offset += 3;
      last = (header & 1) === 1;
      const type = (header >> 1) & 3;
      const size = header >>> 3;
      if (type === 3) throw new ZstdFrameError(`reserved block type at byte ${offset - 3}`);
      if (size > MAX_BLOCK_BYTES) throw new ZstdFrameError(`a block of ${size} bytes at byte ${offset - 3}`);
      const stored = type === 1 ? 1 : size;
      need(stored, 'a block');
      offset += stored;
    }
    if (checksum) {
      need(4, 'a content checksum');
      offset += 4;
    }
    yield { start, end: offset, windowBytes, contentBytes };
  }
}
