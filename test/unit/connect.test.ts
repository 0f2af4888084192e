/**
 * Connecting Claude Code for real: the bundled CLI installs the hooks, then each hook command is run from the
 * settings file the way Claude Code runs it (a shell, the payload on stdin), and the engine ingests what the
 * recorder appended.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseJsonc } from '../../src/engine/jsoncEdit';
import { ProjectEngine } from '../../src/engine/projectEngine';
import { hookEvent, tempWorkspace } from '../support/events';
import { bundleForNode } from '../support/bundle';

let ws: ReturnType<typeof tempWorkspace>;
let bin: string;

before(async () => {
  ws = tempWorkspace('cd-connect-');
  bin = path.join(path.dirname(ws.home), 'dist');
  // The CLI and the recorder side by side, as they ship in dist/.
  await bundleForNode(bin, { cli: 'src/cli/main.ts', hook: 'src/hook/main.ts' });
});
after(() => ws.cleanup());

function cli(...args: string[]) {
  return spawnSync(
    process.execPath,
    [path.join(bin, 'cli.js'), ...args, '--home', ws.home, '--project', ws.project],
    {
      encoding: 'utf8',
    },
  );
}

interface Settings {
  hooks: Record<string, Array<{ hooks: Array<{ command: string; async?: boolean }> }>>;
}

describe('connect Claude Code', () => {
  test('hooks install writes the settings, and each hook command really records its event', async () => {
    fs.mkdirSync(path.join(ws.project, '.claude'));
    fs.writeFileSync(
      path.join(ws.project, '.claude', 'settings.json'),
      '{\n  // shared with the team\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n',
    );
    const dry = cli('hooks', 'install', '--scope', 'project', '--dry-run');
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would change/);
    assert.doesNotMatch(
      fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8'),
      /hook\.js/,
    );

    const install = cli('hooks', 'install', '--scope', 'project');
    assert.equal(install.status, 0, install.stderr);
    assert.match(install.stdout, /backup: /);
    const text = fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8');
    assert.ok(text.includes('// shared with the team'), 'comments survive');
    assert.ok(fs.existsSync(path.join(ws.home, 'bin', 'hook.js')), 'the recorder has its stable copy');
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
      const { command } = settings.hooks[event][0].hooks[0];
      const run = spawnSync('/bin/sh', ['-c', command], { input: JSON.stringify(payload), encoding: 'utf8' });
      assert.equal(run.status, 0, `${event}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${event} prints nothing (no session context yet)`);
    }
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project });
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
    assert.equal(
      fs.readFileSync(path.join(ws.project, '.claude', 'settings.json'), 'utf8'),
      '{\n  // shared with the team\n  "permissions": { "allow": ["Bash(npm test)"] }\n}\n',
    );
    assert.match(cli('hooks', 'status', '--scope', 'project').stdout, /not connected/);
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
});
