/**
 * Tool ranking, both strategies of DESIGN.md "Tool ranking":
 * - `frequency-share` (seed 002, default): the tool's share of the project's most recent 200 tool calls;
 * - `decay` (seed 000): 0.7 x uses in 7 days / max uses (floor 1) + 0.3 x exp(-0.693 x ageDays / 7).
 * Then stale or demoted x0.25 and unseen for 30+ days x0.5. An MCP server entry counts its tools' calls.
 * Lists go active, stale, demoted; within each, tools used in the last 7 days first, then by score, then
 * by lifetime use. Three queries whatever the registry's size; the extension host runs each as a task of its
 * own (`rankToolsInSteps`): the week's calls are some 20,000 rows at a year of heavy use.
 */
import type { ProjectStore } from '../storage/projectStore';
import { runAtOnce, runInSteps, type Steps } from '../kernel/steps';
import { readRows } from './registryDb';
import { toolAgents } from './toolAgents';
import { configuredServerPrefix, serverToolPrefix } from '../agents/toolNames';
import type {
  RankedToolFields,
  RankingStrategy,
  ScoreParts,
  ScorePenalties,
  ToolOrigin,
  ToolScope,
  ToolStatus,
  ToolType,
} from '../../shared/tools';

const RECENT_CALLS = 200;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const UNSEEN_DAYS = 30;
const STATUS_FACTOR = 0.25;
const UNSEEN_FACTOR = 0.5;
const FREQUENCY_WEIGHT = 0.7;
const RECENCY_WEIGHT = 0.3;
/** ln 2: the recency part halves every 7 days. */
const HALF_LIFE_RATE = 0.693;
const HALF_LIFE_DAYS = 7;

/** A ranked tool as the engine gives it: the shared fields, and when it was last seen and discovered. */
export interface RankedTool extends RankedToolFields<RankedTool> {
  /** max(coalesce(last use, discovery), last confirmation): what the 30-day rule and `unseenDays` use. */
  lastSeenAt: number;
  discoveredAt: number;
}

export interface RankOptions {
  strategy?: RankingStrategy;
  now?: number;
  /** Leave out the agent's built-in tools (always there, nothing to configure). */
  hideBuiltins?: boolean;
  /** Keep tools whose name, server or description contains this (case-insensitive). */
  query?: string;
}

type RegistryRow = {
  name: string;
  type: ToolType;
  scope: ToolScope;
  origin: ToolOrigin;
  source: string | null;
  line: number | null;
  server: string | null;
  description: string | null;
  disabled: number;
  declared_by: string | null;
  status: ToolStatus;
  status_reason: string | null;
  discovered_at: number;
  updated_at: number;
  last_used_at: number | null;
  usage_count: number;
  failure_count: number;
  window_calls: number;
  window_failures: number;
  agents: string | null;
};

/** What a score is computed from; a server sums (or takes the latest of) its tools'. */
interface Usage {
  uses7d: number;
  lastUse7d: number | null;
  recentUses: number;
  usesTotal: number;
  failures: number;
  windowCalls: number;
  windowFailures: number;
  lastUsedAt: number | null;
}

const EMPTY_USAGE: Usage = {
  uses7d: 0,
  lastUse7d: null,
  recentUses: 0,
  usesTotal: 0,
  failures: 0,
  windowCalls: 0,
  windowFailures: 0,
  lastUsedAt: null,
};

const STATUS_ORDER: Record<ToolStatus, number> = { active: 0, stale: 1, demoted: 2 };

function latest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

function addUsage(total: Usage, part: Usage): void {
  total.uses7d += part.uses7d;
  total.lastUse7d = latest(total.lastUse7d, part.lastUse7d);
  total.recentUses += part.recentUses;
  total.usesTotal += part.usesTotal;
  total.failures += part.failures;
  total.windowCalls += part.windowCalls;
  total.windowFailures += part.windowFailures;
  total.lastUsedAt = latest(total.lastUsedAt, part.lastUsedAt);
}

