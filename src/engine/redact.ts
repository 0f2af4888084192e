/**
 * Secret redaction for everything Context Deck stores from an agent: hook payloads (the recorder) and,
 * later, imported transcripts. Pure functions over strings and JSON values; no I/O.
 *
 * A secret inside a string becomes `[REDACTED:<kind>]`; `<private>...</private>` spans become
 * `[REDACTED:private]`. Where it keeps the record useful, the context around a secret is kept: the user and
 * host of a connection string, the name of an assigned variable, the scheme of an Authorization header.
 *
 * Every pattern is anchored on a literal prefix or a word boundary so that scanning stays linear in the
 * length of the text (payloads carry tool outputs of many kilobytes).
 */

export type RedactionKind =
  | 'private'
  | 'private-key'
  | 'connection-string'
  | 'anthropic-key'
  | 'openai-key'
  | 'github-token'
  | 'gitlab-token'
  | 'npm-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'stripe-key'
  | 'google-api-key'
  | 'aws-access-key-id'
  | 'aws-secret-key'
  | 'jwt'
  | 'auth-header'
  | 'bearer-token'
  | 'basic-auth'
  | 'password'
  | 'token'
  | 'api-key'
  | 'secret';

export function marker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** Values that stand for a secret without being one: variables, templates, masks, earlier redactions. */
const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\{\{[^}]*\}\}|\{\{[^}]*\}\}|<[^>]*>|\*+|x{3,}|\.{3}|…|\[REDACTED:[a-z-]+\]|%s|\?)$/i;

/** Words that follow `password:` in code and schemas (type annotations, flags) rather than a secret. */
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
]);

function isPlaceholder(value: string): boolean {
  return value === '' || PLACEHOLDER.test(value) || NOT_A_VALUE.has(value.toLowerCase());
}

const hasDigit = (s: string) => /[0-9]/.test(s);
const hasUpper = (s: string) => /[A-Z]/.test(s);
const hasLower = (s: string) => /[a-z]/.test(s);
/** Random key material of 20+ characters practically always mixes all three classes; words and slugs don't. */
const looksRandom = (s: string) => hasDigit(s) && hasUpper(s) && hasLower(s);

/** The kind of secret a key or variable name announces, or undefined when it announces none. */
const SECRET_NAME =
  /(password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth[_-]?key|authorization|cookie|credentials?)$/i;

function kindOfName(keyword: string): RedactionKind {
  const k = keyword.toLowerCase();
  if (k.startsWith('pass')) return 'password';
  if (k === 'token' || k === 'authorization' || k === 'cookie') return 'token';
  if (/^api[_-]?key$/.test(k)) return 'api-key';
  return 'secret';
}

/**
 * When an object key's name says its value is a secret (`password`, `apiKey`, `GITHUB_TOKEN`,
 * `client_secret`, `Authorization`, ...), the kind to redact its string value as.
 * Names that merely contain such a word (`max_tokens`, `tokenizer`, `password_hint`) are not secrets.
 */
export function secretKeyKind(key: string): RedactionKind | undefined {
  if (key.length > 100) return undefined;
  const match = SECRET_NAME.exec(key);
  return match ? kindOfName(match[1]) : undefined;
}

type Replacer = (match: string, ...groups: string[]) => string;

interface Rule {
  /** Stable name used in tests and docs. */
  name: string;
  /** The pattern can only match text containing one of these; most strings contain none (cheap check). */
  triggers: string[];
  /** Triggers are lower case and looked for in the lower-cased text. */
  caseless?: boolean;
  pattern: RegExp;
  /** Returns the replacement, or the match itself to leave it alone. */
  replace: (kind: RedactionKind) => Replacer;
  kind: RedactionKind;
}

const whole: Rule['replace'] = (kind) => () => marker(kind);
/** Keep group 1 (the context before the secret), redact the rest of the match. */
const afterPrefix: Rule['replace'] = (kind) => (_m, prefix) => prefix + marker(kind);
/** Redact when the secret part (group 1) looks random enough. */
const wholeIfRandom: Rule['replace'] = (kind) => (m, body) => (looksRandom(body) ? marker(kind) : m);

/** Assignment names: a name ending in a secret word, not followed by more name characters. */
const NAME_KEYWORD =
  'password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key';

/** A header that names its scheme but whose credentials are a variable (`Bearer $TOKEN`). */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|digest|apikey|negotiate)$/i;

