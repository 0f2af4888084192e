/** The shape of a redaction rule and the few ways a match is replaced. */
import { isPlaceholder, marker } from './valueChecks';

export interface Rule {
  /** Unique and stable: tests and docs name rules by it. */
  id: string;
  /** What the marker says: `[REDACTED:<kind>]`. */
  kind: string;
  /**
   * Literals, matched without regard to case, one of which every text the pattern matches contains: a text
   * with none of them skips the rule. `any` for the few line-shaped rules no literal announces.
   */
  triggers: readonly string[] | 'any';
  /** Texts shorter than this cannot match (a cheap skip for a rule that runs on every text). */
  minLength?: number;
  /** Global; anchored on a literal, a boundary or a line start, so that scanning stays linear. */
  pattern: RegExp;
  /** The replacement, or `match` itself to leave it alone. `groups` are the pattern's capture groups. */
  replace: (match: string, groups: Array<string | undefined>, input: string, offset: number) => string;
}

export type Replace = (kind: string) => Rule['replace'];

/** The whole match is the secret. */
export const whole: Replace = (kind) => () => marker(kind);

/** A token without its leading words (`sk-`, `proj-`, `secret_`): what must look random. */
function tokenBody(match: string): string {
  return match.replace(/^(?:[A-Za-z]{1,10}[-_.])+/, '');
}

/** Group 1 is context to keep (a name, a header, a URL), group 2 the secret unless it is a placeholder. */
export const afterPrefix: Replace =
  (kind) =>
  (match, [prefix, value]) =>
    value === undefined || isPlaceholder(value) ? match : prefix + marker(kind);

/** `prefix` and the marker, with the quotes of a quoted `value` kept; `match` when the value is a placeholder. */
export function replaceQuoted(match: string, prefix: string, value: string, kind: string): string {
  const quote = value.length > 1 && /^["']/.test(value) && value.endsWith(value[0]) ? value[0] : '';
  const inner = quote ? value.slice(1, -1) : value;
  return isPlaceholder(inner) ? match : `${prefix}${quote}${marker(kind)}${quote}`;
}

/**
 * Before a token: not inside a longer word, though right after an escape (`\n` in JSON text) is fine. One
 * lookbehind, not an alternation of two: V8 then still finds the literal prefix by fast search.
 */
const TOKEN_START = String.raw`(?<!(?<!\\)[A-Za-z0-9_-])`;
/** After a token: no more token characters. */
const TOKEN_END = String.raw`(?![A-Za-z0-9_-])`;

/**
 * A token recognised by its prefix (`hf_`, `dop_v1_`, `SG.`...). `body` is the regex source of the whole
 * token; `triggers` the literal prefixes. With `check`, the token without its leading words must also pass
 * it (prefixes that words and slugs can share); it is also given the text and where the token starts in it.
 */
export function token(
  id: string,
  kind: string,
  triggers: readonly string[],
  body: string,
  check?: (body: string, input: string, offset: number) => boolean,
): Rule {
  let pattern: RegExp | undefined;
  return {
    id,
    kind,
    triggers,
    // Built on first use: a text triggers few token rules, and the recorder starts afresh at every hook.
    get pattern() {
      return (pattern ??= new RegExp(`${TOKEN_START}(?:${body})${TOKEN_END}`, 'g'));
    },
    replace: check
      ? (match, _groups, input, offset) => (check(tokenBody(match), input, offset) ? marker(kind) : match)
      : () => marker(kind),
  };
}
