/**
 * A config scan into the registry, then the staleness diff (seed 002): a config-sourced tool missing from
 * the new scan of its own scope goes stale, a removed MCP server takes its tools with it, a tool that
 * reappears comes back. Nothing is ever deleted, and a file that failed to parse removes nothing.
 */
import type { Store } from '../storage/store';
import { displayPath } from '../agents/configLocations';
import { DEMOTE_FAILURES, type RegistryWriter, assertWriter, readRows } from './registryDb';
import { configuredServerPrefix, serverToolPrefix } from '../agents/toolNames';
import type { ToolScope, ToolStatus, ToolType } from '../../shared/tools';
import type { ConfigScan } from '../agents/toolTypes';

export interface ScanApplied {
  /** Entries seen for the first time. */
  added: string[];
  /** Tools that went stale, their servers' tools included. */
  staled: string[];
  /** Stale tools that came back (active, or demoted again if their last calls still fail). */
  restored: string[];
  /** Time the whole pass took, for the 50 ms budget. */
  ms: number;
}

/** A stale tool coming back resumes the state its own calls give it. */
const RESTORED_STATUS = `CASE WHEN last5_failures >= ${DEMOTE_FAILURES} THEN 'demoted' ELSE 'active' END`;
const RESTORED_REASON = `CASE WHEN last5_failures >= ${DEMOTE_FAILURES} THEN last_error ELSE NULL END`;

const UPSERT = `
  INSERT INTO tool_registry
    (name, scope, type, origin, source, line, server, description, disabled, declared_by, status, discovered_at,
     updated_at)
  VALUES (?, ?, ?, 'config', ?, ?, ?, ?, ?, ?, 'active', ?, ?)
  ON CONFLICT (name, scope) DO UPDATE SET
    type = excluded.type, origin = 'config', source = excluded.source, line = excluded.line,
    declared_by = excluded.declared_by,
    server = excluded.server, description = excluded.description, disabled = excluded.disabled,
    updated_at = excluded.updated_at,
    status = CASE WHEN status = 'stale' THEN ${RESTORED_STATUS} ELSE status END,
    status_reason = CASE WHEN status = 'stale' THEN ${RESTORED_REASON} ELSE status_reason END`;

type ConfigRow = {
  id: number;
  name: string;
  scope: ToolScope;
  type: ToolType;
  status: ToolStatus;
  source: string | null;
  line: number | null;
  server: string | null;
  description: string | null;
  disabled: number;
  declared_by: string | null;
};

/** Whether a scanned entry says anything the registry row doesn't already hold. */
function changed(row: ConfigRow, entry: ConfigScan['entries'][number]): boolean {
  return (
    row.status === 'stale' ||
    row.type !== entry.type ||
    row.source !== entry.source ||
    row.line !== entry.line ||
    row.server !== (entry.server ?? null) ||
    row.description !== (entry.description ?? null) ||
    row.disabled !== (entry.disabled ? 1 : 0) ||
    row.declared_by !== entry.agent
  );
}

