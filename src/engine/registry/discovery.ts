/**
 * Discovery from use: tool names seen in tool calls join the registry (origin hook, or transcript when
 * only an imported transcript recorded them), with per-tool call statistics and failure demotion
 * (seed 002: 3 or more failures among the last 5 calls -> demoted, a success -> active again).
 * Incremental: only calls after the last one processed are read, so it can run after every ingest.
 */
import { counterValue, setCounter } from '../storage/counters';
import { DEMOTE_FAILURES, type RegistryWriter, assertWriter, readRows } from './registryDb';
import {
  configuredServerPrefix,
  isBuiltinToolName,
  mcpServerOf,
  serverToolPrefix,
} from '../agents/toolNames';
import type { ToolScope, ToolStatus } from '../../shared/tools';

export interface DiscoveryResult {
  /** New tool calls read. */
  calls: number;
  added: string[];
  demoted: string[];
  /** Demoted tools that succeeded again. */
  recovered: string[];
  /** Calls are left to read: `maxCalls` stopped this pass. */
  more: boolean;
}

/** Calls whose outcomes give the success rate (Laminark: the last 50). */
const SUCCESS_WINDOW = 50;
const DEMOTE_WINDOW = 5;
/** Longest error message kept as a demotion reason. */
const MAX_REASON = 200;
/** The id of the last tool call read into the registry (history/compaction.ts folds only calls up to it). */
export const LAST_CALL_COUNTER = 'tool_registry.last_call_id';

type NewCalls = {
  tool_name: string;
  calls: number;
  failures: number;
  first_at: number;
  last_at: number;
  /** 1 when a hook recorded any of them; transcript imports have no event. */
  hooked: number;
  last_id: number;
  /** The agents of the calls' sessions, comma-separated. */
  agents: string | null;
};

/** The union of two comma-separated agent lists, sorted. */
function mergeAgents(a: string | null | undefined, b: string | null | undefined): string | null {
  const agents = new Set([...(a ?? '').split(','), ...(b ?? '').split(',')].filter(Boolean));
  return agents.size > 0 ? [...agents].sort().join(',') : null;
}

type Outcome = { success: number; error: string | null };

function clipReason(error: string | null): string {
  const text = (error ?? 'failed').replace(/\s+/g, ' ').trim();
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}

/**
 * Read the calls recorded since the last pass (at most `maxCalls` of them: a catch-up's hundreds of
 * thousands of calls are read in slices, between which the caller lets other work run). Reading in slices
 * ends in the same registry as one pass: each slice judges a tool by its latest calls, whichever slice
 * they are in.
 */
