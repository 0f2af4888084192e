/** The dashboard's intents: each checked message reaches its one handler; nothing else runs, nothing throws. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type DashboardIntents,
  type IntentType,
  routeDashboardMessage,
} from '../../src/host/dashboard/dashboardIntents';
import type { WebviewMessage } from '../../src/shared/protocol';

const TYPES = [
  'ready',
  'ingestNow',
  'openEventLog',
  'showRejects',
  'copyText',
  'openFolder',
  'connect',
  'disconnect',
  'importHistory',
  'adviceAction',
  'adviceUndo',
  'previewContext',
  'openToolSource',
  'openContextItem',
  'setServerEnabled',
  'memorySearch',
  'openObservation',
  'searchMemory',
] as const;
/** Every message type of the protocol is in the list above: this fails to compile when one is added. */
export const LISTED: Exclude<IntentType, (typeof TYPES)[number]> extends never ? true : never = true;

/** Handlers that record what they were given; `behave` makes one of them fail. */
function recording(behave: Partial<Record<IntentType, () => unknown>> = {}) {
  const received: WebviewMessage[] = [];
  const intents = Object.fromEntries(
    TYPES.map((type) => [
      type,
      (message: WebviewMessage) => {
        received.push(message);
        return behave[type]?.();
      },
    ]),
  ) as DashboardIntents;
  const ignored: unknown[] = [];
  const failed: Array<{ type: IntentType; error: unknown }> = [];
  const route = async (raw: unknown) => {
    routeDashboardMessage(raw, intents, {
      ignored: (message) => ignored.push(message),
      failed: (type, error) => failed.push({ type, error }),
    });
    // A rejected handler is reported on a later turn.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { received, ignored, failed, route };
}

describe('dashboard intents', () => {
  test('a well-formed message reaches its own handler, with only the fields it declares', async () => {
    const { received, ignored, route } = recording();
    await route({ type: 'openToolSource', projectId: 'p1', name: 'Read', scope: 'project', extra: 'x' });
    await route({ type: 'ingestNow', projectId: 'ignored field' });
    assert.deepEqual(received, [
      { type: 'openToolSource', projectId: 'p1', name: 'Read', scope: 'project' },
      { type: 'ingestNow' },
    ]);
    assert.deepEqual(ignored, []);
  });

  test('an unknown or malformed message runs nothing and is reported as ignored', async () => {
    const { received, ignored, route } = recording();
    const bad = [
      null,
      'ingestNow',
      { type: 'runShell', command: 'rm -rf ~' },
      { type: 'openToolSource', projectId: 'p1', name: 'Read', scope: 'anywhere' },
      { type: 'copyText', text: 'x'.repeat(100_001) },
      { type: 'setServerEnabled', projectId: 'p1', server: 'github', enabled: 'yes' },
    ];
    for (const raw of bad) await route(raw);
    assert.deepEqual(received, []);
    assert.deepEqual(ignored, bad);
  });

  test("a handler's failure, thrown or rejected, is reported with its type and never thrown at the page", async () => {
    const { failed, route } = recording({
      connect: () => {
        throw new Error('no settings file');
      },
      importHistory: () => Promise.reject(new Error('cancelled')),
    });
    await route({ type: 'connect', projectId: 'p1' });
    await route({ type: 'importHistory', projectId: 'p1' });
    await route({ type: 'disconnect', projectId: 'p1' });
    assert.deepEqual(
      failed.map(({ type, error }) => [type, (error as Error).message]),
      [
        ['connect', 'no settings file'],
        ['importHistory', 'cancelled'],
      ],
    );
  });
});
