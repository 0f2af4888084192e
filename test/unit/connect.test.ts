/**
 * Connecting Claude Code for real: the bundled CLI installs the hooks, then each hook command is run from the
 * settings file the way Claude Code runs it (a shell, the payload on stdin), and the engine ingests what the
 * recorder appended.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { hookSettingsFiles } from '../../src/engine/agents';
import { parseJsonc } from '../../src/engine/agents/jsoncEdit';
import { drainSpool } from '../../src/engine/log/spool';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { type ConnectMachine, useConnectMachine } from '../support/connectMachine';
import { hookEvent } from '../support/events';

const machine = useConnectMachine('cd-connect-');
let ws: ConnectMachine['ws'];
/** The user's home folder, and Context Deck's home at its default place in it. */
let userHome: string;
let home: string;
before(() => ({ ws, userHome, home } = machine));

function cli(...args: string[]) {
  return machine.cli({}, ...args);
}

/** Run a hook command the way Claude Code does: `sh -c`, the payload on stdin, its environment. */
function runHookCommand(command: string, payload: unknown, env: NodeJS.ProcessEnv) {
  return spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(payload), encoding: 'utf8', env });
}

/** Claude Code's environment on this machine: `node` on PATH, the user's HOME. */
function agentEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: userHome, ...extra };
}

/** Lines in the event log once what the hooks spooled is taken in, as the next ingest does. */
function eventLines(dir: string): number {
  drainSpool(dir);
  const events = path.join(dir, 'events');
  return fs.existsSync(events)
    ? fs
        .readdirSync(events)
        .reduce((n, name) => n + fs.readFileSync(path.join(events, name), 'utf8').split('\n').length - 1, 0)
    : 0;
}

interface Settings {
  hooks: Record<string, Array<{ hooks: Array<{ command: string; async?: boolean }> }>>;
}

