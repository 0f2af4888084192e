import * as fs from 'node:fs';
import {
  isObservationType,
  MAX_SEARCH_LIMIT,
  OBSERVATION_TYPES,
  type ObservationType,
  parseTime,
  ProjectEngine,
  resolveHome,
} from '../engine';
import { type ParsedArgs, UsageError, numberFlag, stringFlag } from './args';
import type { CliCommand, CliContext } from './command';
import { searchTable } from './searchTable';

/** Run `work` on the project's snapshot, opened read-only: reading the memory never writes the database. */
export async function withProjectSnapshot<T>(
  context: CliContext,
  work: (engine: ProjectEngine) => T | Promise<T>,
): Promise<T> {
  if (!fs.existsSync(context.project)) throw new Error(`project folder not found: ${context.project}`);
  const engine = await ProjectEngine.open({
    home: resolveHome(context.home),
    folder: context.project,
    role: 'reader',
  });
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

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

export function timeFlag(args: ParsedArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  try {
    return parseTime(value, `--${name}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const searchCommand: CliCommand = {
  name: 'search',
  usage: 'search QUERY [--type T[,T]] [--session S] [--since ISO] [--until ISO] [--limit N] [--json]',
  summary: 'Search the project memory (words, "phrases", prefix*, A OR B)',
  flags: { withValue: ['type', 'session', 'since', 'until', 'limit'], boolean: ['json'] },
  async run(args, context) {
    const query = args.positionals.join(' ');
    const options = {
      query,
      types: typesFlag(args),
      sessionId: stringFlag(args, 'session'),
      since: timeFlag(args, 'since'),
      until: timeFlag(args, 'until'),
      limit: numberFlag(args, 'limit', { min: 1, max: MAX_SEARCH_LIMIT }),
    };
    return withProjectSnapshot(context, (engine) => {
      const result = engine.memory.search(options);
      context.stdout(args.flags.has('json') ? JSON.stringify(result) : searchTable(result, query));
      return 0;
    });
  },
};
