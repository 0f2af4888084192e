/**
 * Adding the memory MCP server to each agent's project config: real temp files, the agents' real config
 * files from test/fixtures, and adding then removing giving back every byte.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };
import type { MemoryServerInstaller, ServerLaunch, SettingsPlan } from '../../src/engine/agents/adapter';
import { claudeMemoryServer } from '../../src/engine/agents/claudeCode/memoryServer';
import { codexMemoryServer, tomlString } from '../../src/engine/agents/codex/memoryServer';
import { opencodeMemoryServer } from '../../src/engine/agents/opencode/memoryServer';
import { vscodeMemoryServer } from '../../src/engine/agents/vscode/memoryServer';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import { codexAdapter } from '../../src/engine/agents/codex';
import { opencodeAdapter } from '../../src/engine/agents/opencode';
import { vscodeAdapter } from '../../src/engine/agents/vscode';
import { parseJsonc, readSettingsText } from '../../src/engine/agents/jsoncEdit';
import { FIXTURES_DIR } from '../support/events';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const toml = require('smol-toml') as typeof SmolToml;

const HOME = '/home/u/.context-deck';
const launch: ServerLaunch = {
  command: '/usr/bin/node',
  args: [`${HOME}/bin/mcp.js`, '--project', '/work/app', '--home', HOME],
  env: {},
};
const electron: ServerLaunch = {
  command: '/opt/VS Code/code',
  args: launch.args,
  env: { ELECTRON_RUN_AS_NODE: '1' },
};
/** Spaces, quotes, backslashes, a tab and non-ASCII: what TOML and JSON must escape, or may not. */
const awkward: ServerLaunch = {
  command: 'C:\\Program Files\\nodejs\\node.exe',
  args: [
    'C:\\Users\\Zoë\\My "Deck" Home\\bin\\mcp.js',
    '--project',
    '/home/u/it\'s a "project"\twith tabs',
    '--home',
    '/home/u/[brackets] #hash = ok',
  ],
  env: { ELECTRON_RUN_AS_NODE: '1', 'ODD KEY.x': 'a"b\\c\nd' },
};

type Json = Record<string, unknown>;

interface AgentCase {
  name: string;
  installer: MemoryServerInstaller;
  /** Where configPath puts the file, relative to the project root. */
  relative: string;
  /** The launch the file's `context-deck` entry describes, undefined without one. */
  launchIn(text: string, file: string): ServerLaunch | undefined;
  fixtures: string[];
  malformed: string;
}

function jsonServer(text: string, file: string, container: string): Json | undefined {
  const value = parseJsonc(text, file) as Json;
  return (value[container] as Json | undefined)?.['context-deck'] as Json | undefined;
}

function stdioLaunch(server: Json | undefined): ServerLaunch | undefined {
  if (!server) return undefined;
  return {
    command: server.command as string,
    args: server.args as string[],
    env: (server.env as Record<string, string> | undefined) ?? {},
  };
}

const AGENTS: AgentCase[] = [
  {
    name: 'Claude Code',
    installer: claudeMemoryServer,
    relative: '.mcp.json',
    launchIn: (text, file) => stdioLaunch(jsonServer(text, file, 'mcpServers')),
    fixtures: [
      'mcp/claude-code-dot-mcp.marot-spotter.json',
      'mcp/claude-code-dot-mcp.env-expansion.docs-example.json',
    ],
    malformed: '{\n  "mcpServers": {\n    "github": { "command": "npx" \n  }\n',
  },
  {
    name: 'VS Code agent',
    installer: vscodeMemoryServer,
    relative: '.vscode/mcp.json',
    launchIn(text, file) {
      const server = jsonServer(text, file, 'servers');
      if (server) assert.equal(server.type, 'stdio');
      return stdioLaunch(server);
    },
    fixtures: ['mcp/vscode-mcp.0GiS0-youtube-mcp-server.jsonc'],
    malformed: '{\n  "servers": {\n    "a": { "type": "stdio", "command": "x",, }\n  }\n}\n',
  },
  {
    name: 'Codex CLI',
    installer: codexMemoryServer,
    relative: '.codex/config.toml',
    launchIn(text) {
      const config = toml.parse(text, { integersAsBigInt: 'asNeeded' }) as Json;
      const server = (config.mcp_servers as Json | undefined)?.['context-deck'];
      // smol-toml's tables have no prototype: plain JSON to compare.
      return stdioLaunch(server === undefined ? undefined : (JSON.parse(JSON.stringify(server)) as Json));
    },
    fixtures: ['codex/platformplatform.config.toml', 'codex/synthetic.config.toml'],
    malformed: '[mcp_servers.aspire]\ncommand = "aspire\nargs = ["agent"]\n',
  },
  {
    name: 'opencode',
    installer: opencodeMemoryServer,
    relative: 'opencode.json',
    launchIn(text, file) {
      const server = jsonServer(text, file, 'mcp');
      if (!server) return undefined;
      assert.equal(server.type, 'local');
      assert.equal(server.enabled, true);
      const command = server.command as string[];
      return {
        command: command[0],
        args: command.slice(1),
        env: (server.environment as Record<string, string> | undefined) ?? {},
      };
    },
    fixtures: ['opencode/opencode.0xC0D3D00D-opencode.config.excerpt.json'],
    malformed: '{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n',
  },
];

