/**
 * The memory MCP server as other agents start it: the command line, a stable copy under `<home>/bin/` (with
 * the sql.js wasm beside it, refreshed on each extension update, so configs never name a versioned
 * extension folder), and minimal edits of a project's `.mcp.json` that add or remove its entry.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HookPlan } from './claudeCode/hookSettings';
import { JsoncDocument } from './jsoncEdit';
import { recorderRuntime } from './recorderInstall';

/** The server's name in `.mcp.json`; Claude Code shows its tools as `mcp__context-deck__<tool>`. */
export const CLAUDE_SERVER_NAME = 'context-deck';
const SERVER_FILES = ['mcp.js', 'sql-wasm.wasm'];

/** How a server process is started: an absolute runtime, its arguments and extra environment. */
export interface ServerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** Launch `script` for a project with `node` from PATH, else this editor's runtime acting as Node. */
export function serverLaunch(script: string, root: string, home: string): ServerLaunch {
  const runtime = recorderRuntime();
  return {
    command: runtime.node,
    args: [script, '--project', root, '--home', home],
    env: runtime.electronRunAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {},
  };
}

export function stableServerPath(home: string): string {
  return path.join(home, 'bin', 'mcp.js');
}

/** Copy the bundled server and its wasm to `<home>/bin/` when they differ; returns the server's path. */
export function installServer(home: string, distDir: string): { path: string; updated: boolean } {
  const binDir = path.dirname(stableServerPath(home));
  let updated = false;
  fs.mkdirSync(binDir, { recursive: true });
  for (const name of SERVER_FILES) {
    const bytes = fs.readFileSync(path.join(distDir, name));
    const target = path.join(binDir, name);
    let current: Buffer | undefined;
    try {
      current = fs.readFileSync(target);
    } catch {
      // Not installed yet.
    }
    if (current?.equals(bytes)) continue;
    // Rename over the old copy: a server starting now reads either version, never half of one.
    const temp = `${target}.tmp-${process.pid}`;
    fs.writeFileSync(temp, bytes, { mode: 0o600 });
    fs.renameSync(temp, target);
    updated = true;
  }
  return { path: stableServerPath(home), updated };
}

/** An `mcpServers` entry of Claude Code's `.mcp.json`. */
export interface ClaudeServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The `.mcp.json` entry for Claude Code. */
export function claudeServerEntry(launch: ServerLaunch): ClaudeServerEntry {
  return {
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The minimal edit of `<root>/.mcp.json` that adds (or updates) our server entry. */
export function planServerInstall(
  file: string,
  before: string | undefined,
  entry: ClaudeServerEntry,
): HookPlan {
  const document = new JsoncDocument(before, file);
  const value = document.value as { mcpServers?: Record<string, unknown> } | null;
  const existing = value?.mcpServers?.[CLAUDE_SERVER_NAME];
  if (sameJson(existing, entry)) return { file, before, after: before ?? '', changes: [] };
  document.set(['mcpServers', CLAUDE_SERVER_NAME], entry);
  const commandLine = [
    ...Object.entries(entry.env ?? {}).map(([name, value]) => `${name}=${value}`),
    entry.command,
    ...entry.args,
  ].join(' ');
  return {
    file,
    before,
    after: document.text,
    changes: [
      `${existing === undefined ? 'add' : 'update'} the MCP server "${CLAUDE_SERVER_NAME}" (mcpServers.${CLAUDE_SERVER_NAME}): ${commandLine}`,
    ],
  };
}

/** The minimal edit that removes our server entry, leaving everything else as it was. */
export function planServerUninstall(file: string, before: string | undefined): HookPlan {
  if (before === undefined || !before.trim()) return { file, before, after: before ?? '', changes: [] };
  const document = new JsoncDocument(before, file);
  const value = document.value as { mcpServers?: Record<string, unknown> } | null;
  if (value?.mcpServers?.[CLAUDE_SERVER_NAME] === undefined)
    return { file, before, after: before, changes: [] };
  document.remove(['mcpServers', CLAUDE_SERVER_NAME]);
  return {
    file,
    before,
    after: document.text,
    changes: [`remove the MCP server "${CLAUDE_SERVER_NAME}" (mcpServers.${CLAUDE_SERVER_NAME})`],
  };
}