const RULES: Rule[] = [
  {
    name: 'private span',
    triggers: ['<private>'],
    caseless: true,
    kind: 'private',
    // An unclosed span hides everything after it: better too much than a leak.
    pattern: /<private>[\s\S]*?(?:<\/private>|$)/gi,
    replace: whole,
  },
  {
    name: 'PEM private key',
    triggers: ['PRIVATE KEY'],
    kind: 'private-key',
    pattern: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g,
    replace: whole,
  },
  {
    name: 'connection string credentials',
    triggers: ['://'],
    kind: 'connection-string',
    // scheme://user:password@host - the password goes, user and host stay.
    pattern:
      /\b((?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|https?|ftps?|sftp|smtps?):\/\/[^\s:/?#@'"`]*:)([^\s/?#'"`]+)@(?=[A-Za-z0-9[])/gi,
    replace: (kind) => (m, prefix, password) => (isPlaceholder(password) ? m : `${prefix}${marker(kind)}@`),
  },
  {
    name: 'Anthropic key',
    triggers: ['sk-ant-'],
    kind: 'anthropic-key',
    pattern: /(?<![A-Za-z0-9_-])sk-ant-([A-Za-z0-9_-]{20,})/g,
    replace: wholeIfRandom,
  },
  {
    name: 'OpenAI key',
    triggers: ['sk-'],
    kind: 'openai-key',
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{20,})/g,
    replace: wholeIfRandom,
  },
  {
    name: 'GitHub token',
    triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    kind: 'github-token',
    pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})(?![A-Za-z0-9_])/g,
    replace: whole,
  },
  {
    name: 'GitLab token',
    triggers: ['glpat-'],
    kind: 'gitlab-token',
    pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20,}/g,
    replace: whole,
  },
  {
    name: 'npm token',
    triggers: ['npm_'],
    kind: 'npm-token',
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
    replace: whole,
  },
  {
    name: 'Slack token',
    triggers: ['xox', 'xapp-'],
    kind: 'slack-token',
    pattern: /(?<![A-Za-z0-9_-])(?:xox[abposre]-[0-9][A-Za-z0-9-]{8,}|xapp-[0-9]+-[A-Za-z0-9-]{10,})/g,
    replace: whole,
  },
  {
    name: 'Slack webhook',
    triggers: ['hooks.slack.com'],
    kind: 'slack-webhook',
    pattern: /(https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,}/g,
    replace: afterPrefix,
  },
  {
    name: 'Stripe key',
    triggers: ['_live_', '_test_', 'whsec_'],
    kind: 'stripe-key',
    pattern: /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})/g,
    replace: whole,
  },
  {
    name: 'Google API key',
    triggers: ['AIza'],
    kind: 'google-api-key',
    pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    replace: whole,
  },
  {
    name: 'AWS access key id',
    triggers: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    kind: 'aws-access-key-id',
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])/g,
    replace: whole,
  },
  {
    name: 'AWS secret key',
    triggers: ['secret'],
    caseless: true,
    kind: 'aws-secret-key',
    // 40 base64 characters right after a secret-key name (assignment, YAML, JSON, `aws configure set`).
    pattern:
      /((?:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)\\?["']?(?:[^\S\r\n]*[:=][^\S\r\n]*|[^\S\r\n]+)\\?["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    replace: afterPrefix,
  },
  {
    name: 'JWT',
    triggers: ['eyJ'],
    kind: 'jwt',
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g,
    replace: whole,
  },
  {
    name: 'Authorization header',
    triggers: ['authorization'],
    caseless: true,
    kind: 'auth-header',
    pattern:
      /\b((?:proxy-)?authorization\\?["']?[^\S\r\n]*[:=][^\S\r\n]*\\?["']?(?:(?:bearer|basic|token|bot|digest|apikey|negotiate)[^\S\r\n]+)?)([A-Za-z0-9._~+/=:-]{6,})/gi,
    replace: (kind) => (m, prefix, value) =>
      isPlaceholder(value) || AUTH_SCHEME.test(value) ? m : prefix + marker(kind),
  },
  {
    name: 'Bearer token',
    triggers: ['bearer'],
    caseless: true,
    kind: 'bearer-token',
    pattern: /\b(bearer[^\S\r\n]+)([A-Za-z0-9._~+/-]{8,}=*)/gi,
    // Prose ("bearer authentication") has no digits and is short.
    replace: (kind) => (m, prefix, token) =>
      hasDigit(token) || token.length >= 24 ? prefix + marker(kind) : m,
  },
  {
    name: 'Basic credentials',
    triggers: ['basic'],
    caseless: true,
    kind: 'basic-auth',
    pattern: /\b(basic[^\S\r\n]+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi,
    // Real Basic credentials are base64 of "user:password".
    replace: (kind) => (m, prefix, value) => (isBasicCredential(value) ? prefix + marker(kind) : m),
  },
  {
    name: 'curl user',
    triggers: ['curl'],
    kind: 'basic-auth',
    pattern: /(\bcurl\b[^\n]{0,500}?[^\S\r\n](?:-u|--user)(?:=|[^\S\r\n]+)["']?[^\s:"']+:)([^\s"']+)/g,
    replace: (kind) => (m, prefix, password) => (isPlaceholder(password) ? m : prefix + marker(kind)),
  },
  {
    name: 'secret command-line flag',
    triggers: ['--'],
    kind: 'secret',
    pattern:
      /(--(password|passwd|pass|token|secret|api-key|apikey|access-key|secret-key|auth-token|client-secret)(?:=|[^\S\r\n]+))(["']?)([^\s"']+)\3/gi,
    replace: () => (m, prefix, name, quote, value) =>
      isPlaceholder(value) || value.startsWith('-')
        ? m
        : `${prefix}${quote}${marker(kindOfName(name))}${quote}`,
  },
  {
    name: 'secret assignment',
    triggers: ['pass', 'secret', 'token', 'key'],
    caseless: true,
    kind: 'secret',
    // NAME = value, NAME: value, "NAME": "value", NAME := value; the name must end in a secret word.
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_.-])((?:\\?["'])?[A-Za-z0-9_.-]*?(${NAME_KEYWORD})(?:\\?["'])?[^\S\r\n]*(?::=|=|:)[^\S\r\n]*)` +
        String.raw`(?:\\"((?:[^"\\\r\n]|\\(?!"))*)\\"|"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s"'\x60&,;<>(){}\[\]]+))`,
      'gi',
    ),
    replace: () => (m, prefix, keyword, escaped, double, single, bare, offset, input) => {
      const kind = kindOfName(keyword);
      if (escaped !== undefined) return isPlaceholder(escaped) ? m : `${prefix}\\"${marker(kind)}\\"`;
      if (double !== undefined) return isPlaceholder(double) ? m : `${prefix}"${marker(kind)}"`;
      if (single !== undefined) return isPlaceholder(single) ? m : `${prefix}'${marker(kind)}'`;
      if (isPlaceholder(bare) || isCodeReference(bare, input, Number(offset) + m.length)) return m;
      return prefix + marker(kind);
    },
  },
];

function isBasicCredential(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const decoded = Buffer.from(value, 'base64').toString('latin1');
  return /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(decoded);
}

/** `token = getToken()`, `secret: config.secret`, `password=$PASS`, `token=${T}`: code, not a secret. */
function isCodeReference(value: string, input: string, end: number): boolean {
  if (input[end] === '(' || value.startsWith('$')) return true;
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value);
}

/** The rules, for documentation and tests. */
export const REDACTION_RULES: ReadonlyArray<{ name: string; kind: RedactionKind }> = RULES.map(
  ({ name, kind }) => ({
    name,
    kind,
  }),
);

export interface TextRedaction {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** Replace every secret in `text`. */
export function redactText(text: string): TextRedaction {
  let count = 0;
  let out = text;
  let lower: string | undefined;
  for (const rule of RULES) {
    // Patterns are compiled on first use: skipping them when no trigger is present keeps start-up cheap.
    const haystack = rule.caseless ? (lower ??= out.toLowerCase()) : out;
    if (!rule.triggers.some((t) => haystack.includes(t))) continue;
    rule.pattern.lastIndex = 0;
    if (!rule.pattern.test(out)) continue;
    const replacer = rule.replace(rule.kind);
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      const match = args[0] as string;
      const replaced = (replacer as (...all: unknown[]) => string)(...args);
      if (replaced !== match) {
        count++;
        lower = undefined;
      }
      return replaced;
    });
  }
  return { text: out, count };
}

/** Appended to a string that was cut short. */
export function cutMarker(originalBytes: number): string {
  return `…[truncated: ${originalBytes} bytes in all]`;
}

/** `text` cut to at most `max` UTF-16 units without splitting a surrogate pair. */
export function sliceSafe(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/** Redaction looks this far past a cut so that a secret straddling the cut is still recognised whole. */
const CUT_LOOKAHEAD = 8 * 1024;

/**
 * Redact a string and cut it to `max` characters (a marker noting its original UTF-8 size is appended).
 * Only the kept part plus a margin is scanned, so a huge string costs no more than a long one.
 */
export function redactAndCut(
  text: string,
  max: number,
): { text: string; count: number; cut?: { bytes: number; kept: number } } {
  if (text.length <= max) return redactText(text);
  const window = redactText(sliceSafe(text, max + CUT_LOOKAHEAD));
  const kept = sliceSafe(window.text, max);
  const bytes = Buffer.byteLength(text, 'utf8');
  return { text: kept + cutMarker(bytes), count: window.count, cut: { bytes, kept: kept.length } };
}

export interface CutNote {
  /** Where in the value: `tool_response.content[0].text`; empty for the value itself. */
  path: string;
  /** UTF-8 size of the original (for a container, of its JSON text). */
  bytes: number;
  /** Characters kept. */
  kept: number;
  /**
   * `length`: a long string; `nesting`: a container nested too deep, kept as JSON text; `line`: cut by the
   * caller to fit a budget for the whole record.
   */
  reason: 'length' | 'nesting' | 'line';
}

export interface RedactValueOptions {
  /** Strings longer than this many characters are cut (default: never). */
  maxStringLength?: number;
  /** Containers deeper than this are replaced by their (redacted, cut) JSON text. Default 64. */
  maxDepth?: number;
}

export interface ValueRedaction<T = unknown> {
  value: T;
  count: number;
  cuts: CutNote[];
}

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string | number;
  /** Where the processed value goes. */
  target: Record<string, unknown> | unknown[] | undefined;
  /** Redact this string value whole, because its key names a secret. */
  secretKind?: RedactionKind;
}

/** `base` extended by an object key or array index: `tool_response.content[0]["odd key"]`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

function pathOf(frame: Frame): string {
  const parts: Array<string | number> = [];
  for (let f: Frame | undefined = frame; f && f.parent; f = f.parent) parts.push(f.key);
  let out = '';
  for (let i = parts.length - 1; i >= 0; i--) out = joinPath(out, parts[i]);
  return out;
}

function assign(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, unknown>)[key] = value;
}

class Raw {
  constructor(readonly text: string) {}
}

/** JSON.stringify without recursion, so that any nesting depth is safe (parsed JSON has no toJSON). */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Raw) {
      out.push(item.text);
    } else if (Array.isArray(item)) {
      stack.push(new Raw(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        const v = item[i];
        stack.push(v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v);
        if (i > 0) stack.push(new Raw(','));
      }
      stack.push(new Raw('['));
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item).filter(
        ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
      );
      stack.push(new Raw('}'));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i][1]);
        stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(entries[i][0])}:`));
      }
      stack.push(new Raw('{'));
    } else {
      out.push(JSON.stringify(item) ?? 'null');
    }
  }
  return out.join('');
}

/**
 * A redacted copy of a JSON value: secrets in every string are replaced, string values of keys that name a
 * secret (`password`, `api_key`, `accessToken`, ...) are replaced whole, long strings are cut and deep
 * nesting is flattened to text. Iterative, so any depth is safe. Object keys themselves are kept as they are.
 */
export function redactValue<T = unknown>(value: T, options: RedactValueOptions = {}): ValueRedaction<T> {
  const maxString = options.maxStringLength ?? Infinity;
  const maxDepth = options.maxDepth ?? 64;
  const cuts: CutNote[] = [];
  let count = 0;
  const root: { value?: unknown } = {};
  const stack: Frame[] = [
    { value, depth: 0, parent: undefined, key: 'value', target: root as Record<string, unknown> },
  ];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    let node = frame.value;
    const target = frame.target!;
    if (node !== null && typeof node === 'object' && frame.depth >= maxDepth) {
      const json = jsonText(node);
      const bytes = Buffer.byteLength(json, 'utf8');
      node = json;
      const limit = Math.min(maxString, json.length);
      cuts.push({ path: pathOf(frame), bytes, kept: limit, reason: 'nesting' });
    }
    if (typeof node === 'string') {
      if (frame.secretKind && !isPlaceholder(node)) {
        count++;
        assign(target, frame.key, marker(frame.secretKind));
        continue;
      }
      const result = redactAndCut(node, maxString);
      count += result.count;
      if (result.cut) {
        const path = pathOf(frame);
        const earlier = cuts.find((c) => c.path === path);
        if (earlier) earlier.kept = result.cut.kept;
        else cuts.push({ path, bytes: result.cut.bytes, kept: result.cut.kept, reason: 'length' });
      }
      assign(target, frame.key, result.text);
    } else if (Array.isArray(node)) {
      const out: unknown[] = new Array(node.length);
      assign(target, frame.key, out);
      for (let i = node.length - 1; i >= 0; i--) {
        stack.push({ value: node[i], depth: frame.depth + 1, parent: frame, key: i, target: out });
      }
    } else if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      assign(target, frame.key, out);
      const keys = Object.keys(node);
      // Placeholders first keep the original key order; values are filled in as the stack unwinds.
      for (const key of keys) assign(out, key, undefined);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        stack.push({
          value: (node as Record<string, unknown>)[key],
          depth: frame.depth + 1,
          parent: frame,
          key,
          target: out,
          secretKind: secretKeyKind(key),
        });
      }
    } else {
      assign(target, frame.key, node);
    }
  }
  return { value: root.value as T, count, cuts };
}
