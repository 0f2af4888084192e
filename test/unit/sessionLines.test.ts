import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { codexAdapter } from '../../src/engine/agents/codex';
import { vscodeAdapter } from '../../src/engine/agents/vscode';

/** The agents whose session files are read whole, a JSON object a line (sessionLines.ts). */
const READERS = [codexAdapter, vscodeAdapter].map((adapter) => {
  const sessions = adapter.sessions;
  assert.ok(sessions);
  return [adapter.id, sessions] as const;
});

describe('reading line-per-event session files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'session-lines-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [agent, sessions] of READERS) {
    test(`${agent}: a file removed since it was found reads as empty`, async () => {
      assert.deepEqual(await sessions.read(path.join(dir, 'gone.jsonl')), { items: [], skipped: 0 });
    });

    test(`${agent}: a file that cannot be read rejects the promise instead of throwing at the call`, async () => {
      const folder = fs.mkdtempSync(path.join(dir, 'not-a-file-'));
      const pending = sessions.read(folder);
      await assert.rejects(pending, /EISDIR/);
    });
  }
});