let root: string;
let counter = 0;

before(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-memory-server-'));
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** A fresh project folder; the agent's config file there holds `text` when it is given. */
function project(agent: AgentCase, text?: string): string {
  const projectRoot = path.join(root, `project ${++counter}`);
  fs.mkdirSync(projectRoot);
  const file = agent.installer.configPath(projectRoot, root);
  if (text !== undefined) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return file;
}

/** Write a plan as the host does: the new text, or no file at all. */
function apply(plan: SettingsPlan): void {
  if (plan.after === undefined) fs.rmSync(plan.file, { force: true });
  else {
    fs.mkdirSync(path.dirname(plan.file), { recursive: true });
    fs.writeFileSync(plan.file, plan.after);
  }
}

function add(agent: AgentCase, file: string, server: ServerLaunch): SettingsPlan {
  const plan = agent.installer.planAdd(file, readSettingsText(file), server);
  apply(plan);
  return plan;
}

function remove(agent: AgentCase, file: string): SettingsPlan {
  const plan = agent.installer.planRemove(file, readSettingsText(file));
  apply(plan);
  return plan;
}

test('each adapter offers its memory server installer', () => {
  assert.equal(claudeCodeAdapter.memoryServer, claudeMemoryServer);
  assert.equal(vscodeAdapter.memoryServer, vscodeMemoryServer);
  assert.equal(codexAdapter.memoryServer, codexMemoryServer);
  assert.equal(opencodeAdapter.memoryServer, opencodeMemoryServer);
});

for (const agent of AGENTS) {
  describe(`memory server for ${agent.name}`, () => {
    test('the file is the project config the agent reads', () => {
      assert.equal(
        agent.installer.configPath('/work/app', '/home/u'),
        path.join('/work/app', agent.relative),
      );
    });

    test('adding to an absent file creates it with just our server; removing removes the file', () => {
      const file = project(agent);
      assert.equal(agent.installer.isAdded(file, undefined), false);
      const plan = add(agent, file, launch);
      assert.equal(plan.before, undefined);
      assert.equal(plan.changes.length, 1);
      assert.match(
        plan.changes[0],
        /^add the MCP server "context-deck" \(.+\): \/usr\/bin\/node .*mcp\.js --project/,
      );
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.endsWith('\n'));
      assert.deepEqual(agent.launchIn(text, file), launch);
      assert.equal(agent.installer.isAdded(file, text), true);
      const removal = remove(agent, file);
      assert.equal(removal.after, undefined);
      assert.match(removal.changes[0], /^remove the MCP server "context-deck"/);
      assert.match(removal.changes.at(-1)!, /which holds nothing else$/);
      assert.equal(fs.existsSync(file), false);
      assert.deepEqual(agent.installer.planRemove(file, undefined).changes, []);
    });

    for (const fixture of agent.fixtures) {
      test(`adding to ${path.basename(fixture)} keeps the rest, and removing gives back every byte`, () => {
        const original = fs.readFileSync(path.join(FIXTURES_DIR, fixture), 'utf8');
        for (const server of [launch, electron]) {
          const file = project(agent, original);
          assert.equal(agent.installer.isAdded(file, original), false);
          assert.equal(agent.launchIn(original, file), undefined);
          const plan = add(agent, file, server);
          assert.equal(plan.changes.length, 1);
          const text = fs.readFileSync(file, 'utf8');
          assert.deepEqual(agent.launchIn(text, file), server);
          assert.equal(agent.installer.isAdded(file, text), true);
          const removal = remove(agent, file);
          assert.notEqual(removal.after, undefined, 'the file holds other settings');
          assert.equal(fs.readFileSync(file, 'utf8'), original);
        }
      });
    }

    test('adding twice changes nothing the second time; a new launch updates the entry', () => {
      const original = fs.readFileSync(path.join(FIXTURES_DIR, agent.fixtures[0]), 'utf8');
      const file = project(agent, original);
      add(agent, file, launch);
      const once = fs.readFileSync(file, 'utf8');
      const again = agent.installer.planAdd(file, once, launch);
      assert.deepEqual(again.changes, []);
      assert.equal(again.after, once);
      const update = add(agent, file, electron);
      assert.match(update.changes[0], /^update the MCP server "context-deck"/);
      assert.match(update.changes[0], /ELECTRON_RUN_AS_NODE=1 "?\/opt\/VS Code\/code/);
      assert.deepEqual(agent.launchIn(fs.readFileSync(file, 'utf8'), file), electron);
      remove(agent, file);
      assert.equal(fs.readFileSync(file, 'utf8'), original);
      assert.deepEqual(agent.installer.planRemove(file, original).changes, [], 'nothing left to remove');
    });

    test('paths with spaces, quotes, backslashes and tabs survive', () => {
      const file = project(agent);
      add(agent, file, awkward);
      const text = fs.readFileSync(file, 'utf8');
      assert.deepEqual(agent.launchIn(text, file), awkward);
      assert.deepEqual(agent.installer.planAdd(file, text, awkward).changes, []);
      remove(agent, file);
      assert.equal(fs.existsSync(file), false);
    });

    test('a file that does not parse throws and is left untouched', () => {
      const file = project(agent, agent.malformed);
      assert.throws(() => agent.installer.planAdd(file, agent.malformed, launch), /could not be parsed/);
      assert.throws(() => agent.installer.planRemove(file, agent.malformed), /could not be parsed/);
      assert.equal(agent.installer.isAdded(file, agent.malformed), false);
      assert.equal(fs.readFileSync(file, 'utf8'), agent.malformed);
    });
  });
}

describe('JSON configs', () => {
  const opencode = AGENTS.find((agent) => agent.name === 'opencode')!;
  const vscode = AGENTS.find((agent) => agent.name === 'VS Code agent')!;

  test('a config without the servers object gets its bytes back (the emptied object goes too)', () => {
    for (const [agent, original] of [
      [opencode, '{\n  "$schema": "https://opencode.ai/config.json",\n  // mine\n  "model": "x"\n}\n'],
      [vscode, '{\n\t"inputs": []\n}'],
      [AGENTS[0], '{ "other": true }\n'],
    ] as const) {
      const file = project(agent, original);
      add(agent, file, electron);
      assert.deepEqual(agent.launchIn(fs.readFileSync(file, 'utf8'), file), electron);
      remove(agent, file);
      assert.equal(fs.readFileSync(file, 'utf8'), original, agent.name);
    }
  });

  test('an existing opencode.jsonc is the file used, comments kept', () => {
    const projectRoot = path.join(root, 'opencode jsonc');
    fs.mkdirSync(projectRoot);
    assert.equal(opencodeMemoryServer.configPath(projectRoot, root), path.join(projectRoot, 'opencode.json'));
    const file = path.join(projectRoot, 'opencode.jsonc');
    const original =
      '{\n  // servers\n  "mcp": {\n    "a": { "type": "remote", "url": "https://a" },\n  },\n}\n';
    fs.writeFileSync(file, original);
    assert.equal(opencodeMemoryServer.configPath(projectRoot, root), file);
    add(opencode, file, launch);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(text.includes('// servers'));
    assert.deepEqual(opencode.launchIn(text, file), launch);
    remove(opencode, file);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
  });

  test('a servers key that is not an object is refused', () => {
    const text = '{ "mcp": [] }\n';
    assert.throws(
      () => opencodeMemoryServer.planAdd('/p/opencode.json', text, launch),
      /"mcp" is not an object/,
    );
  });
});

describe('Codex config.toml as text', () => {
  const codex = AGENTS.find((agent) => agent.name === 'Codex CLI')!;
  const FILE = '/p/.codex/config.toml';

  function roundTrip(original: string, server: ServerLaunch = electron): string {
    const added = codexMemoryServer.planAdd(FILE, original, server);
    assert.equal(added.changes.length, 1);
    assert.deepEqual(codex.launchIn(added.after!, FILE), server);
    const removed = codexMemoryServer.planRemove(FILE, added.after);
    assert.equal(removed.after, original);
    return added.after!;
  }

  test('the table is appended after a blank line, written as the docs write it', () => {
    const text = roundTrip('model = "gpt-5.5"\n');
    assert.equal(
      text,
      'model = "gpt-5.5"\n\n[mcp_servers.context-deck]\ncommand = "/opt/VS Code/code"\n' +
        `args = ["${HOME}/bin/mcp.js", "--project", "/work/app", "--home", "${HOME}"]\n` +
        'env = { ELECTRON_RUN_AS_NODE = "1" }\n',
    );
    assert.match(
      codexMemoryServer.planAdd(FILE, undefined, launch).changes[0],
      /^add the MCP server "context-deck" \(mcp_servers\.context-deck in \.codex\/config\.toml\): \/usr\/bin\/node /,
    );
    assert.ok(!codexMemoryServer.planAdd(FILE, undefined, launch).after!.includes('env'), 'no env when none');
  });

  test('files without a final line break, with CRLF, or blank keep their bytes', () => {
    roundTrip('model = "gpt-5.5"');
    roundTrip('model = "gpt-5.5"\r\n[features]\r\nhooks = true\r\n');
    assert.ok(!roundTrip('a = 1\r\n').replace(/\r\n/g, '').includes('\n'), 'CRLF throughout');
    roundTrip('\n');
    roundTrip('# only a comment\n\n');
    // Values of every kind pass the check that nothing else changed.
    roundTrip('t = 07:32:00\nd = 1979-05-27T07:32:00Z\nn = nan\nbig = 9007199254740993\n');
    const empty = codexMemoryServer.planAdd(FILE, '', launch);
    assert.equal(codexMemoryServer.planRemove(FILE, empty.after).after, undefined);
  });

  test('our table is found amid others and rewritten or removed by exactly its lines', () => {
    const user =
      '[mcp_servers.context-deck]\ncommand = "old"\nargs = []\n\n# the next one\n[mcp_servers.b]\ncommand = "b"\n';
    const updated = codexMemoryServer.planAdd(FILE, user, launch);
    assert.match(updated.changes[0], /^update/);
    assert.ok(updated.after!.endsWith('\n\n# the next one\n[mcp_servers.b]\ncommand = "b"\n'));
    assert.deepEqual(codex.launchIn(updated.after!, FILE), launch);
    const removed = codexMemoryServer.planRemove(FILE, `x = 1\n\n${user}`);
    assert.equal(removed.after, 'x = 1\n\n# the next one\n[mcp_servers.b]\ncommand = "b"\n');
    // Its sub-tables are part of it.
    const withEnv =
      '[mcp_servers.context-deck]\ncommand = "n"\n[mcp_servers.context-deck.env]\nA = "1"\n[z]\n';
    assert.equal(codexMemoryServer.planRemove(FILE, `y = 2\n\n${withEnv}`).after, 'y = 2\n[z]\n');
  });

  test('brackets inside strings and multi-line arrays are not taken for table headers', () => {
    const original =
      'notes = """\n[mcp_servers.context-deck]\n"""\nmatrix = [\n  ["a"],\n  ["b"]\n]\n' +
      "title = '[mcp_servers.context-deck]' # [x]\n";
    const text = roundTrip(original);
    assert.equal(codexMemoryServer.planRemove(FILE, text).after, original);
  });

  test('a server of that name declared otherwise is refused, never rewritten', () => {
    const inline = '[mcp_servers]\ncontext-deck = { command = "x", args = [] }\n';
    assert.throws(
      () => codexMemoryServer.planAdd(FILE, inline, launch),
      /declares mcp_servers\.context-deck in a form/,
    );
    assert.throws(() => codexMemoryServer.planRemove(FILE, inline), /not as its own table/);
    assert.equal(codexMemoryServer.isAdded(FILE, inline), true);
  });

  test('TOML strings escape backslashes, quotes and control characters', () => {
    for (const value of ['C:\\dir\\x', 'say "hi"', 'tab\tnew\nline\u0001\u007f', 'Zoë ✓', "it's"]) {
      assert.equal((toml.parse(`v = ${tomlString(value)}`) as Json).v, value);
    }
  });
});
