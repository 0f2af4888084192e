/**
 * Large backlogs are read and parsed on a worker thread while the main thread writes. The rows must be
 * exactly those of an inline parse, including the summariser's per-session state carried across chunks,
 * and a worker that dies or cannot start must cost nothing but speed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MEMORY_EVENTS } from '../../src/engine/memory/types';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { bundleForNode } from '../support/bundle';
import { type Payload, hookEvent, tempWorkspace, toLines } from '../support/events';

const T0 = Date.parse('2026-11-01T09:00:00Z');
/** Small chunks, so the backlog spans dozens of them and session state crosses chunk boundaries. */
const CHUNK_BYTES = 4096;

let root: ReturnType<typeof tempWorkspace>;
let bundledWorker: string;

before(async () => {
  root = tempWorkspace('cd-parse-worker-');
  const outDir = path.join(root.home, 'bundle');
  await bundleForNode(outDir, { parseWorker: 'src/engine/workers/parseWorker.ts' });
  bundledWorker = path.join(outDir, 'parseWorker.js');
});
after(() => root.cleanup());

/** A log of several interleaved sessions, memory writes, other projects' events and bad lines. */
function backlog(project: string, elsewhere: string): Buffer {
  const parts: Array<string | Buffer> = [];
  let at = T0;
  const push = (event: string, values: Payload) => {
    at += 1000;
    // The memory's own events are no hook examples: they are written as the CLI writes them.
    const payload = event.startsWith('ContextDeck.')
      ? { hook_event_name: event, ...values, _cd: { ts: new Date(at).toISOString() } }
      : hookEvent(event, { ...values, at });
    parts.push(toLines([payload]));
  };
  const bash = (session: string, i: number, command: string, exitCode: number) =>
    push('PostToolUse', {
      session_id: session,
      cwd: project,
      tool_name: 'Bash',
      tool_use_id: `toolu_${session}_${i}`,
      tool_input: { command },
      tool_response: { stdout: exitCode === 0 ? 'Tests: 12 passed' : 'Tests: 2 failed', exitCode },
    });
  for (let round = 0; round < 40; round++) {
    for (const session of ['s-a', 's-b', 's-c']) {
      const base = { session_id: session, cwd: project };
      if (round === 0) push('SessionStart', { ...base, source: 'startup', model: 'claude-sonnet-4-5' });
      if (round % 10 === 0)
        push('UserPromptSubmit', {
          ...base,
          prompt:
            session === 's-a'
              ? `fix the failing parser test number ${round}`
              : `add a new export format ${round}`,
        });
      push('PostToolUse', {
        ...base,
        tool_name: 'Edit',
        tool_use_id: `toolu_${session}_edit_${round}`,
        tool_input: {
          file_path: `${project}/src/file${round}.ts`,
          old_string: `old ${round}`,
          new_string: `new ${round}`,
        },
        tool_response: { filePath: `${project}/src/file${round}.ts` },
      });
      // Tests fail in one round and pass in the next: "passed again" needs the state of the chunk before.
      if (round % 5 === 3) bash(session, round, `npm test -- ${session}`, 1);
      if (round % 5 === 4) bash(session, round, `npm test -- ${session}`, 0);
      push('PostToolUseFailure', {
        ...base,
        tool_name: 'Read',
        tool_use_id: `toolu_${session}_read_${round}`,
        tool_input: { file_path: `${project}/missing${round}.ts` },
        error: `File does not exist: missing${round}.ts`,
        is_interrupt: false,
      });
      push('PostToolUse', {
        ...base,
        session_id: `other-${session}`,
        cwd: elsewhere,
        tool_name: 'Read',
        tool_use_id: `toolu_other_${session}_${round}`,
      });
    }
    if (round === 12) {
      push(MEMORY_EVENTS.save, {
        cwd: project,
        id: '0123456789abcdef',
        text: 'Parser rewrite decided: use a state machine',
      });
      parts.push('not json at all\n', '[1, 2, 3]\n', Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    }
    if (round === 30) push(MEMORY_EVENTS.forget, { cwd: project, ids: ['0123456789abcdef'] });
  }
  return Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
}

/** Every row an ingest derives, without what differs by home (file paths, reject times). */
function rows(engine: ProjectEngine): Record<string, unknown[]> {
  const dump = (sql: string) => engine.store.all(sql);
  return {
    counters: dump('SELECT * FROM counters ORDER BY name'),
    sessions: dump('SELECT * FROM sessions ORDER BY id'),
    toolCalls: dump('SELECT * FROM tool_calls ORDER BY id'),
    prompts: dump('SELECT * FROM prompts ORDER BY id'),
    observations: dump('SELECT * FROM observations ORDER BY seq'),
    rejects: dump('SELECT file_id, offset, length, reason, sample FROM rejects ORDER BY id'),
    files: dump('SELECT offset, lines, foreign_lines FROM log_files ORDER BY id'),
  };
}

async function ingestInto(
  name: string,
  log: Buffer,
  parseWorkerFile: string | null,
): Promise<{ engine: ProjectEngine; workerChunks: number; events: number }> {
  const home = path.join(root.home, name);
  fs.mkdirSync(path.join(home, 'events'), { recursive: true });
  fs.writeFileSync(path.join(home, 'events', 'backlog.jsonl'), log);
  const engine = await ProjectEngine.open({
    home,
    folder: root.project,
    role: 'writer',
    parseWorkerFile,
    now: () => T0,
  });
  const result = await engine.ingest({ chunkBytes: CHUNK_BYTES });
  return { engine, workerChunks: result.workerChunks, events: result.events };
}

describe('parse worker', () => {
  test('a backlog parsed on the worker gives exactly the rows of an inline parse', async () => {
    const elsewhere = path.join(root.home, 'elsewhere');
    const log = backlog(root.project, elsewhere);
    const chunks = Math.ceil(log.length / CHUNK_BYTES);
    assert.ok(chunks > 40, `the backlog spans many chunks (${chunks})`);

    const inline = await ingestInto('inline', log, null);
    const onWorker = await ingestInto('worker', log, bundledWorker);
    try {
      assert.equal(inline.workerChunks, 0);
      // All but the first chunk, which is parsed inline while the worker starts.
      assert.ok(
        onWorker.workerChunks >= chunks - 2,
        `${onWorker.workerChunks} of ~${chunks} chunks on the worker`,
      );
      assert.equal(onWorker.events, inline.events);
      assert.deepEqual(rows(onWorker.engine), rows(inline.engine));

      // The rows compared hold what crosses chunks: edits typed by an earlier prompt, recoveries, forgets.
      const texts = (sql: string) => onWorker.engine.store.all(sql).map((row) => String(row.text));
      assert.ok(
        texts("SELECT text FROM observations WHERE type = 'bugfix'").some((text) =>
          text.includes('src/file9.ts'),
        ),
      );
      // Fails and passes are a chunk apart; repeats within a session are near duplicates and kept once.
      const recoveries = texts(
        "SELECT session_id AS text FROM observations WHERE text LIKE 'Tests passed again%'",
      );
      assert.deepEqual([...new Set(recoveries)].sort(), ['s-a', 's-b', 's-c']);
      assert.deepEqual(texts('SELECT text FROM observations WHERE forgotten_at IS NOT NULL'), [
        'Parser rewrite decided: use a state machine',
      ]);
      assert.equal(onWorker.engine.counts().rejected, 3);
    } finally {
      await inline.engine.close();
      await onWorker.engine.close();
    }
  });

  test('a worker that dies or cannot start costs speed, never rows', async () => {
    const log = backlog(root.project, path.join(root.home, 'elsewhere'));
    const dies = path.join(root.home, 'dies.js');
    fs.writeFileSync(
      dies,
      "require('node:worker_threads').parentPort.on('message', () => process.exit(1));\n",
    );
    const inline = await ingestInto('inline-2', log, null);
    try {
      for (const [name, workerFile] of [
        ['dies', dies],
        ['missing', path.join(root.home, 'no-such-worker.js')],
      ]) {
        const broken = await ingestInto(name, log, workerFile);
        try {
          assert.equal(broken.workerChunks, 0, name);
          assert.deepEqual(rows(broken.engine), rows(inline.engine), name);
        } finally {
          await broken.engine.close();
        }
      }
    } finally {
      await inline.engine.close();
    }
  });
});
