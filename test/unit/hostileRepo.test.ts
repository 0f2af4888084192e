/**
 * A cloned repository is hostile input to the config scan: links that loop, links to /dev/zero, FIFOs,
 * huge and deeply nested configs, keys written twice. Each scan must finish, keep the tools of the other
 * files and name the file it could not take in a warning. Whatever could hang or read without end runs as
 * a real child process, killed at the hang bound, so a regression fails instead of
 * hanging the suite (a read of /dev/zero without bound ends at Node's 4 GB buffer limit, with an error).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { applyScan } from '../../src/engine/registry/applyScan';
import { scanConfigs } from '../../src/engine/registry/configScan';
import { scanConfigsOffThread } from '../../src/engine/registry/scanOffThread';
import type { ConfigScan } from '../../src/engine/agents/toolTypes';
import type { MemoryFile } from '../../src/engine/agents/contextFiles';
import { useBundle } from '../support/bundle';
import { startChild } from '../support/childRun';
import { tempWorkspace } from '../support/events';
import { REPO_ROOT } from '../support/processes';

const SCAN_CHILD = path.join(REPO_ROOT, 'test', 'support', 'scanChild.ts');
const bundled = useBundle({ configScanWorker: 'src/engine/workers/configScanWorker.ts' });

let ws: ReturnType<typeof tempWorkspace>;
let userHome: string;

beforeEach(() => {
  ws = tempWorkspace('cd-hostile-repo-');
  userHome = path.join(path.dirname(ws.project), 'user');
  fs.mkdirSync(userHome);
});
afterEach(() => ws.cleanup());

function place(relative: string, text: string): string {
  const file = path.join(ws.project, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function link(relative: string, target: string): void {
  const file = path.join(ws.project, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.symlinkSync(target, file);
}

function mkfifo(relative: string): void {
  const file = path.join(ws.project, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  assert.equal(spawnSync('mkfifo', [file]).status, 0, `mkfifo ${file}`);
}

/** The agents' homes inside the temp dir. */
const agentEnv = () => ({
  CODEX_HOME: path.join(userHome, '.codex'),
  XDG_CONFIG_HOME: path.join(userHome, '.config'),
  CLAUDE_CONFIG_DIR: '',
  OPENCODE_CONFIG: '',
});

/** Run the scan (or the memory count) in a child. */
async function inChild<T>(what: 'scan' | 'memory' | 'settings'): Promise<T> {
  const run = startChild(process.execPath, ['--import', 'tsx', SCAN_CHILD, what, ws.project, userHome], {
    env: agentEnv(),
  });
  const code = await run.exited;
  assert.equal(code, 0, `the ${what} finished (exit ${code}): ${run.stderr.slice(-2000)}`);
  return JSON.parse(run.stdout) as T;
}

const scan = () => inChild<ConfigScan>('scan');

const names = (result: ConfigScan) => result.entries.map((entry) => entry.name);

function warningFor(result: ConfigScan, relative: string): string {
  const file = path.join(ws.project, relative);
  const found = result.problems.find((problem) => problem.file === file);
  assert.ok(found, `a warning names ${relative}: ${JSON.stringify(result.problems)}`);
  return found.message;
}

/** Tools in files no hostile test touches, which every scan must still return. */
function goodFiles(): void {
  place('.claude/agents/reviewer.md', '---\ndescription: Reviews\n---\n');
  place('.cursor/mcp.json', '{ "mcpServers": { "good": { "command": "good-server" } } }');
}

function assertGoodTools(result: ConfigScan): void {
  assert.ok(names(result).includes('reviewer'), `the subagent is found: ${names(result).join(', ')}`);
  assert.ok(names(result).includes('mcp__good__*'), `the good server is found: ${names(result).join(', ')}`);
}

/** Every file the scan reads from a repository. */
const REPO_FILES = [
  '.mcp.json',
  '.claude/settings.json',
  '.claude/skills/pdf/SKILL.md',
  '.claude/commands/deploy.md',
  '.vscode/mcp.json',
  'opencode.json',
  '.codex/config.toml',
];