describe('connect Claude Code', () => {
  test('hooks install writes the settings, and each hook command really records its event', async () => {
    const original = '{\n  // shared with the team\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n';
    fs.mkdirSync(path.join(ws.project, '.claude'));
    fs.writeFileSync(path.join(ws.project, '.claude', 'settings.json'), original);
    const dry = cli('hooks', 'install', '--scope', 'project', '--dry-run');
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would change/);
    assert.doesNotMatch(
      fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8'),
      /hook\.js/,
    );

    const install = cli('hooks', 'install', '--scope', 'project');
    assert.equal(install.status, 0, install.stderr);
    const backup = /^backup: (.*)$/m.exec(install.stdout)?.[1];
    assert.ok(backup && backup.startsWith(path.join(home, 'backups') + path.sep), install.stdout);
    assert.equal(fs.readFileSync(backup, 'utf8'), original, 'the backup holds the previous version');
    assert.deepEqual(
      fs.readdirSync(path.join(ws.project, '.claude')),
      ['settings.json'],
      'nothing beside it',
    );
    const text = fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8');
    assert.ok(text.includes('// shared with the team'), 'comments survive');
    for (const machinePath of [path.dirname(ws.home), process.execPath])
      assert.ok(!text.includes(machinePath), `the team's settings name no ${machinePath}`);
    assert.ok(fs.existsSync(path.join(home, 'bin', 'hook.js')), 'the recorder has its stable copy');
    assert.match(cli('hooks', 'status').stdout, /project\s+connected/);
    assert.match(cli('hooks', 'install', '--scope', 'project').stdout, /nothing to change/);

    const settings = parseJsonc(text, 'settings.json') as Settings;
    const payloads: Record<string, Record<string, unknown>> = {
      SessionStart: hookEvent('SessionStart', { session_id: 'real', cwd: ws.project }),
      UserPromptSubmit: hookEvent('UserPromptSubmit', { session_id: 'real', cwd: ws.project }),
      PostToolUse: hookEvent('PostToolUse', {
        session_id: 'real',
        cwd: ws.project,
        tool_use_id: 'toolu_real_1',
      }),
      PostToolUseFailure: hookEvent('PostToolUseFailure', {
        session_id: 'real',
        cwd: ws.project,
        tool_use_id: 'toolu_real_2',
      }),
      SessionEnd: hookEvent('SessionEnd', { session_id: 'real', cwd: ws.project }),
    };
    for (const [event, payload] of Object.entries(payloads)) {
      const run = runHookCommand(settings.hooks[event][0].hooks[0].command, payload, agentEnv());
      assert.equal(run.status, 0, `${event}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${event} prints nothing (no session context yet)`);
    }
    const engine = await ProjectEngine.open({ home, folder: ws.project });
    try {
      await engine.ingest();
      const counts = engine.counts();
      assert.deepEqual(
        [
          counts.events,
          counts.sessions,
          counts.toolCalls,
          counts.toolFailures,
          counts.prompts,
          counts.rejected,
        ],
        [5, 1, 2, 1, 1, 0],
      );
    } finally {
      await engine.close();
    }

    const uninstall = cli('hooks', 'uninstall', '--scope', 'project');
    assert.equal(uninstall.status, 0, uninstall.stderr);
    assert.equal(fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8'), original);
    assert.match(cli('hooks', 'status', '--scope', 'project').stdout, /not connected/);
  });

  test('the team’s hook does nothing and fails nothing where Context Deck is missing, and needs no node', () => {
    const file = path.join(ws.project, '.claude', 'settings.json');
    assert.equal(cli('hooks', 'install', '--scope', 'project').status, 0);
    const { command } = (parseJsonc(fs.readFileSync(file, 'utf8'), 'settings.json') as Settings).hooks
      .PostToolUse[0].hooks[0];
    const payload = hookEvent('PostToolUse', { session_id: 'quiet', cwd: ws.project });
    const silent = (run: ReturnType<typeof runHookCommand>, why: string) =>
      assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', ''], why);
    const recorded = eventLines(home);

    const away = path.join(path.dirname(home), 'bin-away');
    fs.renameSync(path.join(home, 'bin'), away);
    try {
      silent(runHookCommand(command, payload, agentEnv()), 'Context Deck not installed');
    } finally {
      fs.renameSync(away, path.join(home, 'bin'));
    }
    assert.equal(eventLines(home), recorded, 'nothing was recorded');
    // The hook needs `sh` and `cat`, not node.
    const noNode = fs.mkdtempSync(path.join(path.dirname(home), 'no-node-'));
    for (const tool of ['cat', 'rm', 'mkdir']) {
      const found = spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      fs.symlinkSync(found, path.join(noNode, tool));
    }
    silent(runHookCommand(command, payload, agentEnv({ PATH: noNode })), 'no node on PATH');
    assert.equal(eventLines(home), recorded + 1, 'recorded without node');

    // Context Deck's home elsewhere, named by the environment: the hook records there.
    const elsewhere = path.join(path.dirname(home), 'elsewhere');
    fs.cpSync(path.join(home, 'bin'), path.join(elsewhere, 'bin'), { recursive: true });
    const moved = runHookCommand(command, payload, agentEnv({ CONTEXT_DECK_HOME: elsewhere }));
    assert.deepEqual([moved.status, moved.stderr, eventLines(elsewhere)], [0, '', 1]);
  });

  test('an unparsable settings file is reported and left untouched', () => {
    const file = path.join(ws.project, '.claude', 'settings.local.json');
    fs.writeFileSync(file, '{ "hooks": { ');
    const run = cli('hooks', 'install', '--scope', 'local');
    assert.equal(run.status, 1);
    assert.match(run.stderr, /settings\.local\.json could not be parsed .* left untouched/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{ "hooks": { ');
    assert.equal(cli('hooks', 'install', '--scope', 'galaxy').status, 2);
  });

  test('hooks status calls an unparsable settings file unreadable, and says why, as the dashboard does', () => {
    const file = path.join(ws.project, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{ "hooks": { ');
    const run = cli('hooks', 'status', '--scope', 'local');
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^local\s+unreadable\s+.*settings\.local\.json: .+/);
    const [state] = JSON.parse(cli('hooks', 'status', '--scope', 'local', '--json').stdout) as Array<{
      status: string;
      problem: string | null;
      connected: boolean;
    }>;
    assert.equal(state.status, 'unreadable');
    assert.ok(state.problem, 'the parse problem is given');
    assert.equal(state.connected, false);
  });

  test('hooks status on a settings file that is a FIFO says it is unreadable, without waiting on it', () => {
    const file = path.join(ws.project, '.claude', 'settings.local.json');
    fs.rmSync(file, { force: true });
    execFileSync('mkfifo', [file]);
    try {
      const run = cli('hooks', 'status', '--scope', 'local');
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^local\s+unreadable\s+.*settings\.local\.json: .+/);
    } finally {
      // The later tests read every file of the project: a FIFO left there would hold them.
      fs.rmSync(file, { force: true });
    }
  });
});

describe('connect the other agents', () => {
  /** Each agent's hook file holds the command under its event names: the first command found. */
  function firstCommand(file: string): string | undefined {
    const quoted = /"command"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(fs.readFileSync(file, 'utf8'))?.[1];
    return quoted === undefined ? undefined : (JSON.parse(quoted) as string);
  }

  for (const agent of ['vscode', 'codex', 'opencode']) {
    for (const scope of ['project', 'user']) {
      test(`${agent}, ${scope} scope: connect writes its file, disconnect leaves every file as it was`, () => {
        const before = { project: machine.snapshot(ws.project), user: machine.snapshot(userHome) };
        const install = cli('hooks', 'install', '--agent', agent, '--scope', scope, '--json');
        assert.equal(install.status, 0, install.stderr);
        const { file, changes } = JSON.parse(install.stdout) as { file: string; changes: string[] };
        assert.ok(changes.length > 0 && fs.existsSync(file), `${file} written`);
        assert.ok(file.startsWith(scope === 'project' ? ws.project : userHome), file);
        const status = JSON.parse(cli('hooks', 'status', '--agent', agent, '--json').stdout) as Array<{
          scope: string;
          connected: boolean;
        }>;
        assert.deepEqual(
          status.filter((state) => state.connected).map((state) => state.scope),
          [scope],
        );
        if (agent !== 'opencode') {
          // The hook command as the agent runs it (`sh -c`, the payload on stdin) records the event.
          const command = firstCommand(file);
          assert.ok(command, 'a hook command');
          // What --json says is what was written, not the node command it stands for.
          const said = JSON.parse(install.stdout) as { command: string; commands: Record<string, string> };
          assert.ok(Object.values(said.commands).includes(command), 'the written command is reported');
          assert.ok(fs.readFileSync(file, 'utf8').includes(JSON.stringify(said.command).slice(1, -1)));
          const recorded = eventLines(home);
          const run = runHookCommand(
            command,
            { hook_event_name: 'Stop', session_id: 's', cwd: ws.project },
            agentEnv(),
          );
          assert.deepEqual([run.status, eventLines(home)], [0, recorded + 1]);
        }
        const uninstall = cli('hooks', 'uninstall', '--agent', agent, '--scope', scope);
        assert.equal(uninstall.status, 0, uninstall.stderr);
        assert.deepEqual({ project: machine.snapshot(ws.project), user: machine.snapshot(userHome) }, before);
      });
    }
  }

  test('with CLAUDE_CONFIG_DIR set, the user scope is the settings.json Claude Code reads there', () => {
    const configDir = path.join(path.dirname(ws.home), 'claude-config');
    const install = machine.cli({ CLAUDE_CONFIG_DIR: configDir }, 'hooks', 'install', '--scope', 'user');
    assert.equal(install.status, 0, install.stderr);
    assert.match(fs.readFileSync(path.join(configDir, 'settings.json'), 'utf8'), /spool\.sh/);
    assert.equal(fs.existsSync(path.join(userHome, '.claude', 'settings.json')), false);
    const uninstall = machine.cli({ CLAUDE_CONFIG_DIR: configDir }, 'hooks', 'uninstall', '--scope', 'user');
    assert.equal(uninstall.status, 0, uninstall.stderr);
    assert.equal(fs.existsSync(path.join(configDir, 'settings.json')), false);
  });

  test('an unknown agent is a usage error', () => {
    const run = cli('hooks', 'install', '--agent', 'cursor');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--agent must be one of claude-code, vscode, codex, opencode/);
  });
});

describe('the hook files watched for the connection state', () => {
  test("every agent's hook file, in the project and at home, not only Claude Code's", () => {
    const files = hookSettingsFiles('/work/app', '/home/ana');
    for (const expected of [
      '/work/app/.claude/settings.json',
      '/home/ana/.claude/settings.json',
      '/work/app/.codex/hooks.json',
      '/home/ana/.codex/hooks.json',
      '/work/app/.github/hooks/context-deck.json',
      '/work/app/.opencode/plugins/context-deck.js',
    ])
      assert.ok(files.includes(expected), `${expected} is watched`);
    assert.equal(new Set(files).size, files.length, 'each file once');
  });
});
