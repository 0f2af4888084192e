import { type RankedTool, scanConfigs } from '../engine';
import { UsageError, stringFlag } from './args';
import type { CliCommand } from './command';
import { RANKING_STRATEGIES, type RankingStrategy } from '../shared/tools';
import { tableRows } from './table';
import { CONFIG_FLAGS, CONFIG_USAGE, openRegistryProject, scanOptions } from './scanCommand';

/** A server's tools follow it, so the list stays in ranked order and grouped. */
function flatten(tools: RankedTool[]): Array<Omit<RankedTool, 'children'>> {
  return tools.flatMap(({ children, ...tool }) => [tool, ...(children ?? [])]);
}

function percent(rate: number | null): string {
  return rate === null ? '-' : `${Math.round(rate * 100)}%`;
}

export const toolsCommand: CliCommand = {
  name: 'tools',
  usage: `tools [--json] [--strategy frequency-share|decay] [--all] [--query TEXT] ${CONFIG_USAGE}`,
  summary:
    "The project's tools in ranked order, MCP tools after their server (built-in tools only with --all); refreshes the registry first unless another process writes it",
  flags: { withValue: ['strategy', 'query', ...CONFIG_FLAGS], boolean: ['json', 'all'] },
  async run(args, context) {
    const strategy = stringFlag(args, 'strategy') ?? 'frequency-share';
    if (!RANKING_STRATEGIES.includes(strategy as RankingStrategy))
      throw new UsageError(`--strategy is one of ${RANKING_STRATEGIES.join(', ')}, not "${strategy}"`);
    const engine = await openRegistryProject(context, 'context-deck tools (CLI)');
    try {
      // As the writer, bring the registry up to date the way the extension does: new events, config, use.
      if (engine.role === 'writer') {
        await engine.ingest();
        engine.tools.applyScan(scanConfigs(scanOptions(args, context)));
        engine.tools.discoverFromUse();
      }
      const ranked = flatten(
        engine.tools.rank({
          strategy: strategy as RankingStrategy,
          hideBuiltins: !args.flags.has('all'),
          query: stringFlag(args, 'query'),
        }),
      );
      if (args.flags.has('json')) {
        context.stdout(JSON.stringify(ranked));
      } else {
        const rows = ranked.map((tool) => [
          tool.status,
          `${tool.type === 'mcp_tool' && tool.server ? '  ' : ''}${tool.name}`,
          tool.type,
          tool.scope,
          String(tool.uses7d),
          String(tool.usesTotal),
          percent(tool.successRate),
          tool.score.toFixed(3),
          tool.lastUsedAt === null
            ? '-'
            : new Date(tool.lastUsedAt).toISOString().slice(0, 16).replace('T', ' '),
          tool.statusReason ?? '',
        ]);
        const header = [
          'status',
          'name',
          'type',
          'scope',
          '7d',
          'total',
          'ok',
          'score',
          'last used',
          'reason',
        ];
        context.stdout(rows.length ? tableRows([header, ...rows]).join('\n') : 'no tools registered yet');
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};