export function applyScan(engine: RegistryWriter, scan: ConfigScan, now = Date.now()): ScanApplied {
  assertWriter(engine, 'update the tool registry');
  const started = performance.now();
  const db = engine.store;
  const key = (scope: string, name: string) => `${scope}\0${name}`;
  const reasonOf = (row: ConfigRow) =>
    `removed from ${row.source ? displayPath(row.source, scan.projectRoot, scan.userHome) : 'its config'}`;
  const changesBefore = db.number('SELECT total_changes()');
  const applied = db.transaction(() => {
    const before = new Map(
      readRows<ConfigRow>(
        db,
        `SELECT id, name, scope, type, status, source, line, server, description, disabled, declared_by
           FROM tool_registry WHERE origin = 'config'`,
      ).map((row) => [key(row.scope, row.name), row]),
    );
    const added: string[] = [];
    const restored: string[] = [];
    // A rescan mostly confirms what is known: those rows only get their confirmation time, in one statement.
    const confirmed: number[] = [];
    for (const entry of scan.entries) {
      const previous = before.get(key(entry.scope, entry.name));
      if (previous && !changed(previous, entry)) {
        confirmed.push(previous.id);
        continue;
      }
      if (!previous) added.push(entry.name);
      else if (previous.status === 'stale') restored.push(entry.name);
      db.run(UPSERT, [
        entry.name,
        entry.scope,
        entry.type,
        entry.source,
        entry.line,
        entry.server ?? null,
        entry.description ?? null,
        entry.disabled ? 1 : 0,
        entry.agent,
        now,
        now,
      ]);
    }
    db.run(`UPDATE tool_registry SET updated_at = ? WHERE id IN (SELECT value FROM json_each(?))`, [
      now,
      JSON.stringify(confirmed),
    ]);

    const scanned = new Set(scan.entries.map((entry) => key(entry.scope, entry.name)));
    const unreadable = new Set(
      scan.problems.filter((problem) => !problem.readWhole).map((problem) => problem.file),
    );
    const protectedScopes = new Set(scan.problems.flatMap((problem) => problem.protectsScope ?? []));
    const staled: string[] = [];
    const removedServers: ConfigRow[] = [];
    for (const [rowKey, row] of before) {
      if (
        row.status === 'stale' ||
        scanned.has(rowKey) ||
        !scan.scopes.includes(row.scope) ||
        protectedScopes.has(row.scope) ||
        (row.source !== null && unreadable.has(row.source))
      )
        continue;
      db.run(`UPDATE tool_registry SET status = 'stale', status_reason = ? WHERE id = ?`, [
        reasonOf(row),
        row.id,
      ]);
      staled.push(row.name);
      if (row.type === 'mcp_server') removedServers.push(row);
    }

    const removed = new Map(
      removedServers.map((row) => [
        serverToolPrefix(row.name),
        `server ${row.server ?? row.name} ${reasonOf(row)}`,
      ]),
    );
    const followed = followServers(db, removed);
    return { added, staled: [...staled, ...followed.staled], restored: [...restored, ...followed.restored] };
  });
  // A save copies the whole database out of sql.js: not for a scan that found everything as it was.
  if (db.number('SELECT total_changes()') !== changesBefore) engine.noteExternalChange();
  return { ...applied, ms: performance.now() - started };
}

type UsedMcpTool = {
  id: number;
  name: string;
  status: ToolStatus;
  last5_failures: number;
  last_error: string | null;
};

/**
 * MCP tools found in use follow their server: stale once no scope declares it any more (`removed` maps the
 * prefixes of servers this scan removed to the reason), back as soon as one does. One pass in memory: a
 * query per server would read the whole table each time.
 */
function followServers(db: Store, removed: Map<string, string>): { staled: string[]; restored: string[] } {
  const declared = new Set(
    readRows(db, `SELECT name FROM tool_registry WHERE type = 'mcp_server' AND status != 'stale'`).map(
      (row) => serverToolPrefix(String(row.name)),
    ),
  );
  const known = new Set([...declared, ...removed.keys()]);
  const staled: string[] = [];
  const restored: string[] = [];
  const tools = readRows<UsedMcpTool>(
    db,
    `SELECT id, name, status, last5_failures, last_error FROM tool_registry
     WHERE origin != 'config' AND type = 'mcp_tool'`,
  );
  for (const tool of tools) {
    const prefix = configuredServerPrefix(tool.name, known);
    if (prefix === undefined) continue;
    if (tool.status !== 'stale' && !declared.has(prefix) && removed.has(prefix)) {
      db.run(`UPDATE tool_registry SET status = 'stale', status_reason = ? WHERE id = ?`, [
        removed.get(prefix)!,
        tool.id,
      ]);
      staled.push(tool.name);
    } else if (tool.status === 'stale' && declared.has(prefix)) {
      const demoted = tool.last5_failures >= DEMOTE_FAILURES;
      db.run(`UPDATE tool_registry SET status = ?, status_reason = ? WHERE id = ?`, [
        demoted ? 'demoted' : 'active',
        demoted ? tool.last_error : null,
        tool.id,
      ]);
      restored.push(tool.name);
    }
  }
  return { staled, restored };
}
