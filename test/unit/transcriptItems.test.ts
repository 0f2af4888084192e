/**
 * Claude Code's transcript lines as the session items every agent's files are read into: a real
 * conversation's prompts, tool uses and results (apart, paired by id), reports and model, and what a
 * subagent's file gives instead.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import type { SessionItem } from '../../src/engine/agents/adapter';
import { FIXTURES_DIR } from '../support/events';

const FIXTURE = path.join(FIXTURES_DIR, 'transcripts', 'claude-code-log-representative_messages.jsonl');

function itemsOf(subagent: boolean): SessionItem[] {
  const file = { sessionId: 'from-path', subagent, lastAt: 0 };
  return fs
    .readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const parsed = claudeCodeAdapter.transcripts.parseLine(line);
      assert.ok(parsed.ok);
      return claudeCodeAdapter.transcripts.items(parsed.entry, file);
    });
}

const ofType = <T extends SessionItem['type']>(items: SessionItem[], type: T) =>
  items.filter((item): item is Extract<SessionItem, { type: T }> => item.type === type);

test("a conversation's lines: typed prompts keyed by line, uses and results apart and paired, reports, the model", () => {
  const items = itemsOf(false);
  assert.deepEqual(
    ofType(items, 'prompt').map((item) => [item.key, item.text.slice(0, 30)]),
    [
      ['msg_001', 'Hello Claude! Can you help me '],
      ['msg_003', 'Great! Can you also show me ho'],
      ['msg_007', 'Can you run that example to sh'],
      ['msg_011', 'This is really helpful! Let me'],
    ],
  );
  const uses = ofType(items, 'tool-use');
  const results = ofType(items, 'tool-result');
  assert.equal(uses.length, 2);
  assert.deepEqual(
    results.map((item) => item.result.toolUseId),
    uses.map((item) => item.useId),
  );
  assert.ok(
    uses.every(
      (use) =>
        items.indexOf(use) <
        items.findIndex((item) => item.type === 'tool-result' && item.result.toolUseId === use.useId),
    ),
  );
  assert.equal(ofType(items, 'report').length, 3, 'each assistant text line, none for a tool use alone');
  assert.ok(ofType(items, 'session').some((item) => item.model === 'claude-3-sonnet-20240229'));
  assert.ok(
    items.every((item) => item.sessionId === 'test_session'),
    'the summary line gives nothing',
  );
});

test("a subagent's file: its calls count, but no prompt, report or model is the user's session's", () => {
  const items = itemsOf(true);
  assert.equal(ofType(items, 'tool-use').length, 2);
  assert.equal(ofType(items, 'tool-result').length, 2);
  assert.deepEqual(ofType(items, 'prompt'), []);
  assert.deepEqual(ofType(items, 'report'), []);
  assert.ok(ofType(items, 'session').every((item) => item.model === undefined));
});
