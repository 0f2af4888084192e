import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  RECORDED_HOOK_EVENTS,
  claudeSettingsPath,
  hookInstallState,
  planHookInstall,
  planHookUninstall,
} from '../../src/engine/agents/claudeCode/hookSettings';
import {
  isRecorderCommand,
  PORTABLE_RECORDER_COMMAND,
  portableCommandCaveats,
  recorderCommand,
} from '../../src/engine/agents/recorderCommand';
import { SettingsParseError, parseJsonc } from '../../src/engine/agents/jsoncEdit';
import { spoolCommandFor } from '../../src/engine/agents/spoolCommand';
import { claudeMemoryServer } from '../../src/engine/agents/claudeCode/memoryServer';
import { FIXTURES_DIR } from '../support/events';

const COMMAND = recorderCommand('local', { node: '/usr/local/bin/node' }, '/home/dev/.context-deck');

const HAND_WRITTEN = `{
  // Team settings: keep the formatter hook first.
  "model": "opus", /* pinned */
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PostToolUse": [
      { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "npx prettier --write \\"$FILE\\"" }] }, // format
    ],
    "Stop": [
	{ "hooks": [ { "type": "command", "command": "notify-send done" } ] }
    ],
  },
}
`;

const REAL_FILES = [
  'hooks/docs-examples/settings.hooks-config.json',
  'settings/anthropics-claude-code.examples.settings.settings-strict.json',
  'plugins/anthropics-claude-code.plugins.hookify.hooks.hooks.json',
  'plugins/anthropics-claude-code.plugins.security-guidance.hooks.hooks.json',
];

