import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContextGauge, findActiveTranscript, type GaugeReading } from '../engine';
import { type IntegerRange, type ParsedArgs, numberFlag, stringFlag } from './args';
import type { CliCommand, CliContext } from './command';

/** --window in tokens: today's windows are 200k and 1M; the top leaves room for far larger ones. */
const WINDOW_TOKENS: IntegerRange = { min: 1, max: 100_000_000 };

/** The gauge of --transcript, or of the project's active session: shared by `gauge` and `prune`. */
export async function readActiveSession(args: ParsedArgs, context: CliContext): Promise<GaugeReading> {
  // Bad usage is reported before anything is looked up.
  const window = numberFlag(args, 'window', WINDOW_TOKENS);
  const named = stringFlag(args, 'transcript');
  const transcript = named
    ? path.resolve(named)
    : findActiveTranscript(context.project, stringFlag(args, 'claude-dir'));
  if (!transcript) throw new Error(`no Claude Code transcript found for ${path.resolve(context.project)}`);
  if (!fs.existsSync(transcript)) throw new Error(`transcript not found: ${transcript}`);
  const gauge = new ContextGauge(transcript, { window });
  await gauge.refresh();
  return gauge.reading();
}

export const gaugeCommand: CliCommand = {
  name: 'gauge',
  usage: 'gauge [--json] [--transcript FILE] [--window N] [--claude-dir DIR]',
  summary: "How full the context window of the project's active Claude Code session is",
  flags: { withValue: ['transcript', 'window', 'claude-dir'], boolean: ['json'] },
  async run(args, context) {
    const reading = await readActiveSession(args, context);
    if (args.flags.has('json')) {
      context.stdout(
        JSON.stringify({
          ...reading,
          compactions: reading.compactions.length,
          compactionList: reading.compactions,
        }),
      );
    } else {
      const compacted = reading.compactions.length
        ? `, ${reading.compactions.length} compaction(s)${reading.compactedSinceUsage ? ', just compacted' : ''}`
        : '';
      context.stdout(
        `ctx ${reading.percent}% (${reading.tokens.toLocaleString('en-US')} / ${reading.window.toLocaleString('en-US')} tokens` +
          `${reading.model ? `, ${reading.model}` : ''}${compacted}) session ${reading.sessionId ?? '?'}`,
      );
    }
    return 0;
  },
};
