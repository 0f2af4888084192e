import { adviseSession, compactCommand } from '../engine';
import { formatTokens } from '../shared/formatTokens';
import type { CliCommand } from './command';
import { readActiveSession } from './gaugeCommand';
import { withProjectSnapshot } from './projectSession';

export const pruneCommand: CliCommand = {
  name: 'prune',
  usage: 'prune [--json] [--transcript FILE] [--window N] [--claude-dir DIR]',
  summary: "What to drop from the active session's context (silent under 70% full)",
  flags: { withValue: ['transcript', 'window', 'claude-dir'], boolean: ['json'] },
  async run(args, context) {
    const reading = await readActiveSession(args, context);
    const { servers, state } = await withProjectSnapshot(context, 'context-deck prune (CLI)', (engine) => ({
      servers: engine.tools
        .rank({ hideBuiltins: true })
        .filter((tool) => tool.type === 'mcp_server' && !tool.disabled && tool.server)
        .map((tool) => tool.server!),
      state: engine.advice.state(),
    }));
    const advice = adviseSession(reading, { now: Date.now(), servers, state });
    const recommendations = advice.recommendations.map((rec) => ({
      id: rec.itemId,
      item: rec.item,
      type: rec.type,
      score: rec.score,
      savingTokens: rec.savingTokens,
      savingMeasured: rec.savingMeasured,
      savingDetail: rec.savingDetail,
      priority: rec.priority,
      reason: rec.reason,
      explanation: rec.explanation,
      action: rec.action,
    }));
    if (args.flags.has('json')) {
      context.stdout(
        JSON.stringify({
          percent: advice.percent,
          phase: advice.phase,
          warnings: advice.warnings,
          recommendations,
          totalSavingTokens: advice.totalSavingTokens,
          compact: compactCommand(advice),
        }),
      );
    } else if (advice.phase === 'silent') {
      context.stdout(`ctx ${advice.percent}%: nothing to prune yet (advice starts at 70%)`);
    } else {
      context.stdout(
        [
          `ctx ${advice.percent}% (${advice.phase})`,
          ...advice.warnings.map((warning) => `! ${warning}`),
          ...recommendations.flatMap((rec) => [
            // The reason says why and what it saves (≈ when estimated); the score and the saving's parts follow.
            `[${rec.priority}] ${rec.item}: ${rec.reason}`,
            `    ${rec.score === null ? rec.explanation : `score ${rec.explanation}`}; saving: ${rec.savingDetail}`,
          ]),
          `total saving ~${formatTokens(advice.totalSavingTokens)} tokens`,
          compactCommand(advice),
        ].join('\n'),
      );
    }
    return 0;
  },
};
