/** Judging a candidate value: a secret, or something that only stands where a secret would. */

/** What a secret becomes. Kinds are lower-case words joined by hyphens (see ruleTable.ts). */
export function marker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/**
 * Values that stand for a secret without being one: variables, templates, masks, earlier redactions, the
 * examples of `.env.example` files (`your-api-key-here`, `changeme`).
 */
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\{\{[^}]*\}\}|\{\{[^}]*\}\}|<[^>]*>|%[A-Za-z_][A-Za-z0-9_]*%|\*+|x{3,}|\.{3}|…|\[REDACTED:[a-z0-9-]+\]|%s|\?|your[-_][\w-]*|change[-_]?me|placeholder|example|dummy)$/i;

/** Words that follow `password:` in code, schemas and prose (types, flags, states) rather than a secret. */
const NOT_A_VALUE = new Set([
  'string',
  'str',
  'number',
  'int',
  'integer',
  'bool',
  'boolean',
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'any',
  'unknown',
  'object',
  'optional',
  'required',
  'empty',
  'redacted',
  'hidden',
  'masked',
  'secret',
  'password',
  'token',
  // GitHub Actions permissions: `id-token: write`.
  'read',
  'write',
]);

export function isPlaceholder(value: string): boolean {
  return value === '' || PLACEHOLDER.test(value) || NOT_A_VALUE.has(value.toLowerCase());
}

const hasDigit = (s: string) => /[0-9]/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
const hasLower = (s: string) => /[a-z]/.test(s);

/** Digits mixed with upper- and lower-case letters: what 20+ random characters have in practice. */
export const mixesCaseAndDigits = (s: string) => hasDigit(s) && hasUpper(s) && hasLower(s);

/**
 * Random key material: mixed case and digits, or a long hex string with digits and letters. Words, slugs
 * and version strings are neither. (A git SHA is hex: rules that a SHA could pass for use the first test.)
 */
export function looksRandom(s: string): boolean {
  if (mixesCaseAndDigits(s)) return true;
  return s.length >= 32 && /^[0-9a-f]+$/i.test(s) && hasDigit(s) && /[a-f]/i.test(s);
}

/**
 * A password written by a person rather than a word of prose: it has a digit or a symbol, or mixes case
 * beyond a capital first letter. "required", "stored", "Invalid" are prose; "hunter2", "Tr0ub4dor&3" are not.
 */
export function looksLikePassword(s: string): boolean {
  if (s.length < 4 || isPlaceholder(s)) return false;
  if (/[^A-Za-z]/.test(s)) return true;
  return hasUpper(s.slice(1)) && hasLower(s);
}

/** Base64 of `user:password`, what Basic credentials and Docker's `auth` hold. */
export function isBasicCredential(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}

/** Words after `=` that begin an expression: `apiKey = await load()`, `token = new Token()`. */
const CODE_WORDS = new Set([
  'await',
  'new',
  'yield',
  'typeof',
  'function',
  'async',
  'require',
  'import',
  'lambda',
]);

/**
 * `token = getToken()`, `secret: config.secret`, `password=$PASS`, `apiKey: apiKey`, `password: Password;`:
 * code that names a secret without holding one. `end` is where the value ends in `input`.
 */
export function isCodeReference(
  value: string,
  name: string,
  separator: string,
  input: string,
  end: number,
): boolean {
  if (input[end] === '(' || value.startsWith('$') || CODE_WORDS.has(value)) return true;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  if (value.toLowerCase() === name.toLowerCase()) return true;
  // A type annotation: `password: Password`, `token: AccessToken;`.
  return separator === ':' && /^[A-Z][a-z]+(?:[A-Z][a-z]+)*$/.test(value);
}
