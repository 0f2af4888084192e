import { formatObservations } from '../engine';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { withProjectSnapshot } from './projectSession';

export const getCommand: CliCommand = {
  name: 'get',
  usage: 'get ID... [--json]',
  summary: 'Show observations in full by id or unique id prefix (at most 10)',
  flags: { boolean: ['json'] },
  async run(args, context) {
    if (args.positionals.length === 0) throw new UsageError('give at least one observation id');
    return withProjectSnapshot(context, 'context-deck get (CLI)', (engine) => {
      const result = engine.memory.get(args.positionals);
      const errors = result.missing.map((missing) => missing.error);
      // Nothing found is a failure: its reason alone, on stderr, as for every failing command.
      if (result.observations.length === 0) throw new Error(errors.join('; '));
      context.stdout(
        args.flags.has('json') ? JSON.stringify(result) : formatObservations({ ...result, missing: [] }).text,
      );
      for (const error of errors) context.stderr(`context-deck get: ${error}`);
      return 0;
    });
  },
};
