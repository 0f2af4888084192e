/**
 * Observation ids: 16 characters of Crockford base32 (80 bits, no i/l/o/u to misread), shown as their first
 * 8. Derived observations hash their content so a rebuild from the event log gives them the same ids that
 * forget events refer to; explicit saves get a random id chosen when the save is written.
 */
import { randomBytes } from 'node:crypto';
import type { Store } from '../storage/store';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const ID_LENGTH = 16;
const SHORT_ID_LENGTH = 8;
const ID_PATTERN = /^[0-9a-hjkmnp-tv-z]{16}$/;

export function isObservationId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_LENGTH);
}

/** 5 bits per character from the high bits of each 32-bit word in turn. */
function encode(words: readonly number[]): string {
  let out = '';
  for (let i = 0; out.length < ID_LENGTH; i++) {
    const word = words[i % words.length] >>> 0;
    const shift = 27 - 5 * Math.floor(i / words.length);
    out += ALPHABET[(word >>> Math.max(0, shift)) & 31];
  }
  return out;
}

/** cyrb53-style mixing, twice with different seeds: fast, well spread, plenty for 80 bits of id. */
function hashWords(text: string): number[] {
  const words: number[] = [];
  for (const seed of [0x9e3779b9, 0x85ebca6b]) {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    words.push(h1 >>> 0, h2 >>> 0);
  }
  return words;
}

export function derivedId(key: string): string {
  return encode(hashWords(key));
}

export function randomId(): string {
  const bytes = randomBytes(16);
  return encode([0, 4, 8, 12].map((offset) => bytes.readUInt32BE(offset)));
}

export type IdResolution = { ok: true; id: string } | { ok: false; error: string };

export interface ResolveOptions {
  /** Forgotten observations are invisible, except to the undo of a forget. */
  includeForgotten?: boolean;
}

/** The observation a unique id prefix names (case-insensitive), or why it names none. */
export function resolveId(db: Store, prefix: string, options: ResolveOptions = {}): IdResolution {
  const wanted = prefix.trim().toLowerCase();
  if (!/^[0-9a-z]{1,16}$/.test(wanted)) return { ok: false, error: `"${prefix}" is not an observation id` };
  // A range on the unique index: every id starting with the prefix sorts between it and prefix + '~'.
  const rows = db.all(
    `SELECT id FROM observations WHERE id >= ? AND id < ?${options.includeForgotten ? '' : ' AND forgotten_at IS NULL'}
     ORDER BY id LIMIT 4`,
    [wanted, `${wanted}~`],
  );
  if (rows.length === 1) return { ok: true, id: String(rows[0].id) };
  if (rows.length === 0) return { ok: false, error: `no observation has id ${wanted}` };
  const shown = rows.slice(0, 3).map((row) => String(row.id));
  return {
    ok: false,
    error: `id ${wanted} is ambiguous: it starts ${shown.join(', ')}${rows.length > 3 ? ' and more' : ''}; give more characters`,
  };
}
