import type { CliCommand } from './command';
import { openProject } from './projectSession';

export const statusCommand: CliCommand = {
  name: 'status',
  usage: 'status [--json]',
  summary: "Show the project database's counts (as last saved)",
  flags: { boolean: ['json'] },
  async run(args, context) {
    // Warnings are part of the report below, not printed separately.
    const engine = await openProject(context, 'reader', 'context-deck status (CLI)', true);
    try {
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
        const lines = [
          `project     ${engine.identity.name} (${engine.identity.mainRoot})`,
          `events      ${counts.events}`,
          `sessions    ${counts.sessions}`,
          `tool calls  ${counts.toolCalls} (${counts.toolFailures} failed)`,
          `prompts     ${counts.prompts}`,
          `rejected    ${counts.rejected}`,
          `database    ${counts.dbBytes} bytes`,
          ...(pendingBytes > 0 ? [`not yet ingested: ${pendingBytes} bytes (run: context-deck ingest)`] : []),
          ...engine.warnings.map((warning) => `warning: ${warning}`),
        ];
        context.stdout(lines.join('\n'));
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};
