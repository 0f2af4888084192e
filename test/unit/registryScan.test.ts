import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import { SettingsParseError, parseJsonc } from '../../src/engine/agents/jsoncEdit';
import {
  type ConfigEntry,
  planProjectServerEnabled,
  readFrontMatter,
  scanConfigs,
  writeProjectServerEnabled,
} from '../../src/engine/registry';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
let userHome: string;

beforeEach(() => {
  ws = tempWorkspace('cd-registry-scan-');
  userHome = path.join(path.dirname(ws.project), 'user');
  fs.mkdirSync(userHome);
});
afterEach(() => ws.cleanup());

function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8');
}

/** Put a fixture (or text) at a path below `root`, creating folders. */
function place(root: string, relative: string, text: string): string {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** Claude Code's documented examples: the project's `.mcp.json`, and the user's `.claude.json` naming this project. */
function placeClaudeCodeServers(): void {
  place(ws.project, '.mcp.json', fixture('mcp/claude-code-dot-mcp.env-expansion.docs-example.json'));
  // The local-scope example names "/path/to/your/project": here, the temp project.
  place(
    userHome,
    '.claude.json',
    fixture('mcp/claude-code-dot-claude-json.local-scope.docs-example.json').replace(
      '/path/to/your/project',
      ws.project,
    ),
  );
}

function scan() {
  return scanConfigs({ projectRoot: ws.project, userHome });
}

/** The fields worth comparing by hand; descriptions are checked where they matter. */
function summary(entries: ConfigEntry[]) {
  return entries.map(({ name, type, scope, source, line, server, disabled }) => ({
    name,
    type,
    scope,
    source: path.relative(path.dirname(ws.project), source),
    line,
    ...(server === undefined ? {} : { server }),
    ...(disabled ? { disabled } : {}),
  }));
}

describe('config scan: the real fixture files', () => {
  test('project and user files of Claude Code, VS Code and Cursor parse into the entries they declare', () => {
    placeClaudeCodeServers();
    place(ws.project, '.vscode/mcp.json', fixture('mcp/vscode-mcp.0GiS0-youtube-mcp-server.jsonc'));
    place(ws.project, '.cursor/mcp.json', fixture('mcp/cursor-mcp.0xJacky-nginx-ui.json'));
    place(
      ws.project,
      '.claude/skills/oban/SKILL.md',
      fixture('skills/marot-spotter.dot-claude.skills.oban.SKILL.md'),
    );
    place(
      ws.project,
      '.claude/skills/frontend-design/SKILL.md',
      fixture('skills/anthropics-claude-code.plugins.frontend-design.skills.frontend-design.SKILL.md'),
    );
    place(
      ws.project,
      '.claude/commands/commit-push-pr.md',
      fixture('commands/anthropics-claude-code.dot-claude.commands.commit-push-pr.md'),
    );
    place(
      ws.project,
      '.claude/commands/review/code-review.md',
      fixture('commands/anthropics-claude-code.plugins.code-review.commands.code-review.md'),
    );
    place(
      ws.project,
      '.claude/agents/code-reviewer.md',
      fixture('agents/anthropics-claude-code.plugins.pr-review-toolkit.agents.code-reviewer.md'),
    );
    place(
      userHome,
      '.claude/commands/commit.md',
      fixture('commands/anthropics-claude-code.plugins.commit-commands.commands.commit.md'),
    );
    place(
      userHome,
      '.claude/agents/code-explorer.md',
      fixture('agents/anthropics-claude-code.plugins.feature-dev.agents.code-explorer.md'),
    );

    const result = scan();
    assert.deepEqual(result.problems, []);
    assert.deepEqual(result.scopes, ['global', 'project', 'plugin']);
    assert.deepEqual(summary(result.entries), [
      {
        name: '/commit',
        type: 'slash_command',
        scope: 'global',
        source: 'user/.claude/commands/commit.md',
        line: 1,
      },
      {
        name: 'code-explorer',
        type: 'subagent',
        scope: 'global',
        source: 'user/.claude/agents/code-explorer.md',
        line: 1,
      },
      {
        name: 'mcp__stripe__*',
        type: 'mcp_server',
        scope: 'project',
        source: 'user/.claude.json',
        line: 5,
        server: 'stripe',
      },
      {
        name: 'mcp__api-server__*',
        type: 'mcp_server',
        scope: 'project',
        source: 'project/.mcp.json',
        line: 3,
        server: 'api-server',
      },
      {
        name: 'frontend-design',
        type: 'skill',
        scope: 'project',
        source: 'project/.claude/skills/frontend-design/SKILL.md',
        line: 1,
      },
      {
        name: 'oban',
        type: 'skill',
        scope: 'project',
        source: 'project/.claude/skills/oban/SKILL.md',
        line: 1,
      },
      {
        name: '/commit-push-pr',
        type: 'slash_command',
        scope: 'project',
        source: 'project/.claude/commands/commit-push-pr.md',
        line: 1,
      },
      {
        name: '/review:code-review',
        type: 'slash_command',
        scope: 'project',
        source: 'project/.claude/commands/review/code-review.md',
        line: 1,
      },
      {
        name: 'code-reviewer',
        type: 'subagent',
        scope: 'project',
        source: 'project/.claude/agents/code-reviewer.md',
        line: 1,
      },
      {
        name: 'mcp__eslint__*',
        type: 'mcp_server',
        scope: 'project',
        source: 'project/.cursor/mcp.json',
        line: 3,
        server: 'eslint',
      },
      {
        name: 'mcp__context7__*',
        type: 'mcp_server',
        scope: 'project',
        source: 'project/.cursor/mcp.json',
        line: 8,
        server: 'context7',
      },
      // VS Code's servers, named as VS Code names their tools (mcp_<server>_<tool>).
      {
        name: 'mcp_remote-mcp_*',
        type: 'mcp_server',
        scope: 'project',
        source: 'project/.vscode/mcp.json',
        line: 3,
        server: 'remote-mcp',
      },
      {
        name: 'mcp_stdio-mcp_*',
        type: 'mcp_server',
        scope: 'project',
        source: 'project/.vscode/mcp.json',
        line: 7,
        server: 'stdio-mcp',
      },
    ]);
    const describe = (name: string) => result.entries.find((entry) => entry.name === name)?.description;
    assert.equal(describe('mcp__stripe__*'), 'http: https://mcp.stripe.com');
    // Environment variables are the agent's to expand when it starts the server; shown as written.
    assert.equal(describe('mcp__api-server__*'), 'http: ${API_BASE_URL:-https://api.example.com}/mcp');
    assert.equal(describe('mcp_remote-mcp_*'), 'sse: http://localhost:3001/sse');
    assert.equal(describe('mcp_stdio-mcp_*'), 'stdio: node mcp-stdio/build/index.js');
    assert.equal(describe('mcp__context7__*'), 'stdio: npx -y @upstash/context7-mcp');
    assert.equal(
      describe('oban'),
      'Use this skill when working with Oban background jobs, queues, or scheduled work.',
    );
    assert.equal(describe('/commit-push-pr'), 'Commit, push, and open a PR');
    assert.equal(describe('/commit'), 'Create a git commit');
    assert.match(describe('code-explorer')!, /^Deeply analyzes existing codebase features/);
    const reviewer = describe('code-reviewer')!;
    assert.equal(reviewer.length, 500, 'long descriptions are clipped');
    assert.ok(reviewer.endsWith('…'));
  });

  test("Claude Desktop's config has the shape of ~/.claude.json's user servers: five global servers", () => {
    place(
      userHome,
      '.claude.json',
      fixture('mcp/claude-desktop-config.3rzy-claude-google-workspace-config.json'),
    );
    const result = scan();
    assert.deepEqual(
      result.entries.map((entry) => [entry.name, entry.scope, entry.line]),
      [
        ['mcp__brave-search__*', 'global', 3],
        ['mcp__filesystem__*', 'global', 12],
        ['mcp__github__*', 'global', 20],
        ['mcp__gdrive__*', 'global', 30],
        ['mcp__google-workspace-mcp__*', 'global', 41],
      ],
    );
  });

  test('installed plugins: their commands, skills, agents and MCP servers, named by plugin', () => {
    const plugins = path.join(userHome, '.claude', 'plugins');
    const cache = (id: string) => path.join(plugins, 'cache', 'claude-code-plugins', id);
    const hookify = cache('hookify/0.1.0');
    place(
      hookify,
      '.claude-plugin/plugin.json',
      fixture('plugins/anthropics-claude-code.plugins.hookify.plugin.json'),
    );
    place(
      hookify,
      'skills/writing-rules/SKILL.md',
      fixture('skills/anthropics-claude-code.plugins.hookify.skills.writing-rules.SKILL.md'),
    );
    place(
      hookify,
      'hooks/hooks.json',
      fixture('plugins/anthropics-claude-code.plugins.hookify.hooks.hooks.json'),
    );
    const security = cache('security-guidance/2.0.0');
    place(
      security,
      '.claude-plugin/plugin.json',
      fixture('plugins/anthropics-claude-code.plugins.security-guidance.plugin.json'),
    );
    place(
      security,
      'hooks/hooks.json',
      fixture('plugins/anthropics-claude-code.plugins.security-guidance.hooks.hooks.json'),
    );
    const dbTools = cache('db-tools/1.0.0');
    place(dbTools, '.mcp.json', fixture('mcp/claude-code-plugin-dot-mcp.docs-example.json'));
    place(
      dbTools,
      'commands/commit.md',
      fixture('commands/anthropics-claude-code.plugins.commit-commands.commands.commit.md'),
    );
    place(
      dbTools,
      'agents/code-explorer.md',
      fixture('agents/anthropics-claude-code.plugins.feature-dev.agents.code-explorer.md'),
    );
    const elsewhere = cache('commit-commands/1.0.0');
    place(
      elsewhere,
      'commands/commit.md',
      fixture('commands/anthropics-claude-code.plugins.commit-commands.commands.commit.md'),
    );
    place(
      plugins,
      'installed_plugins.json',
      JSON.stringify(
        {
          version: 2,
          plugins: {
            'hookify@claude-code-plugins': [{ scope: 'user', installPath: hookify, version: '0.1.0' }],
            'security-guidance@claude-code-plugins': [{ scope: 'user', installPath: security }],
            'commit-commands@claude-code-plugins': [
              { scope: 'project', projectPath: path.join(ws.project, 'other'), installPath: elsewhere },
            ],
            'db-tools@acme': [{ scope: 'local', projectPath: ws.project, installPath: dbTools }],
          },
        },
        null,
        2,
      ),
    );
    place(
      userHome,
      '.claude/settings.json',
      '{ "enabledPlugins": { "security-guidance@claude-code-plugins": false } }',
    );

    const result = scan();
    assert.deepEqual(result.problems, []);
    const cached = (file: string) => path.join('user/.claude/plugins/cache/claude-code-plugins', file);
    assert.deepEqual(summary(result.entries), [
      {
        name: 'hookify',
        type: 'plugin',
        scope: 'plugin',
        source: cached('hookify/0.1.0/.claude-plugin/plugin.json'),
        line: 1,
      },
      {
        name: 'hookify:writing-rules',
        type: 'skill',
        scope: 'plugin',
        source: cached('hookify/0.1.0/skills/writing-rules/SKILL.md'),
        line: 1,
      },
      {
        name: 'security-guidance',
        type: 'plugin',
        scope: 'plugin',
        source: cached('security-guidance/2.0.0/.claude-plugin/plugin.json'),
        line: 1,
        disabled: true,
      },
      {
        name: 'db-tools',
        type: 'plugin',
        scope: 'plugin',
        source: 'user/.claude/plugins/installed_plugins.json',
        line: 24,
      },
      {
        name: '/db-tools:commit',
        type: 'slash_command',
        scope: 'plugin',
        source: cached('db-tools/1.0.0/commands/commit.md'),
        line: 1,
      },
      {
        name: 'db-tools:code-explorer',
        type: 'subagent',
        scope: 'plugin',
        source: cached('db-tools/1.0.0/agents/code-explorer.md'),
        line: 1,
      },
      {
        name: 'mcp__plugin_db-tools_database-tools__*',
        type: 'mcp_server',
        scope: 'plugin',
        source: cached('db-tools/1.0.0/.mcp.json'),
        line: 3,
        server: 'plugin_db-tools_database-tools',
      },
    ]);
    const server = result.entries.find((entry) => entry.type === 'mcp_server')!;
    assert.equal(server.description, `stdio: ${dbTools}/servers/db-server --config ${dbTools}/config.json`);
    assert.match(result.entries[0].description!, /^Easily create hooks/);
  });

  test('${CLAUDE_PLUGIN_ROOT} is expanded only in plugin files, never in a project .mcp.json', () => {
    place(ws.project, '.mcp.json', fixture('mcp/claude-code-plugin-dot-mcp.docs-example.json'));
    const [entry] = scan().entries;
    assert.equal(
      entry.description,
      'stdio: ${CLAUDE_PLUGIN_ROOT}/servers/db-server --config ${CLAUDE_PLUGIN_ROOT}/config.json',
    );
  });

  test('servers switched off in disabledMcpjsonServers (settings files or ~/.claude.json) are marked disabled', () => {
    place(ws.project, '.mcp.json', fixture('mcp/claude-code-dot-mcp.marot-spotter.json'));
    place(ws.project, '.claude/settings.local.json', '{ "disabledMcpjsonServers": ["tidewave"] }');
    place(
      userHome,
      '.claude.json',
      JSON.stringify({ projects: { [ws.project]: { disabledMcpjsonServers: ['chrome-devtools'] } } }),
    );
    assert.deepEqual(
      scan().entries.map((entry) => [entry.name, entry.disabled]),
      [
        ['mcp__tidewave__*', true],
        ['mcp__chrome-devtools__*', true],
      ],
    );
  });

  test('a broken file is a problem with its position; a partial scan reads only its scopes', () => {
    place(
      ws.project,
      '.cursor/mcp.json',
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}\n',
    );
    place(userHome, '.claude/skills/notes/SKILL.md', '---\nname: notes\n---\n');
    const result = scan();
    assert.deepEqual(result.problems, [
      {
        file: path.join(ws.project, '.cursor/mcp.json'),
        message: 'not valid JSON: CommaExpected at line 4, column 5',
      },
    ]);
    const global = scanConfigs({ projectRoot: ws.project, userHome, scopes: ['global'] });
    assert.deepEqual(global.scopes, ['global']);
    assert.deepEqual(
      global.entries.map((entry) => entry.name),
      ['notes'],
    );
  });
});