export function discoverFromUse(engine: RegistryWriter, maxCalls = Number.MAX_SAFE_INTEGER): DiscoveryResult {
  assertWriter(engine, 'update the tool registry');
  const db = engine.store;
  const result = db.transaction((): DiscoveryResult => {
    const after = counterValue(db, LAST_CALL_COUNTER);
    const upTo = Math.min(Number.MAX_SAFE_INTEGER, after + maxCalls);
    const batches = readRows<NewCalls>(
      db,
      `SELECT tool_name, count(*) AS calls, sum(success = 0) AS failures, min(at) AS first_at,
         max(at) AS last_at, max(event_id IS NOT NULL) AS hooked, max(t.id) AS last_id,
         group_concat(DISTINCT s.agent) AS agents
       FROM tool_calls t LEFT JOIN sessions s ON s.id = t.session_id WHERE t.id > ? AND t.id <= ?
       GROUP BY tool_name`,
      [after, upTo],
    );
    const more = db.get('SELECT 1 AS found FROM tool_calls WHERE id > ? LIMIT 1', [upTo]) !== undefined;
    const found: DiscoveryResult = { calls: 0, added: [], demoted: [], recovered: [], more };
    if (batches.length === 0) {
      // Ids freed by deleted calls: the next slice starts after them.
      if (more) setCounter(db, LAST_CALL_COUNTER, upTo);
      return found;
    }
    const servers: ConfiguredServers = new Map(
      readRows(
        db,
        `SELECT name, scope, server FROM tool_registry WHERE type = 'mcp_server' AND status != 'stale'`,
      ).map((row) => [
        serverToolPrefix(String(row.name)),
        {
          scope: String(row.scope) as ToolScope,
          server: row.server === null ? undefined : String(row.server),
        },
      ]),
    );
    // A name registered in several scopes reports its non-stale state.
    const statuses = new Map<string, ToolStatus>();
    const knownAgents = new Map<string, string | null>();
    for (const row of readRows(
      db,
      `SELECT name, status, agents FROM tool_registry WHERE name IN (SELECT value FROM json_each(?)) ORDER BY status = 'stale' DESC`,
      [JSON.stringify(batches.map((batch) => batch.tool_name))],
    )) {
      statuses.set(String(row.name), String(row.status) as ToolStatus);
      knownAgents.set(
        String(row.name),
        mergeAgents(knownAgents.get(String(row.name)), row.agents as string | null),
      );
    }
    for (const batch of batches) {
      const name = batch.tool_name;
      found.calls += batch.calls;
      const previous = statuses.get(name);
      if (previous === undefined) {
        register(engine, batch, servers);
        found.added.push(name);
      }
      const recent = readRows<Outcome>(
        db,
        `SELECT success, error FROM tool_calls WHERE tool_name = ? ORDER BY at DESC, id DESC LIMIT ${SUCCESS_WINDOW}`,
        [name],
      );
      const last5Failures = recent.slice(0, DEMOTE_WINDOW).filter((call) => call.success === 0).length;
      const lastFailure = recent.find((call) => call.success === 0);
      // The latest call decides, as if each call were judged when it happened: a success clears a demotion,
      // a failure demotes once 3 of the last 5 failed. Stale tools wait for their config to come back.
      const next: ToolStatus | null =
        recent[0]?.success === 1 ? 'active' : last5Failures >= DEMOTE_FAILURES ? 'demoted' : null;
      db.run(
        `UPDATE tool_registry SET
           usage_count = usage_count + $calls, failure_count = failure_count + $failures,
           last_used_at = max(coalesce(last_used_at, $last), $last),
           updated_at = max(updated_at, $last),
           window_calls = $windowCalls, window_failures = $windowFailures,
           last5_failures = $last5, last_error = $error, agents = $agents,
           status_reason = CASE WHEN status = 'stale' OR $next IS NULL THEN status_reason
                                WHEN $next = 'demoted' THEN $error ELSE NULL END,
           status = CASE WHEN status = 'stale' OR $next IS NULL THEN status ELSE $next END
         WHERE name = $name`,
        {
          $calls: batch.calls,
          $failures: batch.failures,
          $last: batch.last_at,
          $windowCalls: recent.length,
          $windowFailures: recent.filter((call) => call.success === 0).length,
          $last5: last5Failures,
          $error: lastFailure ? clipReason(lastFailure.error) : null,
          $next: next,
          $agents: mergeAgents(knownAgents.get(name), batch.agents),
          $name: name,
        },
      );
      if (previous === 'demoted' && next === 'active') found.recovered.push(name);
      if (previous !== 'demoted' && previous !== 'stale' && next === 'demoted') found.demoted.push(name);
    }
    setCounter(db, LAST_CALL_COUNTER, Math.max(...batches.map((batch) => batch.last_id)));
    return found;
  });
  if (result.calls > 0) engine.noteExternalChange();
  return result;
}

/** Configured MCP servers by the prefix of their tools' names. */
type ConfiguredServers = Map<string, { scope: ToolScope; server: string | undefined }>;

/** A tool first seen in use: built-ins are global; MCP tools take their configured server's scope. */
function register(engine: RegistryWriter, batch: NewCalls, servers: ConfiguredServers): void {
  const name = batch.tool_name;
  const configured = servers.get(configuredServerPrefix(name, servers) ?? '');
  const server = configured?.server ?? mcpServerOf(name);
  const builtin = !configured && isBuiltinToolName(name);
  const scope: ToolScope = builtin
    ? 'global'
    : configured
      ? configured.scope
      : server?.startsWith('plugin_')
        ? 'plugin'
        : 'project';
  engine.store.run(
    `INSERT INTO tool_registry (name, scope, type, origin, server, status, discovered_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'active', ?, ?)`,
    [
      name,
      scope,
      builtin ? 'builtin' : 'mcp_tool',
      batch.hooked ? 'hook' : 'transcript',
      server ?? null,
      batch.first_at,
      batch.first_at,
    ],
  );
}
