/**
 * Varints, records and values of the SQLite file format (https://www.sqlite.org/fileformat2.html#varint,
 * #record_format). The bytes come from a file that may be corrupt, so every read is bounds-checked and a
 * malformed structure is a SqliteFileError, never an out-of-range read.
 */

/** A value as SQLite stores it: integers past 2^53 are bigints, blobs are Uint8Arrays (copies, never views). */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** The file is not a SQLite database, or one of its structures is malformed: the message says which. */
export class SqliteFileError extends Error {
  override name = 'SqliteFileError';
}

export function u16(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] << 8) | bytes[offset + 1];
}

export function u32(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] << 24) | (bytes[offset + 1] << 16) | (bytes[offset + 2] << 8) | bytes[offset + 3]) >>> 0
  );
}

export function numberIfSafe(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}

/**
 * The varint at `offset` as a signed 64-bit integer (a number when safe), and the offset after it. It must
 * end before `end`.
 */
export function readVarint(bytes: Uint8Array, offset: number, end: number): [number | bigint, number] {
  let value = 0;
  // Seven bytes carry 49 bits: exact as a number.
  for (let at = offset; at < offset + 7; at++) {
    if (at >= end) throw new SqliteFileError('a varint runs past the end of its field');
    const byte = bytes[at];
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + 1];
  }
  if (offset + 7 >= end) throw new SqliteFileError('a varint runs past the end of its field');
  let big = (BigInt(value) << 7n) | BigInt(bytes[offset + 7] & 0x7f);
  if (bytes[offset + 7] < 0x80) return [numberIfSafe(big), offset + 8];
  if (offset + 8 >= end) throw new SqliteFileError('a varint runs past the end of its field');
  // The ninth byte contributes all 8 bits.
  big = (big << 8n) | BigInt(bytes[offset + 8]);
  return [numberIfSafe(BigInt.asIntN(64, big)), offset + 9];
}

/** A varint that counts bytes: a non-negative number no larger than `max`. */
export function readSize(
  bytes: Uint8Array,
  offset: number,
  end: number,
  max: number,
  what: string,
): [number, number] {
  const [value, next] = readVarint(bytes, offset, end);
  if (typeof value !== 'number' || value < 0 || value > max)
    throw new SqliteFileError(`${what} ${value} is out of range (0 to ${max})`);
  return [value, next];
}

/** Bytes of a field of serial type `type` (https://www.sqlite.org/fileformat2.html#record_format). */
function fieldSize(type: number): number {
  if (type >= 12) return (type - 12 - (type & 1)) / 2;
  if (type === 10 || type === 11) throw new SqliteFileError(`serial type ${type} is reserved`);
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type];
}

/** Where each field of a record is: its serial type and the offset of its value in the payload. */
export interface RecordLayout {
  types: number[];
  starts: number[];
}

export function recordLayout(payload: Uint8Array): RecordLayout {
  const [headerSize, first] = readSize(payload, 0, payload.length, payload.length, 'a record header size');
  if (headerSize < first) throw new SqliteFileError(`a record header size ${headerSize} is too small`);
  const types: number[] = [];
  const starts: number[] = [];
  let body = headerSize;
  for (let at = first; at < headerSize;) {
    const [type, next] = readVarint(payload, at, headerSize);
    if (typeof type !== 'number' || type < 0) throw new SqliteFileError(`serial type ${type} is invalid`);
    types.push(type);
    starts.push(body);
    body += fieldSize(type);
    if (body > payload.length)
      throw new SqliteFileError(`a record's values run past its ${payload.length}-byte payload`);
    at = next;
  }
  return { types, starts };
}

function readInteger(bytes: Uint8Array, start: number, type: number): number | bigint {
  switch (type) {
    case 1:
      return (bytes[start] << 24) >> 24;
    case 2:
      return (u16(bytes, start) << 16) >> 16;
    case 3:
      return ((bytes[start] << 24) | (bytes[start + 1] << 16) | (bytes[start + 2] << 8)) >> 8;
    case 4:
      return u32(bytes, start) | 0;
    case 5:
      return ((u16(bytes, start) << 16) >> 16) * 2 ** 32 + u32(bytes, start + 2);
    case 6:
      return numberIfSafe((BigInt(u32(bytes, start) | 0) << 32n) | BigInt(u32(bytes, start + 4)));
    case 8:
      return 0;
    default:
      return 1;
  }
}