describe('front matter reader', () => {
  test('plain, quoted, folded and literal scalars; nested maps skipped; CRLF; no front matter', () => {
    const doc = readFrontMatter(
      '---\r\nname: "quoted \\"name\\""\r\ndescription: >\r\n  Use when\r\n  testing.\r\nmetadata:\r\n  managed-by: rules\r\nnotes: |\r\n  one\r\n  two\r\nplain: it\'s: fine\r\n---\r\n# Body\r\n',
    );
    assert.deepEqual(doc.fields, {
      name: 'quoted "name"',
      description: 'Use when testing.',
      metadata: 'managed-by: rules',
      notes: 'one\ntwo',
      plain: "it's: fine",
    });
    assert.equal(doc.body, '# Body\n');
    assert.deepEqual(readFrontMatter('# Just a title\n'), { fields: {}, body: '# Just a title\n' });
    assert.equal(
      readFrontMatter("---\ndescription: 'single ''quoted'''\n---\n").fields.description,
      "single 'quoted'",
    );
  });
});

describe('disabling an MCP server for this project', () => {
  const HAND_WRITTEN = `{
  // Personal overrides: not committed.
  "permissions": {
    "allow": ["Bash(npm test)"], /* the usual */
  },
}
`;
  const settingsFile = () => path.join(ws.project, '.claude', 'settings.local.json');

  beforeEach(() => {
    place(ws.project, '.mcp.json', fixture('mcp/claude-code-dot-mcp.marot-spotter.json'));
  });

  function toggle(server: string, enabled: boolean) {
    const plan = planProjectServerEnabled({ projectRoot: ws.project, userHome, server, enabled });
    assert.ok(plan.supported, plan.supported ? '' : plan.reason);
    return plan;
  }

  const originals: Array<[string, () => string]> = [
    ['a hand-written file with comments and trailing commas', () => HAND_WRITTEN],
    [
      'a file that already lists another server',
      () => '{\n\t"disabledMcpjsonServers": [\n\t\t"chrome-devtools" // flaky\n\t],\n\t"model": "opus"\n}\n',
    ],
    [
      'the strict settings example',
      () => fixture('settings/anthropics-claude-code.examples.settings.settings-strict.json'),
    ],
  ];
  for (const [name, original] of originals) {
    test(`disable then re-enable round-trips byte for byte: ${name}`, () => {
      const before = original();
      place(ws.project, '.claude/settings.local.json', before);
      const disable = toggle('tidewave', false);
      assert.deepEqual(disable.changes, [
        'add "tidewave" to disabledMcpjsonServers in .claude/settings.local.json',
      ]);
      const disabled = parseJsonc(disable.after, 'settings') as Record<string, unknown>;
      assert.ok((disabled.disabledMcpjsonServers as string[]).includes('tidewave'));
      for (const comment of before.match(/\/\/.*|\/\*.*?\*\//g) ?? [])
        assert.ok(disable.after.includes(comment));
      const backup = writeProjectServerEnabled(disable, ws.home, Date.parse('2026-03-01T00:00:00Z'));
      assert.equal(fs.readFileSync(backup!, 'utf8'), before, 'a backup of the previous version');
      assert.equal(path.dirname(backup!), path.join(ws.home, 'backups'), "under Context Deck's home");
      assert.deepEqual(fs.readdirSync(path.join(ws.project, '.claude')), ['settings.local.json']);
      assert.equal(scan().entries.find((entry) => entry.name === 'mcp__tidewave__*')?.disabled, true);

      const enable = toggle('tidewave', true);
      assert.deepEqual(enable.changes, [
        'remove "tidewave" from disabledMcpjsonServers in .claude/settings.local.json',
      ]);
      assert.equal(enable.after, before);
      writeProjectServerEnabled(enable, ws.home);
      assert.equal(fs.readFileSync(settingsFile(), 'utf8'), before);
    });
  }

  test('without a settings file, disabling creates one and re-enabling leaves an empty object', () => {
    const disable = toggle('chrome-devtools', false);
    assert.equal(disable.before, undefined);
    writeProjectServerEnabled(disable, ws.home);
    assert.deepEqual(parseJsonc(fs.readFileSync(settingsFile(), 'utf8'), 'settings'), {
      disabledMcpjsonServers: ['chrome-devtools'],
    });
    writeProjectServerEnabled(toggle('chrome-devtools', true), ws.home);
    assert.deepEqual(parseJsonc(fs.readFileSync(settingsFile(), 'utf8'), 'settings'), {});
  });

  test('nothing to do when the file already says so; a file changed since planning is not overwritten', () => {
    place(ws.project, '.claude/settings.local.json', '{ "disabledMcpjsonServers": ["tidewave"] }\n');
    const again = toggle('tidewave', false);
    assert.deepEqual(again.changes, []);
    assert.equal(writeProjectServerEnabled(again, ws.home), undefined);
    const enable = toggle('tidewave', true);
    place(
      ws.project,
      '.claude/settings.local.json',
      '{ "disabledMcpjsonServers": ["tidewave"], "model": "opus" }\n',
    );
    assert.throws(() => writeProjectServerEnabled(enable, ws.home), /changed after the change was planned/);
  });

  test('re-enabling says where else the server is still disabled', () => {
    place(ws.project, '.claude/settings.json', '{ "disabledMcpjsonServers": ["tidewave"] }');
    place(ws.project, '.claude/settings.local.json', '{ "disabledMcpjsonServers": ["tidewave"] }');
    assert.deepEqual(toggle('tidewave', true).notes, ['tidewave is still disabled in .claude/settings.json']);
  });

  test('a settings file that does not parse is never touched', () => {
    place(ws.project, '.claude/settings.local.json', '{ "model": "opus" ');
    assert.throws(
      () =>
        planProjectServerEnabled({ projectRoot: ws.project, userHome, server: 'tidewave', enabled: false }),
      SettingsParseError,
    );
  });

  test('servers outside .mcp.json are not pretended to be disabled: the plan says what to do instead', () => {
    place(ws.project, '.vscode/mcp.json', fixture('mcp/vscode-mcp.0GiS0-youtube-mcp-server.jsonc'));
    place(
      userHome,
      '.claude.json',
      fixture('mcp/claude-desktop-config.3rzy-claude-google-workspace-config.json'),
    );
    const reason = (server: string) => {
      const plan = planProjectServerEnabled({ projectRoot: ws.project, userHome, server, enabled: false });
      assert.equal(plan.supported, false);
      return plan.supported ? '' : plan.reason;
    };
    assert.match(
      reason('stdio-mcp'),
      /\.vscode\/mcp\.json.*VS Code has no per-project list of disabled servers/,
    );
    assert.match(
      reason('github'),
      /~\/\.claude\.json.*only covers \.mcp\.json servers: turn it off with \/mcp/,
    );
    assert.match(reason('plugin_db-tools_database-tools'), /comes with a plugin/);
    assert.match(reason('nope'), /not declared in \.mcp\.json/);
    assert.equal(fs.existsSync(settingsFile()), false);
  });
});

describe('config scan: the other agents’ own config', () => {
  test("Codex's config.toml and opencode.json add their servers, named as each agent names the tools", () => {
    place(ws.project, '.codex/config.toml', fixture('codex/synthetic.config.toml'));
    place(ws.project, 'opencode.json', fixture('opencode/opencode.0xC0D3D00D-opencode.config.excerpt.json'));
    const result = scan();
    const servers = result.entries.filter((entry) => entry.type === 'mcp_server');
    const codex = servers.filter((entry) => entry.source.endsWith('config.toml'));
    assert.deepEqual(
      codex.map(({ name, disabled }) => ({ name, disabled })),
      [
        { name: 'mcp__context7__*', disabled: false },
        // Codex turns every character outside [A-Za-z0-9_] into `_` in tool names.
        { name: 'mcp__chrome_devtools__*', disabled: true },
        { name: 'mcp__figma__*', disabled: false },
        { name: 'mcp__inline__*', disabled: false },
      ],
    );
    assert.ok(
      codex.every((entry) => !entry.description?.includes('ctx7sk-')),
      'an API key in the arguments is not shown',
    );
    const opencode = servers.filter((entry) => entry.source.endsWith('opencode.json'));
    assert.ok(opencode.length > 0);
    assert.ok(
      opencode.every((entry) => entry.name === `${entry.server}_*` && entry.scope === 'project'),
      JSON.stringify(opencode),
    );
    assert.deepEqual(result.problems, []);
  });

  test('an opencode server is switched off with "enabled": false in the project\'s file, and back on byte for byte', () => {
    const config =
      '{\n  // the team\'s servers\n  "mcp": {\n    "linear": { "type": "remote", "url": "https://mcp.linear.app/sse" }\n  }\n}\n';
    const file = place(ws.project, 'opencode.jsonc', config);
    const plan = (enabled: boolean) =>
      planProjectServerEnabled({ projectRoot: ws.project, userHome, server: 'linear', enabled });
    const off = plan(false);
    assert.ok(off.supported);
    assert.equal(off.agent, 'opencode');
    assert.equal(off.file, file);
    assert.deepEqual(off.changes, ['set "enabled": false on "linear" in opencode.jsonc']);
    assert.ok(off.after.includes("// the team's servers"), 'comments stay');
    writeProjectServerEnabled(off, ws.home);
    assert.equal(
      scan().entries.find((entry) => entry.server === 'linear')?.disabled,
      true,
      'opencode (and the scan) read it switched off',
    );
    const on = plan(true);
    assert.ok(on.supported);
    writeProjectServerEnabled(on, ws.home);
    assert.equal(fs.readFileSync(file, 'utf8'), config);
    // Declared only in the user's own opencode config: theirs, not the project's to change.
    fs.rmSync(file);
    place(userHome, '.config/opencode/opencode.json', config);
    const global = plan(false);
    assert.equal(global.supported, false);
    assert.match(
      global.supported ? '' : global.reason,
      /opencode\/opencode\.json, opencode's config for all your projects/,
    );
  });

  test('a Codex server is switched off with enabled = false under its header, and back on byte for byte', () => {
    const config =
      '# the team\'s servers\n[mcp_servers.context7]\ncommand = "npx"\nargs = ["-y", "@upstash/context7-mcp"]\n\n[mcp_servers.inline]\nurl = "https://example.com/mcp"\n';
    const file = place(ws.project, '.codex/config.toml', config);
    const plan = (server: string, enabled: boolean) =>
      planProjectServerEnabled({ projectRoot: ws.project, userHome, server, enabled });
    const off = plan('context7', false);
    assert.ok(off.supported);
    assert.equal(off.agent, 'Codex');
    assert.deepEqual(off.changes, ['add enabled = false to [mcp_servers.context7] in .codex/config.toml']);
    writeProjectServerEnabled(off, ws.home);
    assert.equal(
      scan().entries.find((entry) => entry.server === 'context7')?.disabled,
      true,
      'Codex (and the scan) read it switched off',
    );
    assert.equal(
      scan().entries.find((entry) => entry.server === 'inline')?.disabled,
      false,
      'the next one untouched',
    );
    const on = plan('context7', true);
    assert.ok(on.supported);
    writeProjectServerEnabled(on, ws.home);
    assert.equal(fs.readFileSync(file, 'utf8'), config);
    // Declared without a header of its own: the plan says where to switch it instead of guessing.
    fs.writeFileSync(file, 'mcp_servers.dotted = { command = "uvx" }\n');
    const dotted = plan('dotted', false);
    assert.equal(dotted.supported, false);
    assert.match(
      dotted.supported ? '' : dotted.reason,
      /not declared under its own \[mcp_servers\.dotted\] header/,
    );
  });

  test("the user's VS Code mcp.json declares global servers, named as VS Code names their tools", () => {
    place(userHome, '.config/Code/User/mcp.json', fixture('mcp/vscode-mcp.0GiS0-youtube-mcp-server.jsonc'));
    const global = scanConfigs({ projectRoot: ws.project, userHome, scopes: ['global'] });
    assert.deepEqual(
      global.entries
        .filter((entry) => entry.source.endsWith('mcp.json'))
        .map(({ name, scope, line }) => ({ name, scope, line })),
      [
        { name: 'mcp_remote-mcp_*', scope: 'global', line: 3 },
        { name: 'mcp_stdio-mcp_*', scope: 'global', line: 7 },
      ],
    );
  });

  test('a config.toml that does not parse is a problem of that file, not a failed scan', () => {
    place(ws.project, '.mcp.json', '{"mcpServers": {"github": {"command": "gh-mcp"}}}');
    const file = place(ws.project, '.codex/config.toml', '[mcp_servers.broken\ncommand = ');
    const result = scan();
    assert.deepEqual(
      result.problems.map((problem) => problem.file),
      [file],
    );
    assert.ok(result.entries.some((entry) => entry.name === 'mcp__github__*'));
  });
});

describe("Claude Code's tool config is an adapter's, like the other agents'", () => {
  test('it declares its own servers (not Cursor’s it also reads) and names their tools as Claude Code does', () => {
    placeClaudeCodeServers();
    place(ws.project, '.cursor/mcp.json', fixture('mcp/cursor-mcp.0xJacky-nginx-ui.json'));
    const tools = claudeCodeAdapter.tools;
    assert.ok(tools, 'Claude Code has a tool config');
    const { servers, problems } = tools.servers(ws.project, userHome, {});
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map(({ name, scope, file }) => ({ name, scope, file: path.basename(file) })),
      [
        { name: 'stripe', scope: 'project', file: '.claude.json' },
        { name: 'api-server', scope: 'project', file: '.mcp.json' },
      ],
    );
    assert.equal(tools.mcpToolName('api-server', 'search'), 'mcp__api-server__search');
    assert.ok(tools.files(ws.project, userHome, {}).includes(path.join(ws.project, '.mcp.json')));
    // The scan reads Claude Code through this adapter: the same servers, under the names its events use.
    const names = scan().entries.map((entry) => entry.name);
    assert.ok(names.includes('mcp__stripe__*') && names.includes('mcp__api-server__*'));
  });
});
