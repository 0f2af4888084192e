/**
 * Redaction of one string. One scan of the lower-cased text for every rule's trigger literals decides which
 * rules can match at all; only those run, in table order. Most strings trigger few rules, so the cost is
 * about one pass over the text whatever the size of the table.
 */
import type { Rule } from './ruleShape';
import { RULES as TABLE } from './ruleTable';
import { marker } from './valueChecks';

/** A plain array, read in the hot loop (a module's export may be a getter where modules are not bundled). */
const RULES: readonly Rule[] = [...TABLE];

/** Rules that no literal announces (line-shaped): they run on every text. */
const ALWAYS: readonly number[] = RULES.flatMap((rule, index) => (rule.triggers === 'any' ? [index] : []));

/** Trigger literal (lower case) -> the rules it announces. */
const ANNOUNCED = new Map<string, number[]>();
/** Those announced by a single character: a plain search finds it faster than the scan would. */
const BY_CHARACTER = new Map<string, number[]>();
RULES.forEach((rule, index) => {
  if (rule.triggers === 'any') return;
  for (const trigger of rule.triggers) {
    const literal = trigger.toLowerCase();
    const rules = ANNOUNCED.get(literal);
    if (rules) rules.push(index);
    else ANNOUNCED.set(literal, [index]);
    if (literal.length === 1) BY_CHARACTER.set(literal, ANNOUNCED.get(literal)!);
  }
});

/** Trigger literals longer than a character, longest first. */
const LITERALS = [...ANNOUNCED.keys()]
  .filter((literal) => literal.length > 1)
  .sort((a, b) => b.length - a.length);

/**
 * Finds trigger literals in lower-cased text, the longest where one extends another. A plain alternation:
 * a trie-shaped one scans a little faster but takes milliseconds to build. Compiling even this one takes
 * about 2 ms, which the recorder (a new process at every hook call) would pay for a few short strings: it is
 * built on first need, and short texts are searched literal by literal until enough text has been seen to
 * make the scan worth it.
 */
let scan: RegExp | undefined;
function literalScan(): RegExp {
  scan ??= new RegExp(
    LITERALS.map((literal) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'),
    'g',
  );
  return scan;
}

/** Texts up to this length may be searched literal by literal... */
const SHORT_TEXT = 1024;
/** ...until this many characters have been searched that way; then the scan is compiled. */
const LITERAL_SEARCH_BUDGET = 256 * 1024;
let searchedLiterally = 0;

/**
 * Literal the scan found -> the rules it enables: its own and those of every shorter literal inside it (the
 * scan reports only the longest at a position). Worked out for the literals texts actually hold.
 */
const ENABLED_BY = new Map<string, readonly number[]>();
function enabledBy(literal: string): readonly number[] {
  let rules = ENABLED_BY.get(literal);
  if (!rules) {
    const found = new Set<number>();
    for (let start = 0; start < literal.length; start++) {
      for (let end = start + 1; end <= literal.length; end++) {
        for (const index of ANNOUNCED.get(literal.slice(start, end)) ?? []) found.add(index);
      }
    }
    rules = [...found];
    ENABLED_BY.set(literal, rules);
  }
  return rules;
}

/** Rules announced by the literals in lower-cased text, searched one literal at a time. */
function rulesByLiteralSearch(lower: string): Set<number> {
  const found = new Set<number>();
  for (const literal of LITERALS)
    if (lower.includes(literal)) for (const index of ANNOUNCED.get(literal)!) found.add(index);
  return found;
}

/** The same rules, found by one scan (a literal inside a longer one it finds is enabled with it). */
function rulesByScan(lower: string): Set<number> {
  const found = new Set<number>();
  const scan = literalScan();
  scan.lastIndex = 0;
  for (let match = scan.exec(lower); match; match = scan.exec(lower)) {
    for (const index of enabledBy(match[0])) found.add(index);
    // Literals may overlap ("sk-" inside "task-"): look again from the next character.
    scan.lastIndex = match.index + 1;
  }
  return found;
}

/**
 * Which rules can match somewhere in `text`, in table order. `search` forces one way to find the literals
 * (for tests); by default short texts are searched literal by literal while the budget lasts.
 */
export function enabledRules(text: string, search?: 'literals' | 'scan'): readonly number[] {
  const enabled = new Set<number>();
  for (const [character, rules] of BY_CHARACTER)
    if (text.includes(character)) for (const index of rules) enabled.add(index);
  // Lower-casing keeps every ASCII literal where it was; it may add a letter (the Kelvin sign), never lose one.
  const lower = text.toLowerCase();
  let literal: Set<number>;
  const byLiterals =
    search === undefined
      ? lower.length <= SHORT_TEXT && searchedLiterally + lower.length <= LITERAL_SEARCH_BUDGET
      : search === 'literals';
  if (byLiterals) {
    searchedLiterally += lower.length;
    literal = rulesByLiteralSearch(lower);
  } else {
    literal = rulesByScan(lower);
  }
  if (enabled.size === 0 && literal.size === 0) return ALWAYS;
  for (const index of ALWAYS) enabled.add(index);
  for (const index of literal) enabled.add(index);
  return [...enabled].sort((a, b) => a - b);
}

const newlines = (text: string) => text.split('\n').length - 1;

/** `keepLines`: a secret spanning lines leaves a marker on each of them, so that lines stay in place. */
function apply(rule: Rule, text: string, counted: { count: number }, keepLines: boolean): string {
  rule.pattern.lastIndex = 0;
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    // Arguments: match, groups..., offset, input (no named groups are used).
    const input = args[args.length - 1] as string;
    const offset = args[args.length - 2] as number;
    const groups = args.slice(1, -2) as Array<string | undefined>;
    const replaced = rule.replace(match, groups, input, offset);
    if (replaced === match) return match;
    counted.count++;
    const lost = keepLines ? newlines(match) - newlines(replaced) : 0;
    return lost > 0 ? replaced + `\n${marker(rule.kind)}`.repeat(lost) : replaced;
  });
}

function redact(text: string, keepLines: boolean): TextRedaction {
  const counted = { count: 0 };
  let out = text;
  for (const index of enabledRules(text)) {
    const rule = RULES[index];
    if (text.length >= (rule.minLength ?? 0)) out = apply(rule, out, counted, keepLines);
  }
  return { text: out, count: counted.count };
}

export interface TextRedaction {
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** Replace every secret in `text`. Redacting a redacted text changes nothing. */
export function redactText(text: string): TextRedaction {
  return redact(text, false);
}

/**
 * Redact lines that belong together (an Edit's `structuredPatch`, one line per array element) as one text,
 * so that a secret spanning lines (a private key, a Kubernetes Secret's data) is found whole. Each line
 * stays in its place; the lines a secret spanned become markers.
 */
export function redactLines(lines: readonly string[]): { lines: string[]; count: number } {
  const { text, count } = redact(lines.join('\n'), true);
  return { lines: text.split('\n'), count };
}

const ESCAPED: Record<string, string> = { n: '\n', r: '\r', t: '\t' };

/**
 * What JSON source text says once its string escapes are read (`\n` a line break, `\"` a quote): for text
 * that may be JSON but could not be parsed (a rejected log line, a payload cut short), so that line-shaped
 * secrets (a `.pgpass` line, a Secret's `data:`, a netrc entry) are found as in the parsed value.
 */
export function unescapeJson(text: string): string {
  return text.includes('\\') ? text.replace(/\\(["\\/nrt])/g, (_, c: string) => ESCAPED[c] ?? c) : text;
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
