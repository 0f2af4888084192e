/**
 * What each context item really costs, from the measured breakdown where it has a figure: the tool results
 * behind an item, an MCP server's tool names and instructions and the schemas it loaded, and single large
 * tool results as items of their own. Where it has none, characters / 4 (the transcript tracker's estimate)
 * or an even share of a category stand in, and the item says it is estimated.
 */
import { formatTokens } from '../../shared/formatTokens';
import type { BreakdownCategoryName } from '../../shared/context';
import type { ContextBreakdown } from '../live/breakdownTypes';
import type { ContextItem } from '../live/contextItems';

/**
 * A tool result of 5% of the window or more is a recommendation of its own (10k tokens of 200k, 50k of 1M):
 * half of one of the seed's 10-point phases, worth naming to the compaction that can drop it.
 */
const LARGE_RESULT_SHARE = 0.05;

interface Part {
  label: string;
  tokens: number;
  measured: boolean;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;
const sum = (items: ReadonlyArray<{ tokens: number }>): number =>
  items.reduce((total, item) => total + item.tokens, 0);

/** A part made of breakdown figures (or estimates shaped like them): measured only if all of them are. */
function partOf(label: string, figures: ReadonlyArray<{ tokens: number; measured: boolean }>): Part {
  return { label, tokens: sum(figures), measured: figures.every((figure) => figure.measured) };
}

/** The item with its size and what the size is made of; parts of no tokens are left out. */
function withParts(item: ContextItem, parts: Part[]): ContextItem {
  const counted = parts.filter((part) => part.tokens > 0);
  return {
    ...item,
    tokens: sum(counted),
    measured: counted.length > 0 && counted.every((part) => part.measured),
    detail: counted.length
      ? counted.map((part) => `${part.label} ${formatTokens(part.tokens)}`).join(' + ')
      : 'nothing of it measured in this session',
  };
}

/** A category's tokens not claimed by a server's own item, shared evenly among `among` servers. */
function evenShare(
  breakdown: ContextBreakdown,
  category: 'mcp_tools' | 'mcp_schemas',
  among: number,
): number {
  if (among === 0) return 0;
  const total = breakdown.categories.find((entry) => entry.name === category)?.tokens ?? 0;
  const claimed = sum(breakdown.items.filter((item) => item.category === category && item.ref.server));
  return Math.max(0, Math.round((total - claimed) / among));
}

/**
 * What an MCP server costs beyond its results: its tool names and instructions (`mcp_tools`) and the schemas
 * it loaded (`mcp_schemas`), from its own breakdown items, else an even share of what no server claims.
 */
function serverCosts(
  breakdown: ContextBreakdown,
  servers: readonly string[],
  called: ReadonlySet<string>,
): (server: string) => Part[] {
  const ofServer = (server: string, category: BreakdownCategoryName) =>
    breakdown.items.filter((item) => item.category === category && item.ref.server === server);
  const unnamed = servers.filter((server) => ofServer(server, 'mcp_tools').length === 0);
  const namesShare = evenShare(breakdown, 'mcp_tools', unnamed.length);
  // Schemas load when the agent looks for a server's tools, so unclaimed ones go to the servers it called.
  const schemaTakers = called.size > 0 ? called : new Set(servers);
  const schemasShare = evenShare(breakdown, 'mcp_schemas', schemaTakers.size);
  return (server) => {
    const names = ofServer(server, 'mcp_tools');
    const schemas = ofServer(server, 'mcp_schemas');
    return [
      names.length
        ? partOf('tool names and instructions', names)
        : { label: 'tool names and instructions (an even share)', tokens: namesShare, measured: false },
      schemas.length
        ? partOf('loaded schemas', schemas)
        : {
            label: 'loaded schemas (an even share)',
            tokens: schemaTakers.has(server) ? schemasShare : 0,
            measured: false,
          },
    ];
  };
}

export interface CostInput {
  /** Items from the transcript (files, skills, subagents, servers called), sized by characters / 4. */
  tracked: readonly ContextItem[];
  /** Every MCP server in the session, called or not. */
  servers: readonly string[];
  breakdown: ContextBreakdown;
  /** When what has no time of its own entered the context (the context's start). */
  since: number;
}

/** The items to score, each sized from the breakdown where it can be, large tool results added. */
export function costedItems(input: CostInput): ContextItem[] {
  const { breakdown, since } = input;
  const figures = breakdown.items;
  const threshold = LARGE_RESULT_SHARE * breakdown.window;
  const large = figures.filter((item) => item.kind === 'tool_result' && item.tokens >= threshold);
  // A large result is its own recommendation: its owner (a server, a file) no longer counts it.
  const largeUses = new Set(large.map((item) => item.ref.toolUseId));
  const byToolUse = new Map(
    figures.flatMap((item) => (item.ref.toolUseId ? [[item.ref.toolUseId, item]] : [])),
  );
  const resultsPart = (item: ContextItem): Part[] => {
    const results = (item.results ?? []).filter((result) => !largeUses.has(result.toolUseId));
    const sized = results.map((result) => byToolUse.get(result.toolUseId) ?? { ...result, measured: false });
    return sized.length ? [partOf(plural(sized.length, 'result'), sized)] : [];
  };

  const called = new Set(input.tracked.filter((item) => item.type === 'mcp_server').map((item) => item.name));
  const servers = [...new Set([...input.servers, ...called])];
  const serverParts = serverCosts(breakdown, servers, called);
  const entered = (server: string) =>
    figures.find((item) => item.category === 'mcp_tools' && item.ref.server === server)?.at ?? since;

  return [
    ...input.tracked.map((item) =>
      withParts(item, [...(item.type === 'mcp_server' ? serverParts(item.name) : []), ...resultsPart(item)]),
    ),
    ...servers
      .filter((server) => !called.has(server))
      .map((server) =>
        withParts(
          {
            id: `mcp_server:${server}`,
            type: 'mcp_server',
            name: server,
            accesses: 0,
            lastAccessAt: entered(server),
            tokens: 0,
            measured: false,
          },
          serverParts(server),
        ),
      ),
    ...large.map((result) =>
      withParts(
        {
          id: `tool_result:${result.ref.toolUseId ?? result.id}`,
          type: 'tool_result',
          name: result.label,
          tool: result.ref.tool,
          accesses: 1,
          lastAccessAt: result.at ?? since,
          tokens: 0,
          measured: false,
        },
        [partOf('one tool output', [result])],
      ),
    ),
  ];
}
