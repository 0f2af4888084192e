import { formatTimeline, timeline } from '../engine/memory';
import { type ParsedArgs, UsageError, stringFlag } from './args';
import type { CliCommand } from './command';
import { timeFlag, withProjectSnapshot } from './searchCommand';

/** A whole number of observations; out-of-range values are clamped by the engine, not refused. */
function countFlag(args: ParsedArgs, name: string): number | undefined {
  const value = stringFlag(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} needs a whole number, not "${value}"`);
  return Number(value);
}

export const timelineCommand: CliCommand = {
  name: 'timeline',
  usage: 'timeline [--anchor ISO | --id ID] [--before N] [--after N] [--session S] [--json]',
  summary: 'Observations in time order around a moment (default now) or an observation',
  flags: { withValue: ['anchor', 'id', 'before', 'after', 'session'], boolean: ['json'] },
  async run(args, context) {
    if (args.flags.has('anchor') && args.flags.has('id'))
      throw new UsageError('give --anchor or --id, not both');
    const options = {
      anchorAt: timeFlag(args, 'anchor'),
      anchorId: stringFlag(args, 'id'),
      before: countFlag(args, 'before'),
      after: countFlag(args, 'after'),
      sessionId: stringFlag(args, 'session'),
    };
    return withProjectSnapshot(context, (engine) => {
      const result = timeline(engine.db, options);
      context.stdout(args.flags.has('json') ? JSON.stringify(result) : formatTimeline(result).text);
      return 0;
    });
  },
};