describe('Claude Code hook settings', () => {
  const cases: Array<[string, string]> = [
    ['a hand-written file with comments, trailing commas and foreign hooks', HAND_WRITTEN],
    ...REAL_FILES.map((file): [string, string] => [
      file,
      fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8'),
    ]),
  ];
  for (const [name, original] of cases) {
    test(`install then uninstall round-trips byte for byte: ${name}`, () => {
      const install = planHookInstall('settings.json', original, COMMAND);
      assert.equal(install.changes.length, RECORDED_HOOK_EVENTS.length);
      const installed = parseJsonc(install.after, 'settings.json') as {
        hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
      };
      // Every other key and hook survives the install.
      const before = parseJsonc(original, 'x') as Record<string, unknown>;
      for (const key of Object.keys(before))
        if (key !== 'hooks') assert.deepEqual((installed as Record<string, unknown>)[key], before[key]);
      const beforeHooks = (before.hooks ?? {}) as Record<string, unknown[]>;
      for (const [event, groups] of Object.entries(beforeHooks)) {
        assert.deepEqual(
          installed.hooks[event].slice(0, groups.length),
          groups,
          `${event} keeps its hooks first`,
        );
      }
      assert.deepEqual(hookInstallState('x', install.after).missing, []);
      assert.equal(
        planHookInstall('settings.json', install.after, COMMAND).changes.length,
        0,
        'installing twice changes nothing',
      );
      const uninstall = planHookUninstall('settings.json', install.after);
      assert.equal(uninstall.changes.length, RECORDED_HOOK_EVENTS.length);
      assert.equal(uninstall.after, original);
    });
  }

  test('comments and hand formatting of the file stay as they were', () => {
    const { after } = planHookInstall('settings.json', HAND_WRITTEN, COMMAND);
    assert.ok(after.includes('// Team settings: keep the formatter hook first.'));
    assert.ok(after.includes('"model": "opus", /* pinned */'));
    assert.ok(
      after.includes(
        '{ "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "npx prettier --write \\"$FILE\\"" }] },',
      ),
    );
    assert.ok(after.includes('\t{ "hooks": [ { "type": "command", "command": "notify-send done" } ] }'));
  });

  test('SessionStart (short timeout) and UserPromptSubmit are synchronous; every other hook is async', () => {
    const settings = parseJsonc(planHookInstall('s', undefined, COMMAND).after, 's') as {
      hooks: Record<
        string,
        Array<{ matcher?: string; hooks: Array<{ async?: boolean; timeout: number; command: string }> }>
      >;
    };
    assert.deepEqual(Object.keys(settings.hooks), [...RECORDED_HOOK_EVENTS]);
    for (const event of RECORDED_HOOK_EVENTS) {
      const [group] = settings.hooks[event];
      // `sh` spooling the payload (see spoolCommand.ts); SessionStart's also prints the session context,
      // UserPromptSubmit's the line left for the agent (so Claude Code must wait for it to read it).
      const prints = event === 'SessionStart' || (event === 'UserPromptSubmit' && 'prompt-hint');
      assert.equal(group.hooks[0].command, spoolCommandFor(COMMAND, prints));
      assert.equal(group.hooks[0].async, prints ? undefined : true, event);
      assert.equal(group.matcher, event.startsWith('PostToolUse') ? '*' : undefined, event);
    }
    assert.ok(settings.hooks.SessionStart[0].hooks[0].timeout <= 10);
  });

  test('a moved home updates our entry in place instead of adding another', () => {
    const first = planHookInstall('s', HAND_WRITTEN, COMMAND).after;
    const moved = recorderCommand('local', { node: '/opt/node22/bin/node' }, '/srv/dev/.context-deck');
    const plan = planHookInstall('s', first, moved);
    assert.equal(plan.changes.length, RECORDED_HOOK_EVENTS.length);
    assert.ok(plan.changes.every((change) => change.startsWith('update')));
    assert.equal(plan.after.split('/srv/dev/.context-deck').length - 1, RECORDED_HOOK_EVENTS.length);
    assert.equal(plan.after.split('/home/dev/.context-deck').length - 1, 0);
  });

  test('an earlier version’s node hook is updated in place to the spooling one', () => {
    const earlier = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: COMMAND, timeout: 30, async: true }] }] },
    });
    const plan = planHookInstall('s', earlier, COMMAND);
    assert.ok(plan.changes.includes('update the Context Deck hook for Stop'), plan.changes.join('\n'));
    const stop = (parseJsonc(plan.after, 's') as { hooks: { Stop: Array<{ hooks: unknown[] }> } }).hooks.Stop;
    assert.deepEqual(stop, [
      { hooks: [{ type: 'command', command: spoolCommandFor(COMMAND, false), timeout: 30, async: true }] },
    ]);
  });

  test('a file that cannot be parsed is reported with its position and left untouched', () => {
    const broken = '{\n  "hooks": {\n    "Stop": [\n  }\n';
    assert.throws(
      () => planHookInstall('/p/.claude/settings.json', broken, COMMAND),
      (error: unknown) => {
        assert.ok(error instanceof SettingsParseError);
        assert.match(
          error.message,
          /\/p\/\.claude\/settings\.json could not be parsed \(.* at line 4, column 3\)/,
        );
        return true;
      },
    );
    assert.throws(() => planHookInstall('s', '{"hooks": []}', COMMAND), /"hooks" in s is not an object/);
    assert.throws(() => planHookInstall('s', '[1]', COMMAND), /does not hold a JSON object/);
  });

  test('commands quote paths with spaces and run VS Code’s runtime as Node when needed', () => {
    const command = recorderCommand(
      'user',
      { node: '/Applications/Visual Studio Code.app/Contents/MacOS/Electron', electronRunAsNode: true },
      '/Users/me/.context-deck',
    );
    assert.equal(
      command,
      'ELECTRON_RUN_AS_NODE=1 "/Applications/Visual Studio Code.app/Contents/MacOS/Electron" /Users/me/.context-deck/bin/hook.js --home /Users/me/.context-deck',
    );
    assert.ok(isRecorderCommand(command));
    assert.ok(!isRecorderCommand('node ./hooks/my-hook.js'));
    assert.ok(!isRecorderCommand('npx prettier --write'));
  });

  test('the team’s settings name no path of this machine; this machine’s own settings keep its runtime', () => {
    const runtime = { node: '/opt/node22/bin/node' };
    const team = recorderCommand('project', runtime, '/home/dev/cd-home');
    assert.equal(team, PORTABLE_RECORDER_COMMAND);
    assert.doesNotMatch(team, /\/opt\/|\/home\/dev/);
    assert.ok(isRecorderCommand(team));
    for (const scope of ['local', 'user'] as const)
      assert.equal(
        recorderCommand(scope, runtime, '/home/dev/cd-home'),
        '/opt/node22/bin/node /home/dev/cd-home/bin/hook.js --home /home/dev/cd-home',
      );
  });

  test('where the team’s command records here, every scope writes it, so Claude Code runs it once', () => {
    const home = '/srv/cd-home';
    const env = { CONTEXT_DECK_HOME: home, PATH: path.dirname(process.execPath) };
    for (const scope of ['project', 'local', 'user'] as const)
      assert.equal(recorderCommand(scope, { node: process.execPath }, home, env), PORTABLE_RECORDER_COMMAND);
    const noNode = { CONTEXT_DECK_HOME: home, PATH: '/nonexistent' };
    assert.equal(
      recorderCommand('local', { node: '/opt/node22/bin/node' }, home, noNode),
      '/opt/node22/bin/node /srv/cd-home/bin/hook.js --home /srv/cd-home',
    );
  });

  test('an absolute-path install in the team’s settings is recognised, replaced and removed', () => {
    const old = planHookInstall('s', HAND_WRITTEN, COMMAND).after;
    assert.deepEqual(hookInstallState('s', old).missing, []);
    const portable = planHookInstall('s', old, PORTABLE_RECORDER_COMMAND);
    assert.ok(portable.changes.every((change) => change.startsWith('update')));
    assert.doesNotMatch(portable.after, /\/usr\/local\/bin\/node|\/home\/dev/);
    assert.deepEqual(hookInstallState('s', portable.after).missing, []);
    assert.equal(planHookUninstall('s', portable.after).after, HAND_WRITTEN);
    assert.equal(planHookUninstall('s', old).after, HAND_WRITTEN);
  });

  test('a settings file Connect creates is formatted like Claude Code’s own: 2-space JSON, final newline', () => {
    const claudeStyle = (text: string) => `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
    const real = fs.readFileSync(
      path.join(FIXTURES_DIR, 'settings/anthropics-claude-code.examples.settings.settings-strict.json'),
      'utf8',
    );
    assert.equal(claudeStyle(real), real, 'the style of a real settings file');
    for (const before of [undefined, '', '\n']) {
      const { after } = planHookInstall('s', before, PORTABLE_RECORDER_COMMAND);
      assert.equal(after, claudeStyle(after));
    }
    const mcp = claudeMemoryServer.planAdd('.mcp.json', undefined, {
      command: 'node',
      args: ['mcp.js'],
      env: {},
    }).after;
    assert.ok(mcp);
    assert.equal(mcp, claudeStyle(mcp));
  });

  test('connecting the team’s settings says why they would record nothing on this machine', () => {
    const env = { PATH: path.dirname(process.execPath) };
    assert.deepEqual(
      portableCommandCaveats(path.join(os.homedir(), '.context-deck'), 'Claude Code', env),
      [],
    );
    assert.deepEqual(
      portableCommandCaveats('/data/cd', 'Claude Code', { ...env, CONTEXT_DECK_HOME: '/data/cd' }),
      [],
    );
    const [otherHome, noNode] = portableCommandCaveats('/data/cd', 'Codex CLI', { PATH: '/nowhere' }, true);
    // Named for the agent being connected, not always Claude Code.
    assert.match(otherHome, /set CONTEXT_DECK_HOME=\/data\/cd where Codex CLI starts/);
    assert.match(noNode, /`node` is not on PATH/);
    // Hooks that run `sh` (all but on Windows) need no node.
    assert.deepEqual(
      portableCommandCaveats(path.join(os.homedir(), '.context-deck'), 'Cline', { PATH: '/nowhere' }, false),
      [],
    );
  });

  test('settings file per scope', () => {
    assert.equal(claudeSettingsPath('project', '/p', '/h'), '/p/.claude/settings.json');
    assert.equal(claudeSettingsPath('local', '/p', '/h'), '/p/.claude/settings.local.json');
    assert.equal(claudeSettingsPath('user', '/p', '/h', {}), '/h/.claude/settings.json');
  });

  test('CLAUDE_CONFIG_DIR moves the user settings, as Claude Code reads them, and not the project’s', () => {
    const env = { CLAUDE_CONFIG_DIR: '/work/claude-config' };
    assert.equal(claudeSettingsPath('user', '/p', '/h', env), '/work/claude-config/settings.json');
    assert.equal(claudeSettingsPath('project', '/p', '/h', env), '/p/.claude/settings.json');
  });
});
