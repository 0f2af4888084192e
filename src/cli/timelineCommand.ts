import { formatTimeline, TIMELINE_LIMITS } from '../engine';
import { UsageError, numberFlag, stringFlag } from './args';
import type { CliCommand } from './command';
import { timeFlag } from './memoryFlags';
import { withProjectSnapshot } from './projectSession';

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
      before: numberFlag(args, 'before', TIMELINE_LIMITS.before),
      after: numberFlag(args, 'after', TIMELINE_LIMITS.after),
      sessionId: stringFlag(args, 'session'),
    };
    return withProjectSnapshot(context, 'context-deck timeline (CLI)', (engine) => {
      const result = engine.memory.timeline(options);
      context.stdout(args.flags.has('json') ? JSON.stringify(result) : formatTimeline(result).text);
      return 0;
    });
  },
};