const floatScratch = new DataView(new ArrayBuffer(8));

function readFloat(bytes: Uint8Array, start: number): number {
  for (let i = 0; i < 8; i++) floatScratch.setUint8(i, bytes[start + i]);
  return floatScratch.getFloat64(0);
}

/** How text is stored: the database's encoding (header offset 56). */
export interface TextCodec {
  decode(bytes: Uint8Array): string;
  encode(text: string): Uint8Array;
}

function utf16Encoder(littleEndian: boolean): (text: string) => Uint8Array {
  return (text) => {
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      bytes[2 * i + (littleEndian ? 0 : 1)] = unit & 0xff;
      bytes[2 * i + (littleEndian ? 1 : 0)] = unit >> 8;
    }
    return bytes;
  };
}

export function textCodec(encoding: number): TextCodec {
  // ignoreBOM keeps a leading U+FEFF that is part of the value.
  if (encoding === 1) {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const encoder = new TextEncoder();
    return { decode: (bytes) => decoder.decode(bytes), encode: (text) => encoder.encode(text) };
  }
  if (encoding === 2 || encoding === 3) {
    const decoder = new TextDecoder(encoding === 2 ? 'utf-16le' : 'utf-16be', { ignoreBOM: true });
    return { decode: (bytes) => decoder.decode(bytes), encode: utf16Encoder(encoding === 2) };
  }
  throw new SqliteFileError(`text encoding ${encoding} is none of 1 (UTF-8), 2 (UTF-16le), 3 (UTF-16be)`);
}

/** The value of field `index` of a record. */
export function fieldValue(
  payload: Uint8Array,
  layout: RecordLayout,
  index: number,
  codec: TextCodec,
): SqlValue {
  const type = layout.types[index];
  const start = layout.starts[index];
  if (type === 0) return null;
  if (type === 7) return readFloat(payload, start);
  if (type < 12) return readInteger(payload, start, type);
  const bytes = payload.subarray(start, start + fieldSize(type));
  return type & 1 ? codec.decode(bytes) : bytes.slice();
}

export function decodeRecord(payload: Uint8Array, codec: TextCodec): SqlValue[] {
  const layout = recordLayout(payload);
  return layout.types.map((_, index) => fieldValue(payload, layout, index, codec));
}

/**
 * A value to look up, in the form the file orders values (BINARY collation): its storage class (NULL, then
 * numbers, then text, then blobs), its number, or its bytes (text in the database's encoding).
 */
export interface KeyProbe {
  rank: 0 | 1 | 2 | 3;
  number: number | bigint;
  bytes: Uint8Array;
}

const NO_BYTES = new Uint8Array(0);

export function keyProbe(value: SqlValue, codec: TextCodec): KeyProbe {
  // SQLite binds NaN as NULL.
  if (value === null || (typeof value === 'number' && Number.isNaN(value)))
    return { rank: 0, number: 0, bytes: NO_BYTES };
  if (typeof value === 'number' || typeof value === 'bigint')
    return { rank: 1, number: value, bytes: NO_BYTES };
  if (typeof value === 'string') return { rank: 2, number: 0, bytes: codec.encode(value) };
  return { rank: 3, number: 0, bytes: value };
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Numbers and bigints compare exactly with < and >, also with each other. */
export function compareNumbers(a: number | bigint, b: number | bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareProbes(a: KeyProbe, b: KeyProbe): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (a.rank === 1) return compareNumbers(a.number, b.number);
  return compareBytes(a.bytes, b.bytes);
}

/** How field `index` of a record orders against `probe`: negative when it comes first. */
export function compareField(
  payload: Uint8Array,
  layout: RecordLayout,
  index: number,
  probe: KeyProbe,
): number {
  const type = layout.types[index];
  const start = layout.starts[index];
  const rank = type === 0 ? 0 : type < 12 ? 1 : type & 1 ? 2 : 3;
  if (rank !== probe.rank) return rank - probe.rank;
  if (rank === 0) return 0;
  if (rank === 1)
    return compareNumbers(
      type === 7 ? readFloat(payload, start) : readInteger(payload, start, type),
      probe.number,
    );
  return compareBytes(payload.subarray(start, start + fieldSize(type)), probe.bytes);
}
