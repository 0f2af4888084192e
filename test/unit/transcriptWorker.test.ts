/**
 * Large imports read transcripts on a worker thread while this thread writes. The rows must be exactly those
 * of an inline read, with tool uses and their results split across chunks, and a worker that dies must cost
 * only a re-read of the files it was reading: nothing lost, nothing counted twice.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { type TranscriptImportResult, importTranscripts } from '../../src/engine/transcripts';
import { useBundle } from '../support/bundle';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';

/** Real Claude Code sessions (15.5 MB, subagent files among them). */
const SESSIONS = path.join(FIXTURES_DIR, 'claude-code-sessions');
/** Small chunks, so that the import spans hundreds of them and uses wait for results chunks later. */
const CHUNK_BYTES = 64 * 1024;

const script = useBundle({ transcriptWorker: 'src/engine/workers/transcriptWorker.ts' });
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

type Rows = Record<string, unknown[]>;

/** Every row an import writes, in a stable order. */
function rowsOf(engine: ProjectEngine): Rows {
  const all = (sql: string) => engine.store.all(sql);
  return {
    toolCalls: all(
      'SELECT tool_use_id, session_id, tool_name, success, duration_ms, error, at FROM tool_calls ORDER BY tool_use_id',
    ),
    prompts: all('SELECT source_key, session_id, text, at FROM prompts ORDER BY source_key'),
    sessions: all('SELECT * FROM sessions ORDER BY id'),
    observations: all('SELECT * FROM observations ORDER BY seq'),
    pending: all('SELECT * FROM transcript_pending_tools ORDER BY tool_use_id'),
    files: all('SELECT path, size, offset, head_hash, tail_hash FROM transcript_files ORDER BY path'),
  };
}

async function imported(
  workerFile: string | null,
  again = false,
): Promise<{ rows: Rows; results: TranscriptImportResult[] }> {
  const ws = tempWorkspace('cd-transcript-worker-');
  cleanups.push(ws.cleanup);
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  try {
    const results = [
      await importTranscripts(engine, { paths: [SESSIONS], chunkBytes: CHUNK_BYTES, workerFile }),
    ];
    if (again)
      results.push(
        await importTranscripts(engine, { paths: [SESSIONS], chunkBytes: CHUNK_BYTES, workerFile: null }),
      );
    return { rows: rowsOf(engine), results };
  } finally {
    await engine.close();
  }
}

test('read on the worker, real sessions give the rows and memory an inline read gives', async () => {
  const inline = await imported(null);
  const worker = await imported(script('transcriptWorker'));
  assert.equal(inline.results[0].workerChunks, 0);
  assert.ok(worker.results[0].workerChunks > 200, `${worker.results[0].workerChunks} chunks on the worker`);
  assert.ok(
    (inline.rows.toolCalls as unknown[]).length > 900 && (inline.rows.observations as unknown[]).length > 300,
  );
  assert.deepEqual(worker.rows, inline.rows);
  assert.deepEqual({ ...worker.results[0], workerChunks: 0 }, inline.results[0]);
});

test('a worker that dies fails the files it was reading, and the next import completes them to the same rows', async () => {
  const ws = tempWorkspace('cd-dying-worker-');
  cleanups.push(ws.cleanup);
  const dying = path.join(ws.home, 'dyingWorker.js');
  fs.writeFileSync(
    dying,
    "require('node:worker_threads').parentPort.on('message', () => process.exit(7));\n",
  );
  const inline = await imported(null);
  const { rows, results } = await imported(dying, true);
  const [first, second] = results;
  assert.ok(first.problems.length > 0, 'the files the worker was reading are reported');
  for (const problem of first.problems) assert.match(problem, /transcript worker stopped/);
  assert.ok(first.files > first.problems.length, 'the files after it are read inline');
  assert.equal(second.problems.length, 0);
  // The files read again come later, so their observations come later: the same rows in another order.
  const unordered = ({ observations, ...rest }: Rows) => ({
    ...rest,
    observations: (observations as Array<{ seq: number; id: string }>)
      .map(({ seq: _seq, ...row }) => row)
      .sort((a, b) => a.id.localeCompare(b.id)),
  });
  assert.deepEqual(unordered(rows), unordered(inline.rows));
});
