/**
 * Reading values out of what agents write as JSON (hook payloads, session files, settings): every field is
 * optional and may hold any type, so each read says what it accepts and gives undefined or empty otherwise.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `value` as an object, or an empty one. */
export function jsonRecord(value: unknown): Json {
  return isObject(value) ? value : {};
}

/** `value` when it is a string. */
export function jsonText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` when it is a string with something in it: an empty name or id is no name or id. */
export function jsonNonEmptyText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `value` when it is a finite number. */
export function jsonNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The object a JSON text holds; undefined for a text that is no JSON, or holds no object. */
export function parseJsonObject(text: unknown): Json | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
