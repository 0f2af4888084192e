/** A small, strict argument parser: unknown flags are usage errors, not silently ignored. */

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  flags: Map<string, string | true>;
}

export interface FlagSpec {
  /** Flags that take a value (`--home DIR`); the others are booleans. */
  withValue: readonly string[];
  boolean: readonly string[];
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    if (spec.withValue.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else if (spec.boolean.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positionals, flags };
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  return typeof value === 'string' ? value : undefined;
}

/** The whole numbers a numeric option accepts, both ends included. */
export interface IntegerRange {
  min: number;
  max: number;
}

/** How many things to show, unless the option says otherwise: far more than any list here holds. */
const COUNT: IntegerRange = { min: 1, max: 1_000_000 };

/**
 * A numeric option: decimal digits within `range`. Fractions, exponents, Infinity and out-of-range values
 * are bad usage, never passed on to fail later (or silently do nothing, as 0.5 bytes per chunk did).
 */
export function numberFlag(args: ParsedArgs, name: string, range = COUNT): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= range.min && number <= range.max))
    throw new UsageError(`--${name} needs a whole number from ${range.min} to ${range.max}, not "${value}"`);
  return number;
}
