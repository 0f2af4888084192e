/**
 * The memory MCP server as other agents start it: the command line, a stable copy under `<home>/bin/` (with
 * the sql.js wasm beside it, refreshed on each extension update, so configs never name a versioned
 * extension folder), and minimal edits of a project's `.mcp.json` that add or remove its entry.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recorderRuntime } from './recorderInstall';
import { makePrivateDir } from '../kernel/privateFiles';

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
  makePrivateDir(binDir);
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
