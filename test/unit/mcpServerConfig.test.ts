/** Offering the memory MCP server to Claude Code: the stable copy and minimal, reversible .mcp.json edits. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { claudeMemoryServer } from '../../src/engine/agents/claudeCode/memoryServer';
import {
  claudeServerEntry,
  installServer,
  serverLaunch,
  stableServerPath,
} from '../../src/engine/agents/mcpServerConfig';

const FILE = '/p/.mcp.json';
const entry = { command: '/usr/bin/node', args: ['/h/bin/mcp.js', '--project', '/p', '--home', '/h'] };
const launch = { ...entry, env: {} };

describe('memory MCP server for Claude Code', () => {
  test('the launch runs the script for the project and home', () => {
    const launch = serverLaunch('/h/bin/mcp.js', '/p', '/h');
    assert.deepEqual(launch.args, ['/h/bin/mcp.js', '--project', '/p', '--home', '/h']);
    assert.ok(path.isAbsolute(launch.command));
    const withEnv = claudeServerEntry({ ...launch, env: { ELECTRON_RUN_AS_NODE: '1' } });
    assert.deepEqual(withEnv.env, { ELECTRON_RUN_AS_NODE: '1' });
    assert.equal(claudeServerEntry({ ...launch, env: {} }).env, undefined);
  });

  test('adding keeps comments and other servers, and removing restores the file byte for byte', () => {
    const before = '{\n  // team servers\n  "mcpServers": {\n    "github": { "command": "npx" }\n  }\n}\n';
    const plan = claudeMemoryServer.planAdd(FILE, before, launch);
    assert.equal(plan.changes.length, 1);
    assert.match(plan.changes[0], /^add the MCP server "context-deck"/);
    const after = plan.after ?? '';
    assert.ok(after.includes('// team servers'));
    const parsed = JSON.parse(after.replace(/\/\/.*$/m, '')) as { mcpServers: Record<string, unknown> };
    assert.deepEqual(parsed.mcpServers['context-deck'], entry);
    assert.ok(parsed.mcpServers.github);
    assert.deepEqual(
      claudeMemoryServer.planAdd(FILE, after, launch).changes,
      [],
      'already there: nothing to do',
    );
    assert.match(
      claudeMemoryServer.planAdd(FILE, after, { ...launch, command: 'node' }).changes[0],
      /^update/,
    );
    const removal = claudeMemoryServer.planRemove(FILE, after);
    assert.equal(removal.after, before);
    assert.deepEqual(claudeMemoryServer.planRemove(FILE, before).changes, []);
  });

  test('a missing file is created with just our server', () => {
    const plan = claudeMemoryServer.planAdd(FILE, undefined, launch);
    assert.deepEqual(JSON.parse(plan.after ?? ''), { mcpServers: { 'context-deck': entry } });
    assert.equal(claudeMemoryServer.planRemove(FILE, plan.after).after, undefined, 'removed again');
    assert.deepEqual(claudeMemoryServer.planRemove(FILE, undefined).changes, []);
  });

  test('the stable copy holds the server and its wasm, rewritten only when they changed', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-mcp-install-'));
    try {
      const dist = path.join(root, 'dist');
      fs.mkdirSync(dist);
      fs.writeFileSync(path.join(dist, 'mcp.js'), 'v1');
      fs.writeFileSync(path.join(dist, 'sql-wasm.wasm'), 'wasm');
      const home = path.join(root, 'home');
      assert.deepEqual(installServer(home, dist), { path: stableServerPath(home), updated: true });
      assert.equal(fs.readFileSync(path.join(home, 'bin', 'sql-wasm.wasm'), 'utf8'), 'wasm');
      assert.equal(installServer(home, dist).updated, false);
      fs.writeFileSync(path.join(dist, 'mcp.js'), 'v2');
      assert.equal(installServer(home, dist).updated, true);
      assert.equal(fs.readFileSync(stableServerPath(home), 'utf8'), 'v2');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
