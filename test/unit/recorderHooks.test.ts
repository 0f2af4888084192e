import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import { codexAdapter } from '../../src/engine/agents/codex';
import { vscodeAdapter } from '../../src/engine/agents/vscode';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';

/** The three agents whose JSON hook settings hold our entries, edited by one planner (recorderHooks.ts). */
const INSTALLERS = [claudeCodeAdapter, codexAdapter, vscodeAdapter].map((adapter) => {
  const hooks = adapter.hooks;
  assert.ok(hooks);
  return [adapter.id, hooks] as const;
});

describe('our recorder hooks in every agent’s JSON hook settings', () => {
  for (const [agent, hooks] of INSTALLERS) {
    test(`${agent}: an entry just like ours is ours, even with a command we don't recognise`, () => {
      const custom = 'node /srv/tools/record-agent.js';
      const first = hooks.planConnect('hooks.json', undefined, custom);
      assert.ok(first.after);
      assert.deepEqual(hooks.planConnect('hooks.json', first.after, custom).changes, []);
    });

    test(`${agent}: disconnecting keeps a file whose only other content is a comment`, () => {
      const original = '// The user’s note about these hooks.\n{}\n';
      const connected = hooks.planConnect('hooks.json', original, PORTABLE_RECORDER_COMMAND).after;
      assert.ok(connected);
      const disconnected = hooks.planDisconnect('hooks.json', connected);
      assert.equal(disconnected.after, original);
      assert.equal(hooks.isConnected('hooks.json', disconnected.after), false);
    });
  }
});