describe('hostile repositories: the scan finishes, keeps the other tools and names the file', () => {
  test('two links to . in .claude/commands are not followed', async () => {
    goodFiles();
    place('.claude/commands/hello.md', 'Say hello\n');
    link('.claude/commands/a', '.');
    link('.claude/commands/b', '.');
    const result = await scan();
    assertGoodTools(result);
    assert.deepEqual(
      names(result).filter((name) => name.startsWith('/')),
      ['/hello'],
    );
    assert.match(
      warningFor(result, '.claude/commands'),
      /links to folders it holds \([ab]\): they are not followed/,
    );
  });

  test('a folder nested deeper than the walk goes is cut off with a warning', async () => {
    goodFiles();
    place(`.claude/commands/${'d/'.repeat(40)}deep.md`, 'Deep\n');
    const result = await scan();
    assertGoodTools(result);
    assert.match(warningFor(result, '.claude/commands'), /deeper than \d+ levels/);
  });

  test('config and tool files linked to /dev/zero are not read', async () => {
    goodFiles();
    fs.mkdirSync(path.join(ws.project, '.claude', 'skills', 'pdf'), { recursive: true });
    for (const file of REPO_FILES) link(file, '/dev/zero');
    const result = await scan();
    assertGoodTools(result);
    for (const file of REPO_FILES)
      assert.match(warningFor(result, file), /is a device, not a regular file: not read/);
  });

  test('config and tool files that are FIFOs are not waited on', async () => {
    goodFiles();
    for (const file of REPO_FILES) mkfifo(file);
    const result = await scan();
    assertGoodTools(result);
    for (const file of REPO_FILES)
      assert.match(warningFor(result, file), /is a named pipe, not a regular file: not read/);
  });

  test('a config linked out of the repository is not read, whichever agent reads it', async () => {
    goodFiles();
    const outside = path.join(path.dirname(ws.project), 'elsewhere.json');
    fs.writeFileSync(
      outside,
      JSON.stringify({ mcpServers: { planted: {} }, servers: { planted: {} }, mcp: { planted: {} } }),
    );
    const files = ['.mcp.json', '.vscode/mcp.json', 'opencode.json'];
    for (const file of files) link(file, outside);
    const result = await scan();
    assertGoodTools(result);
    assert.deepEqual(
      names(result).filter((name) => name.includes('planted')),
      [],
    );
    for (const file of files) assert.match(warningFor(result, file), /is a link out of .*: not read/);
  });

  test('a config larger than the cap is refused with its size', async () => {
    goodFiles();
    const servers = Array.from({ length: 130_000 }, (_, i) => `"s${i}": { "command": "x" }`);
    place('.mcp.json', `{ "mcpServers": { ${servers.join(', ')} } }`);
    const result = await scan();
    assertGoodTools(result);
    assert.match(warningFor(result, '.mcp.json'), /is larger than 1024 KB: not read/);
  });

  test("the user's own ~/.claude.json is not held to a repository's cap", async () => {
    goodFiles();
    const padding = 'x'.repeat(2 * 1024 * 1024);
    const claudeJson = {
      projects: { elsewhere: { notes: padding } },
      mcpServers: { mine: { command: 'm' } },
    };
    fs.writeFileSync(path.join(userHome, '.claude.json'), JSON.stringify(claudeJson));
    const result = await scan();
    assertGoodTools(result);
    assert.ok(names(result).includes('mcp__mine__*'), names(result).join(', '));
  });

  test('30,000 servers in one file: the first 1,000 are taken, with a warning', async () => {
    goodFiles();
    const servers = Array.from({ length: 30_000 }, (_, i) => `"s${i}":{}`);
    place('.mcp.json', `{"mcpServers":{${servers.join(',')}}}`);
    const result = await scan();
    assertGoodTools(result);
    assert.equal(names(result).filter((name) => /^mcp__s\d+__\*$/.test(name)).length, 1000);
    assert.match(warningFor(result, '.mcp.json'), /has 30000 entries: only the first 1000 are shown/);
  });

  test('200,000 levels of nesting are refused before parsing, in JSON and TOML', async () => {
    goodFiles();
    const deep = 200_000;
    place('.mcp.json', `{ "mcpServers": { "a": { "args": ${'['.repeat(deep)}${']'.repeat(deep)} } } }`);
    place('.codex/config.toml', `[mcp_servers.a]\nargs = ${'['.repeat(deep)}${']'.repeat(deep)}\n`);
    const result = await scan();
    assertGoodTools(result);
    assert.match(warningFor(result, '.mcp.json'), /nests deeper than 100 levels at line 1: not read/);
    assert.match(warningFor(result, '.codex/config.toml'), /could not be parsed as TOML: .*nested/);
  });

  test('a JSON key written twice counts as its last definition, as the agent takes it, with a warning', async () => {
    goodFiles();
    place(
      '.mcp.json',
      '{\n  "mcpServers": {\n    "db": { "command": "first" },\n    "db": { "command": "second" }\n  }\n}\n',
    );
    const result = await scan();
    assertGoodTools(result);
    const db = result.entries.filter((entry) => entry.name === 'mcp__db__*');
    assert.equal(db.length, 1);
    assert.equal(db[0].description, 'stdio: second');
    assert.equal(db[0].line, 4);
    assert.match(warningFor(result, '.mcp.json'), /"db" of "mcpServers" written more than once: the last/);
  });

  test("VS Code's and opencode's servers written twice count as their last definition too, with a warning", async () => {
    goodFiles();
    place(
      '.vscode/mcp.json',
      '{ "servers": { "db": { "command": "first" }, "db": { "command": "second" } } }',
    );
    place('opencode.json', '{ "mcp": { "db": { "command": ["first"] }, "db": { "command": ["second"] } } }');
    const result = await scan();
    assertGoodTools(result);
    for (const [name, file] of [
      ['mcp_db_*', '.vscode/mcp.json'],
      ['db_*', 'opencode.json'],
    ]) {
      const db = result.entries.filter((entry) => entry.name === name);
      assert.deepEqual(
        db.map((entry) => entry.description),
        ['stdio: second'],
        `${file}: ${names(result).join(', ')}`,
      );
      assert.match(warningFor(result, file), /"db" of "(servers|mcp)" written more than once: the last/);
    }
  });

  test('a file with a key written twice is still read whole: a server removed from it goes stale', async () => {
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      place('.mcp.json', '{ "mcpServers": { "db": {}, "old": {} } }');
      applyScan(engine, scanConfigs({ projectRoot: ws.project, userHome }));
      place('.mcp.json', '{ "mcpServers": { "db": {}, "db": {} } }');
      const result = scanConfigs({ projectRoot: ws.project, userHome });
      assert.match(warningFor(result, '.mcp.json'), /written more than once/);
      assert.deepEqual(applyScan(engine, result).staled, ['mcp__old__*']);
    } finally {
      await engine.close();
    }
  });

  test('a TOML key written twice is an error, as for Codex: the file is named', async () => {
    goodFiles();
    place(
      '.codex/config.toml',
      '[mcp_servers.db]\ncommand = "first"\n[mcp_servers.db]\ncommand = "second"\n',
    );
    const result = await scan();
    assertGoodTools(result);
    assert.match(warningFor(result, '.codex/config.toml'), /could not be parsed as TOML: .*redefine/);
  });

  test('a config.toml with 16,000 servers is read in one pass: the first 1,000 with their lines', async () => {
    goodFiles();
    const tables = Array.from({ length: 16_000 }, (_, i) => `[mcp_servers.s${i}]\ncommand = "npx"\n`);
    place('.codex/config.toml', tables.join(''));
    const result = await scan();
    assertGoodTools(result);
    const codex = result.entries.filter((entry) => entry.source.endsWith('config.toml'));
    assert.equal(codex.length, 1000);
    assert.equal(codex[999].line, 999 * 2 + 1);
    assert.match(warningFor(result, '.codex/config.toml'), /has 16000 entries: only the first 1000/);
  });
});

