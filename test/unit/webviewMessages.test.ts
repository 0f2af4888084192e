import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { WebviewMessage } from '../../src/shared/protocol';
import { parseWebviewMessage } from '../../src/shared/webviewMessages';

type Example<K extends WebviewMessage['type']> = Extract<WebviewMessage, { type: K }>;

/** One well-formed message of every kind; the mapped type makes a new kind in the union fail to compile here. */
const EXAMPLES: { [K in WebviewMessage['type']]: Example<K> } = {
  ready: { type: 'ready' },
  ingestNow: { type: 'ingestNow' },
  openEventLog: { type: 'openEventLog' },
  openFolder: { type: 'openFolder' },
  showRejects: { type: 'showRejects', projectId: 'p1' },
  copyText: { type: 'copyText', text: 'a line\nand <b>markup</b> kept as text' },
  connect: { type: 'connect', projectId: 'p1' },
  disconnect: { type: 'disconnect', projectId: 'p1' },
  importHistory: { type: 'importHistory', projectId: 'p1' },
  adviceAction: { type: 'adviceAction', projectId: 'p1', itemId: 'file:/w/a.ts', action: 'closeFile' },
  adviceUndo: { type: 'adviceUndo', projectId: 'p1' },
  openContextItem: { type: 'openContextItem', projectId: 'p1', itemId: 'tool_result:toolu_01' },
  previewContext: { type: 'previewContext', projectId: 'p1' },
  openToolSource: { type: 'openToolSource', projectId: 'p1', name: 'mcp__github__search', scope: 'plugin' },
  setServerEnabled: { type: 'setServerEnabled', projectId: 'p1', server: 'github', enabled: false },
  memorySearch: {
    type: 'memorySearch',
    projectId: 'p1',
    request: 7,
    query: 'parser "torn line"',
    types: ['bugfix', 'decision'],
  },
  openObservation: { type: 'openObservation', projectId: 'p1', id: 'obs-1' },
  searchMemory: { type: 'searchMemory', projectId: 'p1', query: 'flaky test' },
};

describe('messages from the dashboard webview', () => {
  test('every kind of well-formed message is accepted as it was sent', () => {
    for (const example of Object.values(EXAMPLES))
      assert.deepEqual(parseWebviewMessage(example), example, example.type);
  });

  test('fields the contract does not know are dropped, not passed on', () => {
    const parsed = parseWebviewMessage({ ...EXAMPLES.connect, command: 'rm -rf /', extra: { deep: 1 } });
    assert.deepEqual(parsed, EXAMPLES.connect);
    const polluted = JSON.parse('{"type":"ready","__proto__":{"isAdmin":true}}') as unknown;
    const ready = parseWebviewMessage(polluted) as Record<string, unknown>;
    assert.equal(ready.isAdmin, undefined, 'no inherited fields either');
    assert.deepEqual(ready, { type: 'ready' });
  });

  test('anything that is not an object of a known kind is refused', () => {
    for (const raw of [
      null,
      undefined,
      'ready',
      42,
      [],
      ['ready'],
      {},
      { type: 'runCommand', command: 'workbench.action.quit' },
      { type: 'READY' },
      { type: { toString: () => 'ready' } },
      // Names every object has: only the protocol's own message types are known.
      { type: 'toString' },
      { type: 'constructor' },
      { type: '__proto__' },
    ])
      assert.equal(parseWebviewMessage(raw), undefined, JSON.stringify(raw) ?? String(raw));
  });

  test('a message missing a field, or with one of the wrong type, is refused', () => {
    const broken: unknown[] = [
      { type: 'connect' },
      { type: 'connect', projectId: 1 },
      { type: 'showRejects', projectId: null },
      { type: 'copyText' },
      { ...EXAMPLES.adviceAction, action: 'deleteEverything' },
      { ...EXAMPLES.adviceAction, itemId: 5 },
      { ...EXAMPLES.openToolSource, scope: 'system' },
      { ...EXAMPLES.setServerEnabled, enabled: 'false' },
      { ...EXAMPLES.memorySearch, request: 1.5 },
      { ...EXAMPLES.memorySearch, request: Number.MAX_SAFE_INTEGER + 2 },
      { ...EXAMPLES.memorySearch, types: 'bugfix' },
      { ...EXAMPLES.memorySearch, types: ['bugfix', 3] },
      { ...EXAMPLES.openObservation, id: undefined },
      { ...EXAMPLES.searchMemory, query: ['flaky'] },
    ];
    for (const raw of broken) assert.equal(parseWebviewMessage(raw), undefined, JSON.stringify(raw));
  });

  test('over-long texts are refused at their limits, and accepted just under them', () => {
    const cases: Array<[WebviewMessage, string, number]> = [
      [EXAMPLES.copyText, 'text', 100_000],
      [EXAMPLES.adviceAction, 'itemId', 4096],
      [EXAMPLES.openContextItem, 'itemId', 4096],
      [EXAMPLES.openToolSource, 'name', 1000],
      [EXAMPLES.setServerEnabled, 'server', 1000],
      [EXAMPLES.memorySearch, 'query', 1000],
      [EXAMPLES.openObservation, 'id', 64],
      [EXAMPLES.searchMemory, 'query', 1000],
    ];
    for (const [example, field, limit] of cases) {
      const atLimit = { ...example, [field]: 'x'.repeat(limit) };
      assert.deepEqual(parseWebviewMessage(atLimit), atLimit, `${example.type}.${field} at ${limit}`);
      const over = { ...example, [field]: 'x'.repeat(limit + 1) };
      assert.equal(parseWebviewMessage(over), undefined, `${example.type}.${field} over ${limit}`);
    }
    const manyTypes = { ...EXAMPLES.memorySearch, types: Array.from({ length: 21 }, () => 'bugfix') };
    assert.equal(parseWebviewMessage(manyTypes), undefined, 'more than 20 type filters');
    const longType = { ...EXAMPLES.memorySearch, types: ['x'.repeat(41)] };
    assert.equal(parseWebviewMessage(longType), undefined, 'a type filter over 40 characters');
  });
});
