/**
 * Connecting Cline for real: the bundled CLI writes its hook files, each file is run the way Cline runs it
 * (the file itself, executable, in the workspace root, the payload on stdin), the engine ingests what they
 * spooled, TaskStart hands Cline the session context as `contextModification`, and disconnecting leaves
 * every folder as it was.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, test } from 'node:test';
import { agentHintWaiting, leaveAgentHint } from '../../src/engine/context/agentHint';
import { writeHookOutputs } from '../../src/engine/context/hookOutput';
import { drainSpool } from '../../src/engine/log/spool';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { type ConnectMachine, useConnectMachine } from '../support/connectMachine';
import { FIXTURES_DIR } from '../support/events';

const HOOKS = fs
  .readFileSync(path.join(FIXTURES_DIR, 'cline', 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Record<string, unknown>);

const machine = useConnectMachine('cd-cline-connect-');
let ws: ConnectMachine['ws'];
/** The user's home folder, and Context Deck's home at its default place in it. */
let userHome: string;
let home: string;
before(() => ({ ws, userHome, home } = machine));

function cli(...args: string[]) {
  return machine.cli({}, ...args);
}

/** Run a hook file as Cline does on Linux and macOS: the file itself through the shell, in the workspace root. */
function runHookFile(file: string, payload: unknown) {
  return spawnSync(file, [], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    cwd: ws.project,
    shell: true,
    env: { PATH: '/usr/bin:/bin', HOME: userHome },
  });
}

/** The payload as Cline sends it for this workspace. */
function forProject(payload: Record<string, unknown>): Record<string, unknown> {
  return { ...payload, workspaceRoots: [ws.project] };
}

