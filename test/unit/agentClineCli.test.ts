/**
 * Cline CLI 3.0 (the CLI on Cline's SDK): its session folders and its hooks' payloads, from files the real
 * CLI 3.0.65 wrote against the agent suite's scripted model (test/fixtures/cline/README.md), through the
 * real engine.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { clinePayloads } from '../../src/engine/agents/cline/payload';
import { findClineSdkSessions, readClineSdkSession } from '../../src/engine/agents/cline/sdkSessions';
import type { SessionItem } from '../../src/engine/agents/adapter';
import type { EventPayload } from '../../src/engine/events/eventLine';
import { sessionFileOf, sessionGauge, sessionOfFile } from '../../src/engine/live/activeSession';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { sessionFileOwner } from '../../src/engine/transcripts/agentSessionImport';
import { assembleSessionContext } from '../../src/engine/context/sessionContextAssembly';
import { importTranscripts } from '../../src/engine/transcripts/importTranscripts';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';

const FIXTURES = path.join(FIXTURES_DIR, 'cline');
/** The project folder the fixture session ran in, and its id. */
const FIXTURE_ROOT = '/home/dev/greet';
const SESSION = '1796651725036_crpp5';

const temps: string[] = [];
after(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fixture's `~/.cline/data` copied, its session begun in `root` instead of the fixture's folder. */
function dataDirFor(root: string): string {
  const data = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cd-cline-cli-')), 'data');
  temps.push(path.dirname(data));
  fs.cpSync(path.join(FIXTURES, 'sdk-data'), data, { recursive: true });
  const dir = path.join(data, 'sessions', SESSION);
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split(FIXTURE_ROOT).join(root));
  }
  return data;
}

function messagesFile(data: string): string {
  return path.join(data, 'sessions', SESSION, `${SESSION}.messages.json`);
}

function ofType<T extends SessionItem['type']>(items: SessionItem[], type: T) {
  return items.filter((item): item is Extract<SessionItem, { type: T }> => item.type === type);
}

function withEnv<T>(vars: Record<string, string>, body: () => T): T {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  try {
    return body();
  } finally {
    process.env = saved;
  }
}

describe('Cline CLI 3.0 session folders', () => {
  test('its files are a session file of Cline’s, found by the folder the session ran in', () => {
    const data = dataDirFor(FIXTURE_ROOT);
    const file = messagesFile(data);
    assert.equal(sessionFileOwner(file).adapter?.id, 'cline');
    assert.equal(sessionFileOwner(path.join(path.dirname(file), `${SESSION}.json`)).adapter?.id, 'cline');
    const env = { CLINE_SESSION_DATA_DIR: path.join(data, 'sessions') };
    assert.deepEqual(findClineSdkSessions(FIXTURE_ROOT, env), [file]);
    assert.deepEqual(findClineSdkSessions('/home/dev/other', env), []);
  });

  test('the session: its prompt, five tool calls with the failed check, usage and report', async () => {
    const { items, skipped } = await readClineSdkSession(messagesFile(dataDirFor(FIXTURE_ROOT)));
    assert.equal(skipped, 0);
    const [session] = ofType(items, 'session');
    assert.deepEqual(
      [session.sessionId, session.cwd, session.model],
      [SESSION, FIXTURE_ROOT, 'scripted-model'],
    );
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['Make greet.sh print hello and its check pass'],
    );
    assert.deepEqual(
      ofType(items, 'tool').map(({ call }) => [
        call.name,
        call.kind,
        call.outcome?.failed,
        call.outcome?.exitCode,
      ]),
      [
        ['run_commands', 'shell', false, undefined],
        ['editor', 'edit', false, undefined],
        ['run_commands', 'shell', true, 1],
        ['editor', 'edit', false, undefined],
        ['run_commands', 'shell', false, undefined],
      ],
    );
    // Each request's input tokens hold the half read from cache: counted once, plus the answer's tokens.
    assert.deepEqual(
      ofType(items, 'usage').map((usage) => [usage.contextTokens, usage.contextWindow]),
      [
        [5_450 + 25, 128_000],
        [5_532 + 30, 128_000],
        [5_647 + 18, 128_000],
        [5_746 + 52, 128_000],
        [5_888 + 18, 128_000],
        [5_963 + 16, 128_000],
      ],
    );
    assert.equal(
      ofType(items, 'report').at(-1)?.text,
      'Done: greet.sh now prints hello and its check passes.',
    );
  });

  test('the gauge follows the session the hooks named: the last request’s tokens, cache once, of 128,000', async () => {
    const root = fs.realpathSync(path.dirname(dataDirFor(FIXTURE_ROOT)));
    const data = dataDirFor(root);
    await withEnv({ CLINE_SESSION_DATA_DIR: path.join(data, 'sessions') }, async () => {
      assert.equal(sessionFileOf('cline', root, SESSION), messagesFile(data));
      const gauge = sessionGauge(sessionOfFile(messagesFile(data)));
      assert.ok(gauge);
      await gauge.refresh();
      const reading = gauge.reading();
      assert.deepEqual([reading.tokens, reading.window], [5_963 + 16, 128_000]);
    });
  });

  test('an import counts the session once, with its prompt, tool calls and the failure', async () => {
    const ws = tempWorkspace('cd-cline-cli-import-');
    const saved = { ...process.env };
    try {
      const data = dataDirFor(ws.project);
      Object.assign(process.env, {
        CLINE_SESSION_DATA_DIR: path.join(data, 'sessions'),
        CLINE_STORAGE_DIRS: path.join(ws.home, 'no-cline'),
        CLAUDE_CONFIG_DIR: path.join(ws.home, 'no-claude'),
        CODEX_HOME: path.join(ws.home, 'no-codex'),
        XDG_DATA_HOME: path.join(ws.home, 'no-data'),
        VSCODE_USER_DATA_DIRS: path.join(ws.home, 'no-vscode'),
      });
      // A minute after the session ended: not yet idle long enough to be taken as ended.
      const now = Date.parse('2026-12-07T13:56:30Z');
      const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, now: () => now });
      try {
        const first = await importTranscripts(engine);
        assert.deepEqual(first.problems, []);
        assert.deepEqual(
          [first.files, first.sessions, first.prompts, first.toolCalls, first.failures],
          [1, 1, 1, 5, 1],
        );
        const again = await importTranscripts(engine, { force: true });
        assert.deepEqual([again.sessions, again.prompts, again.toolCalls], [0, 0, 0]);
        // Cline's manifest says the session ended: the next session is handed it at once, not after 30 idle minutes.
        const context = assembleSessionContext(engine, { now });
        assert.match(context.text, /## Previous Session/);
        assert.ok(
          context.text.includes('Done: greet.sh now prints hello and its check passes.'),
          context.text,
        );
      } finally {
        await engine.close();
      }
    } finally {
      process.env = saved;
      ws.cleanup();
    }
  });
});

describe('Cline CLI 3.0 hook payloads', () => {
  const payloads = fs
    .readFileSync(path.join(FIXTURES, 'hooks-cli-3.0.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EventPayload);

  test('each names the session its files are in (rootSessionId), not the run’s conversation (taskId)', () => {
    const events = payloads.map((payload) => clinePayloads.normalise(payload));
    assert.deepEqual(
      events.map((event) => [event?.kind, event?.sessionId]),
      [
        ['session-start', SESSION],
        ['tool-failed', SESSION],
        ['stop', SESSION],
      ],
    );
    assert.equal(events[1]?.tool?.useId, 'call_mxdc1sqe6');
  });
});
