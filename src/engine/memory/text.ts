/** Small text helpers shared by the summariser, search and formatting. */
import { createHash } from 'node:crypto';
import { visibleLine } from '../../shared/visibleText';
import { redactText, sliceSafe } from '../redact';

/** One visible line: control characters, bidi overrides and runs of whitespace become single spaces. */
export const oneLine = visibleLine;

/** `text` cut to at most `max` characters, ending with `…` when cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${sliceSafe(text, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Redacted (looking a little past the cut, so a secret straddling it is still caught), one line, cut. */
export function cleanPiece(raw: string, max: number): string {
  return clip(oneLine(redactText(sliceSafe(raw, max + 1024)).text), max);
}

/** Lower-case words as the FTS unicode61 tokenizer sees them (letters and digits, diacritics folded). */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u007f]/.test(lower)) return lower.match(/[a-z0-9]+/g) ?? [];
  return foldDiacritics(lower).match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function foldDiacritics(text: string): string {
  // Only strings with non-ASCII letters pay for normalisation.
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(text) ? text.normalize('NFD').replace(/\p{Mn}+/gu, '') : text;
}

/**
 * SHA-256 (hex) of a file's content: what a whole-file write wrote, and what the file holds when it is
 * checked again (context/citations.ts). One function, so the two always compare alike.
 */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `YYYY-MM-DD HH:MMZ`: short, unambiguous, UTC. */
export function shortDate(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}