describe('connect Cline', () => {
  test('hooks install writes an executable file per hook; each records its event; uninstall removes exactly them', async () => {
    const before = { project: machine.snapshot(ws.project), user: machine.snapshot(userHome) };
    const install = cli('hooks', 'install', '--agent', 'cline', '--scope', 'project', '--json');
    assert.equal(install.status, 0, install.stderr);
    const said = JSON.parse(install.stdout) as { file: string; changes: string[]; written: boolean };
    const dir = path.join(ws.project, '.clinerules', 'hooks');
    assert.equal(said.file, path.join(dir, 'TaskStart'));
    const names = fs.readdirSync(dir).sort();
    assert.deepEqual(names, [
      'PostToolUse',
      'PreCompact',
      'TaskCancel',
      'TaskComplete',
      'TaskResume',
      'TaskStart',
      'UserPromptSubmit',
    ]);
    assert.equal(said.changes.length, names.length);
    for (const name of names) {
      const file = path.join(dir, name);
      assert.equal(fs.statSync(file).mode & 0o777, 0o700, `${name} is 0700`);
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /^#!\/bin\/sh\n/);
      // Committed for the team: no path of this machine.
      assert.ok(!text.includes(path.dirname(ws.home)), `${name} names no path of this machine`);
    }
    const status = JSON.parse(cli('hooks', 'status', '--agent', 'cline', '--json').stdout) as Array<{
      scope: string;
      connected: boolean;
    }>;
    assert.deepEqual(
      status.filter((state) => state.connected).map((state) => state.scope),
      ['project'],
    );
    assert.match(
      cli('hooks', 'install', '--agent', 'cline', '--scope', 'project').stdout,
      /nothing to change/,
    );

    // Each hook file run as Cline runs it records the payload; only the task's start and resume print.
    const byHook: Record<string, string> = {
      TaskStart: 'TaskStart',
      PostToolUse: 'PostToolUse',
      UserPromptSubmit: 'UserPromptSubmit',
      PreCompact: 'PreCompact',
      TaskResume: 'TaskResume',
      TaskComplete: 'TaskComplete',
    };
    for (const payload of HOOKS) {
      const run = runHookFile(path.join(dir, byHook[String(payload.hookName)]), forProject(payload));
      assert.equal(run.status, 0, `${String(payload.hookName)}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${String(payload.hookName)} prints nothing (no session context yet)`);
    }
    drainSpool(home);
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
        [HOOKS.length, 1, 4, 2, 1, 0],
      );
      assert.deepEqual(Object.keys(counts.agents), ['cline']);
    } finally {
      await engine.close();
    }

    const uninstall = cli('hooks', 'uninstall', '--agent', 'cline', '--scope', 'project');
    assert.equal(uninstall.status, 0, uninstall.stderr);
    assert.deepEqual({ project: machine.snapshot(ws.project), user: machine.snapshot(userHome) }, before);
    assert.equal(fs.existsSync(dir), true, 'the folder Connect made stays (it may hold other hooks later)');
    fs.rmSync(path.join(ws.project, '.clinerules'), { recursive: true });
  });

  test("the session context reaches Cline at TaskStart and TaskResume, as contextModification (tellAgent's way on Linux)", () => {
    const install = cli('hooks', 'install', '--agent', 'cline', '--scope', 'user', '--json');
    assert.equal(install.status, 0, install.stderr);
    const dir = path.join(userHome, 'Documents', 'Cline', 'Hooks');
    const context = '# Previous Session\nAdded a --verbose flag; "npm test" still fails (1 failing).\n';
    writeHookOutputs(home, [ws.project], context);
    for (const hook of ['TaskStart', 'TaskResume']) {
      const payload = HOOKS.find((candidate) => candidate.hookName === hook)!;
      const run = runHookFile(path.join(dir, hook), forProject(payload));
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { contextModification: context }, hook);
    }
    const prompt = runHookFile(
      path.join(dir, 'UserPromptSubmit'),
      forProject(HOOKS.find((candidate) => candidate.hookName === 'UserPromptSubmit')!),
    );
    assert.equal(prompt.stdout, '', 'other hooks print nothing');
    const uninstall = cli('hooks', 'uninstall', '--agent', 'cline', '--scope', 'user');
    assert.equal(uninstall.status, 0, uninstall.stderr);
    assert.deepEqual(fs.readdirSync(dir), []);
  });

  test("Cline CLI 3.0 is handed the context after its session's first tool call, once; 2.x's tool calls print nothing", () => {
    // CLI 3.0.65 drops what TaskStart prints but takes a PostToolUse's contextModification to its model.
    const install = cli('hooks', 'install', '--agent', 'cline', '--scope', 'user', '--json');
    assert.equal(install.status, 0, install.stderr);
    const file = path.join(userHome, 'Documents', 'Cline', 'Hooks', 'PostToolUse');
    const context = '# Previous Session\nFixed greet.sh; sh check.sh passes.\n';
    writeHookOutputs(home, [ws.project], context);
    const [, toolResult] = fs
      .readFileSync(path.join(FIXTURES_DIR, 'cline', 'hooks-cli-3.0.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const first = runHookFile(file, forProject(toolResult));
    assert.equal(first.status, 0, first.stderr);
    assert.deepEqual(JSON.parse(first.stdout), { contextModification: context });
    assert.equal(runHookFile(file, forProject(toolResult)).stdout, '', 'the same session is handed it once');
    const another = { ...toolResult, sessionContext: { rootSessionId: 'another_session' } };
    assert.deepEqual(JSON.parse(runHookFile(file, forProject(another)).stdout), {
      contextModification: context,
    });
    const older = HOOKS.find((candidate) => candidate.hookName === 'PostToolUse')!;
    assert.equal(runHookFile(file, forProject(older)).stdout, '', '2.x hands it at TaskStart');
    assert.equal(cli('hooks', 'uninstall', '--agent', 'cline', '--scope', 'user').status, 0);
  });

  test('a hook file of that name that is not ours is never overwritten nor removed', () => {
    const dir = path.join(ws.project, '.clinerules', 'hooks');
    fs.mkdirSync(dir, { recursive: true });
    const theirs = '#!/bin/bash\necho \'{"cancel": false}\'\n';
    fs.writeFileSync(path.join(dir, 'PostToolUse'), theirs, { mode: 0o755 });
    const install = cli('hooks', 'install', '--agent', 'cline', '--scope', 'project');
    assert.notEqual(install.status, 0);
    assert.match(install.stderr, /PostToolUse exists and is not Context Deck's hook/);
    assert.deepEqual(fs.readdirSync(dir), ['PostToolUse']);
    assert.equal(cli('hooks', 'uninstall', '--agent', 'cline', '--scope', 'project').status, 0);
    assert.equal(fs.readFileSync(path.join(dir, 'PostToolUse'), 'utf8'), theirs);
    fs.rmSync(path.join(ws.project, '.clinerules'), { recursive: true });
  });
});

describe('the line for the agent reaches it on Linux (compactWarning.tellAgent), through the sh hooks', () => {
  const line =
    'Context Deck: this session\'s context is 86% full and compacts automatically in about 3 model call(s) "now" \\ at this pace.';

  for (const agent of ['claude-code', 'codex', 'vscode']) {
    test(`${agent}: the prompt hook hands on the line the host left, once, as additionalContext`, () => {
      const install = cli('hooks', 'install', '--agent', agent, '--scope', 'project', '--json');
      assert.equal(install.status, 0, install.stderr);
      const { commands } = JSON.parse(install.stdout) as { commands: Record<string, string> };
      const command = commands.UserPromptSubmit;
      assert.ok(command && !command.includes('node'), 'the prompt hook is sh');
      const run = () =>
        spawnSync('/bin/sh', ['-c', command], {
          input: JSON.stringify({
            hook_event_name: 'UserPromptSubmit',
            session_id: 'sess-1',
            cwd: ws.project,
            prompt: 'go on',
          }),
          encoding: 'utf8',
          cwd: ws.project,
          env: { PATH: '/usr/bin:/bin', HOME: userHome },
        });
      assert.equal(run().stdout, '', 'nothing left: nothing printed');
      leaveAgentHint(home, 'sess-1', line);
      const told = run();
      assert.equal(told.status, 0, told.stderr);
      assert.deepEqual(JSON.parse(told.stdout), {
        hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: line },
      });
      assert.equal(agentHintWaiting(home, 'sess-1'), false, 'taken');
      assert.equal(run().stdout, '', 'handed on once');
      assert.equal(cli('hooks', 'uninstall', '--agent', agent, '--scope', 'project').status, 0);
    });
  }

  test('cline: its UserPromptSubmit hook file hands the line on as contextModification', () => {
    assert.equal(cli('hooks', 'install', '--agent', 'cline', '--scope', 'project').status, 0);
    const file = path.join(ws.project, '.clinerules', 'hooks', 'UserPromptSubmit');
    const payload = forProject(HOOKS.find((candidate) => candidate.hookName === 'UserPromptSubmit')!);
    leaveAgentHint(home, String(payload.taskId), line);
    const told = runHookFile(file, payload);
    assert.equal(told.status, 0, told.stderr);
    assert.deepEqual(JSON.parse(told.stdout), { contextModification: line });
    assert.equal(runHookFile(file, payload).stdout, '', 'handed on once');
    assert.equal(cli('hooks', 'uninstall', '--agent', 'cline', '--scope', 'project').status, 0);
    fs.rmSync(path.join(ws.project, '.clinerules'), { recursive: true });
  });
});
