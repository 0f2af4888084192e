import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayPath, ProjectEngine, resolveHome, scanConfigs, type ToolTypes } from '../engine';
import { type ParsedArgs, stringFlag } from './args';
import type { CliCommand, CliContext } from './command';

/** Flags naming where the user's config lives, for `scan` and `tools`. */
export const CONFIG_FLAGS = ['user-home', 'claude-dir'] as const;
export const CONFIG_USAGE = '[--user-home DIR] [--claude-dir DIR]';

export function scanOptions(args: ParsedArgs, context: CliContext): ToolTypes.ScanOptions {
  return {
    projectRoot: path.resolve(context.project),
    userHome: stringFlag(args, 'user-home'),
    claudeDir: stringFlag(args, 'claude-dir'),
  };
}

/**
 * The registry is written by whoever holds the project's writer lock. When that is another process (the
 * VS Code window), the CLI reads the snapshot as that process saved it: it keeps its registry current.
 */
export async function openRegistryProject(context: CliContext, purpose: string): Promise<ProjectEngine> {
  if (!fs.existsSync(context.project)) throw new Error(`project folder not found: ${context.project}`);
  const engine = await ProjectEngine.open({
    home: resolveHome(context.home),
    folder: context.project,
    role: 'auto',
    purpose,
  });
  for (const warning of engine.warnings) context.stderr(`warning: ${warning}`);
  if (engine.role === 'reader')
    context.stderr('note: another process writes this project; showing its registry as last saved');
  return engine;
}

export const scanCommand: CliCommand = {
  name: 'scan',
  usage: `scan [--json] ${CONFIG_USAGE}`,
  summary:
    'Scan the files that declare tools (MCP servers, skills, commands, subagents, plugins) into the registry',
  flags: { withValue: CONFIG_FLAGS, boolean: ['json'] },
  async run(args, context) {
    const engine = await openRegistryProject(context, 'context-deck scan (CLI)');
    try {
      const scan = scanConfigs(scanOptions(args, context));
      const applied = engine.role === 'writer' ? engine.tools.applyScan(scan) : undefined;
      const byType: Record<string, number> = {};
      for (const entry of scan.entries) byType[entry.type] = (byType[entry.type] ?? 0) + 1;
      if (args.flags.has('json')) {
        context.stdout(
          JSON.stringify({
            project: engine.identity.id,
            applied: applied !== undefined,
            entries: scan.entries.length,
            byType,
            problems: scan.problems,
            ...applied,
          }),
        );
      } else {
        const counts = Object.entries(byType).map(([type, count]) => `${count} ${type}`);
        const lines = [
          `${engine.identity.name}: ${scan.entries.length} tools declared${counts.length ? ` (${counts.join(', ')})` : ''}`,
          applied
            ? `registry: ${applied.added.length} new, ${applied.staled.length} now stale, ${applied.restored.length} back (${applied.ms.toFixed(1)} ms)`
            : 'registry: not updated (another process writes this project and rescans on its own)',
          ...scan.problems.map(
            (problem) =>
              `problem: ${displayPath(problem.file, scan.projectRoot, scan.userHome)}: ${problem.message}`,
          ),
        ];
        context.stdout(lines.join('\n'));
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};
