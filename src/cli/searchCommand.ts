import { MAX_SEARCH_LIMIT } from '../engine';
import { numberFlag, stringFlag } from './args';
import type { CliCommand } from './command';
import { timeFlag, typesFlag } from './memoryFlags';
import { withProjectSnapshot } from './projectSession';
import { searchTable } from './searchTable';

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
    return withProjectSnapshot(context, 'context-deck search (CLI)', (engine) => {
      const result = engine.memory.search(options);
      context.stdout(args.flags.has('json') ? JSON.stringify(result) : searchTable(result, query));
      return 0;
    });
  },
};
