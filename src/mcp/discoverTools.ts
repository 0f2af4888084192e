/** discover_tools: the project's tool registry, ranked by real use, filtered by the words asked for. */
import { fitToBudget, type ProjectEngine, type RankedTool, type MemoryTypes } from '../engine';
import { visibleLine } from '../shared/visibleText';

const DESCRIPTION_CHARS = 100;

export function discoverTools(
  engine: Pick<ProjectEngine, 'tools'>,
  query: string,
  limit: number,
  now = Date.now(),
): RankedTool[] {
  // Every word must appear in the name, server or description, so "github issues" finds
  // mcp__github__search_issues.
  const wanted = query.toLowerCase().split(/\s+/).filter(Boolean);
  return engine.tools
    .rank({ now, hideBuiltins: true })
    .filter((tool) => {
      const haystack = `${tool.name} ${tool.server ?? ''} ${tool.description ?? ''}`.toLowerCase();
      return wanted.every((word) => haystack.includes(word));
    })
    .slice(0, limit);
}

export function formatTools(tools: readonly RankedTool[], query: string): MemoryTypes.BudgetedText {
  const lines = tools.map((tool, i) => {
    const success = tool.successRate === null ? '' : `, ${Math.round(tool.successRate * 100)}% ok`;
    // Names and descriptions come from the repository's files: one visible line each.
    const description = tool.description
      ? ` | ${visibleLine(tool.description).slice(0, DESCRIPTION_CHARS)}`
      : '';
    return `[${i + 1}] ${visibleLine(tool.name)} | ${tool.type}, ${tool.status} | score ${tool.score.toFixed(2)} | ${tool.uses7d} uses in 7 days, ${tool.usesTotal} in all${success}${description}`;
  });
  const header = `Tools${query ? ` matching "${query}"` : ''}, most used first${lines.length ? '' : ': none found. Try other words, or none to list all.'}`;
  return fitToBudget(
    header,
    lines,
    (info) =>
      `-- ${info.shown} tools, ~${info.tokens} tokens, ${info.truncated ? 'truncated to fit the budget; add words to narrow the list' : 'not truncated'}`,
  );
}
