import { agentName } from '../shared/agents';
import { formatBytes } from '../shared/formatBytes';
import type { CliCommand } from './command';
import { withProjectSnapshot } from './projectSession';
import { tableRows } from './table';

export const statusCommand: CliCommand = {
  name: 'status',
  usage: 'status [--json]',
  summary: "Show the project database's counts (as last saved)",
  flags: { boolean: ['json'] },
  async run(args, context) {
    // Warnings are part of the report below, not printed separately.
    return withProjectSnapshot(context, 'context-deck status (CLI)', (engine) => {
      const counts = engine.counts();
      const pendingBytes = engine.pendingBytes();
      if (args.flags.has('json')) {
        context.stdout(
          JSON.stringify({
            project: engine.identity.id,
            root: engine.identity.mainRoot,
            ...counts,
            lastEventAt: engine.lastEventAt(),
            pendingBytes,
            warnings: engine.warnings,
          }),
        );
      } else {
        const rows = [
          ['project', `${engine.identity.name} (${engine.identity.mainRoot})`],
          ['events', String(counts.events)],
          ...Object.entries(counts.agents).map(([agent, events]) => [
            `  ${agentName(agent)}`,
            String(events),
          ]),
          ['sessions', String(counts.sessions)],
          ['tool calls', `${counts.toolCalls} (${counts.toolFailures} failed)`],
          ['prompts', String(counts.prompts)],
          ['rejected', String(counts.rejected)],
          ['database', counts.dbBytes > 0 ? formatBytes(counts.dbBytes) : 'not saved yet'],
          ...(pendingBytes > 0
            ? [['not ingested', `${formatBytes(pendingBytes)} (run: context-deck ingest)`]]
            : []),
          ...engine.warnings.map((warning) => ['warning', warning]),
        ];
        context.stdout(tableRows(rows).join('\n'));
      }
      return 0;
    });
  },
};