describe("the scan off the host's thread", () => {
  // The worker reads the agents' homes from this process's environment.
  let saved: NodeJS.ProcessEnv;
  beforeEach(() => {
    saved = { ...process.env };
    Object.assign(process.env, agentEnv());
  });
  afterEach(() => {
    process.env = saved;
  });

  test('the worker returns the scan of a repository with a link loop and a /dev/zero .mcp.json', async () => {
    goodFiles();
    link('.claude/commands/a', '.');
    link('.mcp.json', '/dev/zero');
    const result = await scanConfigsOffThread(
      { projectRoot: ws.project, userHome },
      bundled('configScanWorker'),
    );
    assertGoodTools(result);
    assert.match(warningFor(result, '.mcp.json'), /is a device/);
    assert.match(warningFor(result, '.claude/commands'), /not followed/);
  });

  test('a scan that never answers is abandoned as a scan of nothing, which keeps every tool', async () => {
    const stuck = path.join(path.dirname(ws.project), 'stuck.js');
    fs.writeFileSync(stuck, 'for (;;) {}\n');
    const result = await scanConfigsOffThread({ projectRoot: ws.project, userHome }, stuck, 200);
    assert.deepEqual(result.scopes, []);
    assert.deepEqual(result.entries, []);
    assert.match(warningFor(result, ''), /took longer than 0.2 s: it was stopped/);
  });
});

describe('hostile settings files read for the connection status', () => {
  test('settings.json linked to /dev/zero and settings.local.json as a FIFO are refused, not read', async () => {
    link('.claude/settings.json', '/dev/zero');
    mkfifo('.claude/settings.local.json');
    const [shared, local] = await inChild<Array<{ file: string; error?: string }>>('settings');
    assert.match(shared.error ?? '', /settings\.json is a device, not a regular file/);
    assert.match(local.error ?? '', /settings\.local\.json is a named pipe, not a regular file/);
  });
});

describe('hostile memory files', () => {
  test('CLAUDE.md as a FIFO or /dev/zero and a rules folder linking to itself are bounded', async () => {
    place('.claude/CLAUDE.md', 'Project rules\n');
    place('.claude/rules/style.md', 'Use tabs\n');
    link('.claude/rules/a', '.');
    link('.claude/rules/b', '.');
    link('CLAUDE.md', '/dev/zero');
    mkfifo('CLAUDE.local.md');
    const files = await inChild<MemoryFile[]>('memory');
    const shown = files.map((file) => path.relative(ws.project, file.file));
    assert.ok(shown.includes(path.join('.claude', 'CLAUDE.md')), shown.join(', '));
    assert.deepEqual(
      shown.filter((file) => file.includes('rules')),
      [path.join('.claude', 'rules', 'style.md')],
    );
    assert.ok(!shown.includes('CLAUDE.md') && !shown.includes('CLAUDE.local.md'), shown.join(', '));
  });
});
