import * as fs from 'node:fs';
import * as path from 'node:path';
import { type GaugeReading, sessionGauge, sessionOfFile } from '../engine';
import { type IntegerRange, type ParsedArgs, numberFlag, stringFlag } from './args';
import type { CliCommand, CliContext } from './command';
import { withProjectSnapshot } from './projectSession';
import { type AgentId, agentName } from '../shared/agents';
import { forecastText, tippingText } from '../shared/forecastText';

/** --window in tokens: today's windows are 200k and 1M; the top leaves room for far larger ones. */
const WINDOW_TOKENS: IntegerRange = { min: 1, max: 100_000_000 };

/**
 * The gauge of --transcript (any agent's session file, told by its content), or of the project's active
 * session, whichever agent's it is: shared by `gauge`, `breakdown` and `prune`.
 */
export async function readActiveSession(
  args: ParsedArgs,
  context: CliContext,
): Promise<GaugeReading & { agent: AgentId }> {
  // Bad usage is reported before anything is looked up.
  const window = numberFlag(args, 'window', WINDOW_TOKENS);
  const named = stringFlag(args, 'transcript');
  let active;
  if (named) {
    const file = path.resolve(named);
    if (!fs.existsSync(file)) throw new Error(`transcript not found: ${file}`);
    active = sessionOfFile(file);
  } else {
    // The sessions the hooks recorded say which agent is working; the database is only read.
    active = await withProjectSnapshot(context, 'context-deck gauge (CLI)', (engine) =>
      engine.activeSession({ transcriptsDir: stringFlag(args, 'claude-dir') }),
    );
  }
  if (!active) throw new Error(`no session file of any agent found for ${path.resolve(context.project)}`);
  const gauge = sessionGauge(active, { window });
  if (!gauge)
    throw new Error(
      `${active.file}: this session file records no token usage, so it does not say how full the context is`,
    );
  await gauge.refresh();
  return { ...gauge.reading(), agent: gauge.agent };
}

export const gaugeCommand: CliCommand = {
  name: 'gauge',
  usage: 'gauge [--json] [--transcript FILE] [--window N] [--claude-dir DIR]',
  summary:
    "How full the context window of the project's active session is, whichever agent's, and when it will compact",
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
        `ctx ${reading.percent}% (${reading.tokens.toLocaleString('en-US')} / ${reading.windowGuessed ? '~' : ''}` +
          `${reading.window.toLocaleString('en-US')} tokens${reading.windowGuessed ? ', window guessed' : ''}` +
          `${reading.model ? `, ${reading.model}` : ''}${compacted}) ${agentName(reading.agent)} session ${reading.sessionId ?? '?'}`,
      );
      const tipping = tippingText(reading.forecast.tipping);
      context.stdout(
        forecastText(reading.forecast) +
          (reading.forecast.stepsLeft === null
            ? ''
            : ` at ${reading.forecast.at.toLocaleString('en-US')} tokens`) +
          (tipping ? `; growing it: ${tipping}` : ''),
      );
    }
    return 0;
  },
};