function compareRanked(a: RankedTool, b: RankedTool): number {
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    Number(a.uses7d === 0) - Number(b.uses7d === 0) ||
    b.score - a.score ||
    b.usesTotal - a.usesTotal ||
    a.name.localeCompare(b.name)
  );
}

export function rankTools(engine: Pick<ProjectStore, 'store'>, options: RankOptions = {}): RankedTool[] {
  return runAtOnce(rankingSteps(engine, options));
}

/** `rankTools`, with `pause()` awaited after each query. Nothing else may write the database meanwhile. */
export function rankToolsInSteps(
  engine: Pick<ProjectStore, 'store'>,
  options: RankOptions = {},
  pause?: () => Promise<void>,
): Promise<RankedTool[]> {
  return runInSteps(rankingSteps(engine, options), pause);
}

/** The ranking, yielding after each of its three queries. */
export function* rankingSteps(
  engine: Pick<ProjectStore, 'store'>,
  options: RankOptions,
): Steps<RankedTool[]> {
  const strategy = options.strategy ?? 'frequency-share';
  const now = options.now ?? Date.now();
  const db = engine.store;
  const rows = readRows<RegistryRow>(
    db,
    `SELECT name, type, scope, origin, source, line, server, description, disabled, declared_by, status, status_reason,
       discovered_at, updated_at, last_used_at, usage_count, failure_count, window_calls, window_failures, agents
     FROM tool_registry`,
  );
  yield;
  const week = new Map(
    readRows(
      db,
      // Without this the planner walks every call through the (tool_name, at) index to save a sort.
      `SELECT tool_name, count(*) AS uses, max(at) AS last
         FROM tool_calls INDEXED BY tool_calls_by_at WHERE at >= ? GROUP BY tool_name`,
      [now - WEEK_MS],
    ).map((row) => [String(row.tool_name), { uses: Number(row.uses), last: Number(row.last) }]),
  );
  yield;
  const recent = new Map(
    readRows(
      db,
      `SELECT tool_name, count(*) AS uses
         FROM (SELECT tool_name FROM tool_calls ORDER BY at DESC LIMIT ${RECENT_CALLS}) GROUP BY tool_name`,
    ).map((row) => [String(row.tool_name), Number(row.uses)]),
  );
  yield;
  const recentCalls = [...recent.values()].reduce((sum, uses) => sum + uses, 0);

  // Servers' usage: every call of a name under their prefix, registered yet or not.
  const serverUsage = new Map<string, Usage>();
  for (const row of rows)
    if (row.type === 'mcp_server') serverUsage.set(serverToolPrefix(row.name), { ...EMPTY_USAGE });
  const usageOf = (row: RegistryRow): Usage => ({
    uses7d: week.get(row.name)?.uses ?? 0,
    lastUse7d: week.get(row.name)?.last ?? null,
    recentUses: recent.get(row.name) ?? 0,
    usesTotal: row.usage_count,
    failures: row.failure_count,
    windowCalls: row.window_calls,
    windowFailures: row.window_failures,
    lastUsedAt: row.last_used_at,
  });
  const parentOf = new Map<RegistryRow, string>();
  for (const row of rows) {
    const prefix = configuredServerPrefix(row.name, serverUsage);
    if (prefix === undefined) continue;
    parentOf.set(row, prefix);
    // The 7-day and recent counts are added from the call maps below, so unregistered names count too.
    addUsage(serverUsage.get(prefix)!, { ...usageOf(row), uses7d: 0, lastUse7d: null, recentUses: 0 });
  }
  for (const [name, { uses, last }] of week) {
    const server = serverUsage.get(configuredServerPrefix(name, serverUsage) ?? '');
    if (server) addUsage(server, { ...EMPTY_USAGE, uses7d: uses, lastUse7d: last });
  }
  for (const [name, uses] of recent) {
    const server = serverUsage.get(configuredServerPrefix(name, serverUsage) ?? '');
    if (server) addUsage(server, { ...EMPTY_USAGE, recentUses: uses });
  }
  const maxUses7d = Math.max(
    1,
    ...[...week.values()].map((calls) => calls.uses),
    ...[...serverUsage.values()].map((usage) => usage.uses7d),
  );

  const rank = (row: RegistryRow): RankedTool => {
    const usage = row.type === 'mcp_server' ? serverUsage.get(serverToolPrefix(row.name))! : usageOf(row);
    const lastSeenAt = Math.max(usage.lastUsedAt ?? row.discovered_at, row.updated_at);
    const penalties: ScorePenalties = {
      statusFactor: row.status === 'active' ? 1 : STATUS_FACTOR,
      unseenFactor: now - lastSeenAt >= UNSEEN_DAYS * DAY_MS ? UNSEEN_FACTOR : 1,
    };
    let scoreParts: ScoreParts;
    let base: number;
    if (strategy === 'frequency-share') {
      const share = recentCalls > 0 ? usage.recentUses / recentCalls : 0;
      scoreParts = { strategy, recentUses: usage.recentUses, recentCalls, share, ...penalties };
      base = share;
    } else {
      // Unused in 7 days scores 0 (seed 000: no recent stats, no score).
      const ageDays = usage.lastUse7d === null ? null : Math.max(0, (now - usage.lastUse7d) / DAY_MS);
      const frequency = usage.uses7d / maxUses7d;
      const recency = ageDays === null ? 0 : Math.exp((-HALF_LIFE_RATE * ageDays) / HALF_LIFE_DAYS);
      scoreParts = { strategy, uses7d: usage.uses7d, maxUses7d, frequency, ageDays, recency, ...penalties };
      base = FREQUENCY_WEIGHT * frequency + RECENCY_WEIGHT * recency;
    }
    return {
      name: row.name,
      type: row.type,
      scope: row.scope,
      origin: row.origin,
      server: row.server,
      source: row.source,
      agents: toolAgents(row.declared_by, row.agents),
      line: row.line,
      description: row.description,
      disabled: row.disabled === 1,
      status: row.status,
      statusReason: row.status_reason,
      score: base * penalties.statusFactor * penalties.unseenFactor,
      scoreParts,
      uses7d: usage.uses7d,
      usesTotal: usage.usesTotal,
      failures: usage.failures,
      successRate:
        usage.windowCalls > 0 ? (usage.windowCalls - usage.windowFailures) / usage.windowCalls : null,
      lastUsedAt: usage.lastUsedAt,
      lastSeenAt,
      unseenDays: Math.max(0, Math.floor((now - lastSeenAt) / DAY_MS)),
      discoveredAt: row.discovered_at,
    };
  };

  const query = options.query?.trim().toLowerCase();
  const matches = (tool: RankedTool) =>
    !query || [tool.name, tool.server, tool.description].some((text) => text?.toLowerCase().includes(query));
  const childrenOf = new Map<string, RankedTool[]>();
  const topLevel: RankedTool[] = [];
  for (const row of rows) {
    if (options.hideBuiltins && row.type === 'builtin') continue;
    const parent = parentOf.get(row);
    if (parent === undefined) topLevel.push(rank(row));
    else {
      const siblings = childrenOf.get(parent) ?? [];
      siblings.push(rank(row));
      childrenOf.set(parent, siblings);
    }
  }
  // A server declared in two scopes lists its tools once, under the entry that ranks first.
  const grouped = new Set<string>();
  return topLevel.sort(compareRanked).flatMap((tool) => {
    if (tool.type !== 'mcp_server') return matches(tool) ? [tool] : [];
    const prefix = serverToolPrefix(tool.name);
    const tools = grouped.has(prefix) ? [] : (childrenOf.get(prefix) ?? []).sort(compareRanked);
    grouped.add(prefix);
    const shown = matches(tool) ? tools : tools.filter(matches);
    // A server is usable by the agent that declares it and by every agent that called one of its tools.
    const agents = [...new Set([...tool.agents, ...tools.flatMap((child) => child.agents)])];
    return matches(tool) || shown.length > 0 ? [{ ...tool, agents, children: shown }] : [];
  });
}
