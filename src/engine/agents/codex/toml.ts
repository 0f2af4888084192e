/** Reading Codex's `config.toml` with smol-toml. */
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };

// smol-toml ships its CommonJS build under `require` but one set of (ESM) types: take the types from there.
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { parse: parseToml } = require('smol-toml') as typeof SmolToml;

export type Table = Record<string, unknown>;

/** A TOML table: an object, not a list or a date (smol-toml gives dates as `Date`). */
export function isTable(value: unknown): value is Table {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}
