/** The flags of the memory commands (search, timeline, save), checked against the engine's words for them. */
import { isObservationType, OBSERVATION_TYPES, type ObservationType, parseTime } from '../engine';
import { type ParsedArgs, UsageError, stringFlag } from './args';

/** `--type decision,problem` (or one type). */
export function typesFlag(args: ParsedArgs): ObservationType[] | undefined {
  const value = stringFlag(args, 'type');
  if (value === undefined) return undefined;
  const types = value.split(',').map((type) => type.trim());
  const bad = types.find((type) => !isObservationType(type));
  if (bad !== undefined)
    throw new UsageError(`unknown type "${bad}" (one of ${OBSERVATION_TYPES.join(', ')})`);
  return types as ObservationType[];
}

/** `--since 2025-01-31`, `--anchor 2025-01-31T10:00`...: a moment, as epoch ms. */
export function timeFlag(args: ParsedArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  try {
    return parseTime(value, `--${name}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
