import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { readPayload } from '../../src/engine/agents/payloads';
import { vscodeHooks } from '../../src/engine/agents/vscode/hookFiles';
import type { EventPayload } from '../../src/engine/events/eventLine';
import { FIXTURES_DIR } from '../support/events';

const DIR = path.join(FIXTURES_DIR, 'copilot-cli');
const VSCODE_LOCAL = path.join(FIXTURES_DIR, 'vscode', 'local');

function payload(dir: string, name: string): EventPayload {
  return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as EventPayload;
}

/** As the recorder reads it: our hook file's command says `--agent vscode`, whoever runs it. */
const read = (p: EventPayload) => readPayload(p, 'vscode');

describe('GitHub Copilot CLI', () => {
  test('its payloads are its own, though the hook file that ran them is VS Code’s', () => {
    for (const name of fs.readdirSync(DIR).filter((file) => file.endsWith('.json')))
      assert.equal(read(payload(DIR, name)).agent, 'copilot-cli', name);
    // VS Code's own payloads stay VS Code's.
    for (const name of fs.readdirSync(VSCODE_LOCAL).filter((file) => file.endsWith('.json')))
      assert.equal(read(payload(VSCODE_LOCAL, name)).agent, 'vscode', name);
  });

  test('its tools under their own names, their results read from tool_result', () => {
    const bash = read(payload(DIR, 'PostToolUse.bash.input.json')).event;
    assert.equal(bash?.kind, 'tool-end');
    assert.equal(bash?.sessionId, '4f9c2a7e-1b3d-4e8a-9c0f-6d5e4b3a2c1d');
    assert.deepEqual(bash?.tool, {
      name: 'bash',
      kind: 'shell',
      input: { command: 'npm test -- products' },
      outcome: { failed: false, output: 'PASS src/products.test.ts\n4 passed\n' },
    });
    const view = read(payload(DIR, 'PostToolUse.view.input.json')).event;
    assert.deepEqual(
      [view?.tool?.name, view?.tool?.kind, view?.tool?.input.path],
      ['view', 'read', '/home/dev/shop/src/products.ts'],
    );
    const edit = read(payload(DIR, 'PostToolUseFailure.edit.input.json')).event;
    assert.equal(edit?.kind, 'tool-failed');
    assert.deepEqual(edit?.tool?.input.edits, [{ before: 'products()', after: 'products(filter)' }]);
    assert.equal(edit?.tool?.outcome?.failed, true);
    assert.match(edit?.tool?.outcome?.error ?? '', /No match found/);
  });

  test('its session events, and the camelCase form that names no event', () => {
    const kinds = [
      'SessionStart.input.json',
      'UserPromptSubmit.input.json',
      'Stop.input.json',
      'SessionEnd.input.json',
      'postToolUse.camelCase.input.json',
    ].map((name) => read(payload(DIR, name)).event);
    assert.deepEqual(
      kinds.map((event) => [event?.agent, event?.kind]),
      [
        ['copilot-cli', 'session-start'],
        ['copilot-cli', 'prompt'],
        ['copilot-cli', 'stop'],
        ['copilot-cli', 'session-end'],
        ['copilot-cli', 'tool-end'],
      ],
    );
    assert.equal(kinds[0]?.source, 'startup');
    assert.equal(kinds[1]?.prompt, 'add a price filter to the product list');
    assert.equal(kinds[3]?.endReason, 'user_exit');
    assert.deepEqual(kinds[4]?.tool, {
      name: 'grep',
      kind: 'search',
      input: { path: 'src', query: 'price' },
      outcome: { failed: false, output: 'src/products.ts:3: price' },
    });
  });

  test('Connect says which file it shares with VS Code', () => {
    assert.match(
      vscodeHooks.describeScope('project'),
      /GitHub Copilot CLI .*\.github\/hooks\/context-deck\.json/,
    );
  });
});
