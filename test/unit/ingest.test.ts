import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import {
  allHookExamples,
  appendEvents,
  hookEvent,
  sessionEvents,
  tempWorkspace,
  toLines,
} from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
const engines: ProjectEngine[] = [];

async function open(folder = ws.project, extra: Partial<Parameters<typeof ProjectEngine.open>[0]> = {}) {
  const engine = await ProjectEngine.open({ home: ws.home, folder, saveDebounceMs: 10, ...extra });
  engines.push(engine);
  return engine;
}

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  ws.cleanup();
});

describe('ingestion', () => {
  test('derives sessions, tool calls, failures and prompts from hook events', async () => {
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 's1',
        cwd: ws.project,
        startAt: Date.parse('2026-11-01T10:00:00Z'),
        prompts: ['fix the build', 'now add tests'],
        tools: [{ tool: 'Read' }, { tool: 'Edit' }, { tool: 'Bash', error: 'Exit code 1' }, { tool: 'Bash' }],
      }),
    );
    const engine = await open();
    const result = await engine.ingest();
    assert.equal(result.events, 8);
    assert.deepEqual(
      { ...engine.counts(), dbBytes: 0 },
      {
        events: 8,
        rejected: 0,
        sessions: 1,
        toolCalls: 4,
        toolFailures: 1,
        prompts: 2,
        agents: { 'claude-code': 8 },
        dbBytes: 0,
      },
    );
    const session = engine.store.get('SELECT * FROM sessions WHERE id = ?', ['s1'])!;
    assert.equal(session.model, 'claude-sonnet-4-5');
    assert.equal(session.source, 'startup');
    assert.equal(session.started_at, Date.parse('2026-11-01T10:00:00Z'));
    assert.equal(session.end_reason, 'other');
    assert.ok(Number(session.ended_at) > Number(session.started_at));
    const failure = engine.store.get('SELECT * FROM tool_calls WHERE success = 0')!;
    assert.equal(failure.tool_name, 'Bash');
    assert.equal(failure.error, 'Exit code 1');
  });

  test('every documented hook example is a valid event', async () => {
    const examples = allHookExamples();
    assert.ok(examples.length >= 30, 'fixtures are present');
    appendEvents(
      ws.home,
      examples.map(({ payload }) => ({ ...payload, cwd: ws.project })),
    );
    const engine = await open();
    const result = await engine.ingest();
    assert.equal(result.events, examples.length);
    assert.equal(result.rejected, 0);
    // The docs reuse one tool_use_id for the success and the failure example; both are events.
    assert.equal(engine.counts().toolCalls, 1);
  });

  test('ingests each line exactly once across repeated passes and restarts', async () => {
    const file = appendEvents(
      ws.home,
      sessionEvents({ sessionId: 'a', cwd: ws.project, startAt: 1e12, tools: [{ tool: 'Read' }] }),
    );
    let engine = await open();
    await engine.ingest();
    await engine.ingest();
    assert.equal(engine.counts().events, 3);
    await engine.close();
    engines.pop();

    fs.appendFileSync(
      file,
      toLines(sessionEvents({ sessionId: 'b', cwd: ws.project, startAt: 2e12, tools: [{ tool: 'Grep' }] })),
    );
    engine = await open();
    assert.equal(engine.counts().events, 3, 'the snapshot was saved on close');
    await engine.ingest();
    assert.equal(engine.counts().events, 6);
    assert.equal(engine.counts().toolCalls, 2);
  });

  test('a torn last line waits until its newline arrives', async () => {
    const event = JSON.stringify(
      hookEvent('UserPromptSubmit', { session_id: 's', cwd: ws.project, prompt: 'hello' }),
    );
    const file = path.join(ws.home, 'events', 'torn.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${event}\n${event.slice(0, 40)}`);
    const engine = await open();
    await engine.ingest();
    assert.equal(engine.counts().prompts, 1);
    assert.equal(engine.counts().rejected, 0);
    fs.appendFileSync(file, `${event.slice(40)}\n`);
    await engine.ingest();
    assert.equal(engine.counts().prompts, 2);
    assert.equal(engine.counts().rejected, 0);
  });

  test('bad lines are rejected with a reason and the good lines around them are kept', async () => {
    const good = (i: number) =>
      JSON.stringify(hookEvent('UserPromptSubmit', { session_id: 's', cwd: ws.project, prompt: `p${i}` }));
    const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const huge = `{"cwd":"${ws.project}","x":"${'y'.repeat(17 * 1024 * 1024)}"}`;
    const lines: Array<string | Buffer> = [
      good(1),
      'this is not json',
      good(2),
      '[1,2,3]',
      '"a string"',
      '42',
      'null',
      good(3),
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), // invalid UTF-8
      Buffer.from([0x00, 0x01, 0x02, 0x03, 0x9c, 0x80]), // binary
      deep,
      huge,
      good(4),
      '{"unterminated": ',
      good(5),
    ];
    const file = path.join(ws.home, 'events', 'bad.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      Buffer.concat(lines.map((line) => Buffer.concat([Buffer.from(line), Buffer.from('\n')]))),
    );
    const engine = await open();
    const result = await engine.ingest();
    assert.equal(result.events, 5);
    assert.equal(result.rejected, 10);
    assert.equal(engine.counts().prompts, 5);
    const reasons = engine.rejects().map((reject) => reject.reason);
    assert.ok(reasons.some((reason) => reason.startsWith('not JSON')));
    assert.ok(reasons.some((reason) => reason === 'not a JSON object but an array'));
    assert.ok(reasons.some((reason) => reason === 'not valid UTF-8'));
    assert.ok(reasons.some((reason) => reason.startsWith('nested deeper than')));
    assert.ok(reasons.some((reason) => /over the 16 MiB limit/.test(reason)));
    // Offsets point at the rejected line itself.
    const notJson = engine.rejects().find((reject) => reject.sample === 'this is not json')!;
    assert.equal(notJson.offset, Buffer.byteLength(good(1)) + 1);
    // A second pass finds nothing new and rejects nothing twice.
    const again = await engine.ingest();
    assert.deepEqual([again.events, again.rejected], [0, 0]);
    assert.equal(engine.counts().rejected, 10);
  });

  test('a truncated or replaced file is read from its start without counting old lines twice', async () => {
    const first = sessionEvents({
      sessionId: 'old',
      cwd: ws.project,
      startAt: 1e12,
      tools: [{ tool: 'Read' }],
    });
    const file = appendEvents(ws.home, first, 'rotating.jsonl');
    const engine = await open();
    await engine.ingest();
    assert.equal(engine.counts().events, first.length);

    // Replaced by a copy holding the same lines plus new ones (a sync tool or an editor's save): continue.
    const more = sessionEvents({ sessionId: 'more', cwd: ws.project, startAt: 2e12 });
    fs.writeFileSync(`${file}.new`, toLines([...first, ...more]));
    fs.renameSync(`${file}.new`, file);
    let result = await engine.ingest();
    assert.deepEqual(result.rewritten, []);
    assert.equal(engine.counts().events, first.length + more.length);

    // Truncated and rewritten with different, longer content: the identity changed, read from the start.
    const replacement = sessionEvents({
      sessionId: 'new',
      cwd: ws.project,
      startAt: 3e12,
      prompts: ['x', 'y', 'z'],
    });
    fs.truncateSync(file, 0);
    fs.appendFileSync(file, toLines(replacement));
    result = await engine.ingest();
    assert.equal(result.rewritten.length, 1);
    assert.match(result.rewritten[0], /replaced by other content.*read from its start/);
    assert.equal(result.events, replacement.length);
    assert.equal(engine.counts().events, first.length + more.length + replacement.length);
    assert.equal(engine.counts().sessions, 3);
  });

  test('events are routed by cwd: other projects and nested open roots keep theirs', async () => {
    const inner = path.join(ws.project, 'packages', 'inner');
    fs.mkdirSync(inner, { recursive: true });
    const elsewhere = path.join(path.dirname(ws.project), 'other');
    appendEvents(ws.home, [
      hookEvent('UserPromptSubmit', { session_id: 's', cwd: ws.project, prompt: 'mine' }),
      hookEvent('UserPromptSubmit', {
        session_id: 's',
        cwd: path.join(ws.project, 'src'),
        prompt: 'mine too',
      }),
      hookEvent('UserPromptSubmit', { session_id: 's', cwd: inner, prompt: 'inner' }),
      hookEvent('UserPromptSubmit', { session_id: 't', cwd: elsewhere, prompt: 'other' }),
      { hook_event_name: 'UserPromptSubmit', prompt: 'no cwd' },
    ]);
    const outer = await open(ws.project, { excludeRoots: [inner] });
    const innerEngine = await open(inner);
    const outerResult = await outer.ingest();
    const innerResult = await innerEngine.ingest();
    assert.deepEqual([outerResult.events, outerResult.foreign], [2, 3]);
    assert.deepEqual([innerResult.events, innerResult.foreign], [1, 4]);
    assert.notEqual(outer.identity.id, innerEngine.identity.id);
  });

  test('received time comes from the recorder stamp, else the time of ingestion', async () => {
    appendEvents(ws.home, [
      hookEvent('UserPromptSubmit', {
        session_id: 's',
        cwd: ws.project,
        prompt: 'stamped',
        at: Date.parse('2026-01-02T03:04:05Z'),
      }),
      hookEvent('UserPromptSubmit', { session_id: 's', cwd: ws.project, prompt: 'unstamped' }),
    ]);
    const engine = await open(ws.project, { now: () => Date.parse('2026-11-22T00:00:00Z') });
    await engine.ingest();
    const times = engine.store
      .all('SELECT text, at FROM prompts ORDER BY id')
      .map((row) => [row.text, row.at]);
    assert.deepEqual(times, [
      ['stamped', Date.parse('2026-01-02T03:04:05Z')],
      ['unstamped', Date.parse('2026-11-22T00:00:00Z')],
    ]);
  });

  test('large backlogs are ingested in chunks with progress', async () => {
    const events = [];
    for (let i = 0; i < 200; i++) {
      events.push(
        ...sessionEvents({
          sessionId: `s${i}`,
          cwd: ws.project,
          startAt: 1e12 + i * 1e6,
          tools: [{ tool: 'Read' }, { tool: 'Edit' }],
        }),
      );
    }
    appendEvents(ws.home, events);
    const engine = await open();
    const seen: number[] = [];
    await engine.ingest({
      chunkBytes: 16 * 1024,
      onProgress: (progress) => seen.push(progress.doneBytes / progress.totalBytes),
    });
    assert.equal(engine.counts().events, events.length);
    assert.ok(seen.length > 5, `progress was reported per chunk (${seen.length})`);
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
    );
    assert.equal(seen.at(-1), 1);
  });
});
