import { stringFlag } from './args';
import type { CliCommand } from './command';
import { openProject, withInterrupt } from './projectSession';

/** What was read: transcripts in lines; rollouts, stores and task files in the entries they hold. */
function readText(result: { bytes: number; lines: number; entries: number }): string {
  const parts = [`${result.bytes} bytes`];
  if (result.lines > 0 || result.entries === 0) parts.push(`${result.lines} lines`);
  if (result.entries > 0) parts.push(`${result.entries} session entries`);
  return parts.join(', ');
}

export const importCommand: CliCommand = {
  name: 'import-transcripts',
  usage: 'import-transcripts [PATH...] [--json] [--force] [--claude-dir DIR]',
  summary:
    "Import the project's history from every agent's session files (Claude Code's transcripts, Codex's rollouts, opencode's store, VS Code's and Cline's tasks: tool calls, prompts, sessions); PATHs (files or folders) are recognised by their content and imported whatever cwd they record",
  flags: { withValue: ['claude-dir'], boolean: ['json', 'force'] },
  async run(args, context) {
    const engine = await openProject(context, 'writer', 'context-deck import-transcripts (CLI)');
    return withInterrupt(engine, async (signal) => {
      const showProgress = process.stderr.isTTY === true;
      const result = await engine.importTranscripts({
        paths: args.positionals,
        transcriptsDir: stringFlag(args, 'claude-dir'),
        force: args.flags.has('force'),
        signal,
        onProgress: showProgress
          ? ({ doneBytes, totalBytes, doneFiles, totalFiles }) =>
              process.stderr.write(
                `\rimporting ${Math.floor((100 * doneBytes) / Math.max(1, totalBytes))}% (file ${doneFiles + 1} of ${totalFiles})`,
              )
          : undefined,
      });
      if (showProgress) process.stderr.write('\r\x1b[K');
      for (const problem of result.problems) context.stderr(`not imported: ${problem}`);
      await engine.save();
      if (args.flags.has('json')) {
        context.stdout(JSON.stringify({ ...result, project: engine.identity.id }));
      } else {
        context.stdout(
          `${engine.identity.name}: ${result.toolCalls} new tool calls (${result.failures} failed), ` +
            `${result.prompts} new prompts, ${result.sessions} new sessions from ${result.files} transcripts ` +
            `(${readText(result)}, ${result.malformed} malformed); ` +
            `${result.skippedFiles} unchanged, ${result.foreignFiles} of other projects` +
            (result.cancelled ? '; cancelled' : ''),
        );
      }
      return result.cancelled ? 130 : 0;
    });
  },
};
