/**
 * End-to-end ingest (event log files to rows, then snapshot save) at several sizes, with better-sqlite3
 * inserting the very same rows (read back from our snapshot) in the same run as the native reference.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import Database from 'better-sqlite3';
import { DEFAULT_CHUNK_BYTES } from '../src/engine/log/ingest';
import { MIGRATIONS } from '../src/engine/storage/schema';
import { PAGE_SIZE } from '../src/engine/storage/store';
import { bundleForNode } from '../test/support/bundle';
import { type Rows, TABLES, insertJobs, sqlJsInsertMs } from './bareInsert';
import { type BenchSection, median, round } from './report';

/** A realistic mix: sessions of ~40 events, prompts, tool calls with small to medium outputs, 5% failures. */
export function writeEventLog(
  file: string,
  count: number,
  cwd: string,
  timing: { start: number; stepMs: number } = { start: Date.parse('2026-10-01T00:00:00Z'), stepMs: 1500 },
): number {
  const fd = fs.openSync(file, 'w');
  const tools = ['Read', 'Edit', 'Bash', 'Grep', 'Glob', 'Write', 'mcp__github__search_issues', 'Task'];
  let buffer = '';
  for (let i = 0; i < count; i++) {
    const session = `sess-${Math.floor(i / 40)}`;
    const ts = new Date(timing.start + i * timing.stepMs).toISOString();
    const common = {
      session_id: session,
      transcript_path: `/home/u/.claude/projects/x/${session}.jsonl`,
      cwd,
    };
    let payload: Record<string, unknown>;
    if (i % 40 === 0)
      payload = { ...common, hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-5' };
    else if (i % 40 === 39) payload = { ...common, hook_event_name: 'SessionEnd', reason: 'other' };
    else if (i % 8 === 1)
      payload = {
        ...common,
        hook_event_name: 'UserPromptSubmit',
        prompt: `Please fix the failing test number ${i} in src/module${i % 50}.ts`,
      };
    else {
      const tool = tools[i % tools.length];
      const input = { file_path: `/work/project/src/module${i % 50}.ts`, description: 'step' };
      payload =
        i % 20 === 7
          ? {
              ...common,
              hook_event_name: 'PostToolUseFailure',
              tool_name: tool,
              tool_input: input,
              tool_use_id: `toolu_${i}`,
              error: 'Exit code 1\nError: something failed',
              is_interrupt: false,
              duration_ms: 40,
            }
          : {
              ...common,
              hook_event_name: 'PostToolUse',
              tool_name: tool,
              tool_input: input,
              tool_use_id: `toolu_${i}`,
              tool_response: { stdout: 'line of output\n'.repeat(5 + (i % 30)), exitCode: 0 },
              duration_ms: 12,
            };
    }
    buffer += `${JSON.stringify({ ...payload, _cd: { ts, agent: 'claude-code', v: 'bench' } })}\n`;
    if (buffer.length > 1 << 20) {
      fs.writeSync(fd, buffer);
      buffer = '';
    }
  }
  fs.writeSync(fd, buffer);
  fs.closeSync(fd);
  return fs.statSync(file).size;
}

/** Runs per size; the median is reported. The million-event size runs once (a run takes 20 s or more). */
function runsFor(size: number): number {
  return size <= 100_000 ? 5 : 1;
}

interface WorkerResult {
  ingestMs: number;
  saveMs: number;
  events: number;
  rejected: number;
  /** Chunks parsed on the parse worker (the rest inline). */
  workerChunks: number;
  dbBytes: number;
  maxRssBytes: number;
}

function ingestInFreshProcess(bundleDir: string, home: string, project: string): WorkerResult {
  return JSON.parse(
    execFileSync(process.execPath, [path.join(bundleDir, 'ingestWorker.js'), home, project], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }),
  ) as WorkerResult;
}

/** The run with the median ingest time, so that its other figures (save, memory) come from the same run. */
function medianRun(runs: WorkerResult[]): WorkerResult {
  const sorted = [...runs].sort((a, b) => a.ingestMs - b.ingestMs);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

function readRows(snapshot: string): Rows {
  const db = new Database(snapshot, { readonly: true });
  const rows = {} as Rows;
  for (const table of TABLES) {
    const statement = db.prepare(`SELECT * FROM ${table}`).raw(true);
    rows[table] = {
      columns: statement.columns().map((column) => column.name),
      values: statement.all() as unknown[][],
    };
  }
  db.close();
  return rows;
}

/** Native bare inserts of the same rows: same schema, indexes and page size, prepared statements, a transaction per chunk's rows. */
function nativeInsertMs(
  rows: Rows,
  batch: number,
): { insertMs: number; saveMs: number; db: Database.Database } {
  const db = new Database(':memory:');
  db.pragma(`page_size = ${PAGE_SIZE}`);
  db.exec(MIGRATIONS.join(';'));
  // better-sqlite3 binds JS numbers as REAL: integers go in as BigInt, as sql.js binds them, converted before
  // the clock starts.
  const jobs = insertJobs(rows).map((job) => ({
    ...job,
    values: job.values.map((row) =>
      row.map((value) => (Number.isInteger(value) ? BigInt(value as number) : value)),
    ),
  }));
  // The rows just read make garbage; collect it first so that no collection lands inside the timing.
  globalThis.gc?.();
  const started = performance.now();
  for (const job of jobs) {
    const statement = db.prepare(job.sql);
    for (let i = 0; i < job.values.length; i += batch) {
      db.transaction(() => {
        for (const row of job.values.slice(i, i + batch)) statement.run(...(row as never[]));
      })();
    }
  }
  const insertMs = performance.now() - started;
  const saveStarted = performance.now();
  const target = path.join(os.tmpdir(), `cd-bench-native-${process.pid}.sqlite`);
  const fd = fs.openSync(`${target}.tmp`, 'w');
  fs.writeSync(fd, db.serialize());
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(`${target}.tmp`, target);
  const saveMs = performance.now() - saveStarted;
  fs.rmSync(target, { force: true });
  return { insertMs, saveMs, db };
}

function sqlJsInFreshProcess(bundleDir: string, rowsFile: string, batch: number): number {
  const output = execFileSync(
    process.execPath,
    ['--expose-gc', path.join(bundleDir, 'sqlJsBareWorker.js'), rowsFile, String(batch)],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return (JSON.parse(output) as { insertMs: number }).insertMs;
}

export async function benchIngest(sizes: number[]): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  const results: Record<string, unknown> = {};
  const targets: string[] = [];
  // Measured as it ships: bundled, with the parse worker beside the bundle.
  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-bundle-'));
  await bundleForNode(bundleDir, {
    ingestWorker: 'bench/ingestWorker.ts',
    parseWorker: 'src/engine/workers/parseWorker.ts',
    sqlWarmUpWorker: 'src/engine/workers/sqlWarmUpWorker.ts',
    sqlJsBareWorker: 'bench/sqlJsBareWorker.ts',
  });
  for (const size of sizes) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-'));
    try {
      const home = path.join(root, 'home');
      const project = path.join(root, 'project');
      fs.mkdirSync(path.join(home, 'events'), { recursive: true });
      fs.mkdirSync(project);
      const logBytes = writeEventLog(
        path.join(home, 'events', 'bench.jsonl'),
        size,
        fs.realpathSync(project),
      );
      // Both sides run several times, alternating, and report medians: on a shared 2-core machine a single
      // run of either moves by a third.
      const ingests: WorkerResult[] = [];
      const nativeMs: number[] = [];
      const nativeSaves: number[] = [];
      const sqlJsRuns: number[] = [];
      const sqlJsFreshRuns: number[] = [];
      let sameRows: Rows | undefined;
      const rowsFile = path.join(root, 'rows.v8');
      // Rows per transaction matching our chunks, so both sides commit equally often.
      const batch = Math.max(1, Math.round(size / Math.max(1, logBytes / DEFAULT_CHUNK_BYTES)));
      for (let run = 0; run < runsFor(size); run++) {
        fs.rmSync(path.join(home, 'projects'), { recursive: true, force: true });
        const worker = ingestInFreshProcess(bundleDir, home, project);
        if (worker.events !== size || worker.rejected !== 0)
          throw new Error(`ingest lost events: ${JSON.stringify(worker)}`);
        ingests.push(worker);
        if (!sameRows) {
          const projects = path.join(home, 'projects');
          sameRows = readRows(path.join(projects, fs.readdirSync(projects)[0], 'db.sqlite'));
          fs.writeFileSync(rowsFile, v8.serialize(sameRows));
        }
        const native = nativeInsertMs(sameRows, batch);
        native.db.close();
        nativeMs.push(native.insertMs);
        nativeSaves.push(native.saveMs);
        sqlJsRuns.push(await sqlJsInsertMs(sameRows, batch));
        sqlJsFreshRuns.push(sqlJsInFreshProcess(bundleDir, rowsFile, batch));
      }
      if (!sameRows) throw new Error('no ingest ran');
      const worker = medianRun(ingests);
      const native = { insertMs: median(nativeMs), saveMs: median(nativeSaves) };
      const sqlJsMs = median(sqlJsRuns);
      const sqlJsFreshMs = median(sqlJsFreshRuns);
      const oursRate = size / (worker.ingestMs / 1000);
      const nativeRate = size / (native.insertMs / 1000);
      const ratio = oursRate / nativeRate;
      // The engine's limit: how near its whole ingest comes to sql.js inserting the rows bare.
      const ofBare = sqlJsMs / worker.ingestMs;
      // The same, both started as fresh processes (sql.js's code compiled by the warm-up worker, as the
      // extension host starts): the start-up both pay is then in the reference too.
      const ofFreshBare = sqlJsFreshMs / worker.ingestMs;
      rows.push([
        size.toLocaleString('en-US'),
        ingests.length,
        round(logBytes / 1e6),
        Math.round(worker.ingestMs),
        Math.round(oursRate).toLocaleString('en-US'),
        Math.round(native.insertMs),
        Math.round(nativeRate).toLocaleString('en-US'),
        round(ratio, 2),
        Math.round(sqlJsMs),
        round(ofBare, 2),
        Math.round(sqlJsFreshMs),
        round(ofFreshBare, 2),
        Math.round(worker.saveMs),
        Math.round(native.saveMs),
        round(worker.dbBytes / 1e6),
        Math.round(worker.maxRssBytes / 1e6),
        worker.workerChunks,
      ]);
      results[String(size)] = {
        logBytes,
        endToEndMs: worker.ingestMs,
        endToEndEventsPerSec: oursRate,
        nativeBareInsertMs: native.insertMs,
        nativeBareInsertEventsPerSec: nativeRate,
        ratioToNative: ratio,
        sqlJsBareInsertMs: sqlJsMs,
        sqlJsBareInsertMsRuns: sqlJsRuns,
        ratioToSqlJsBare: ofBare,
        sqlJsBareFreshProcessMs: sqlJsFreshMs,
        sqlJsBareFreshProcessMsRuns: sqlJsFreshRuns,
        ratioToSqlJsBareFreshProcess: ofFreshBare,
        snapshotSaveMs: worker.saveMs,
        parseWorkerChunks: worker.workerChunks,
        endToEndMsRuns: ingests.map((run) => run.ingestMs),
        nativeBareInsertMsRuns: nativeMs,
        nativeSaveMs: native.saveMs,
        dbBytes: worker.dbBytes,
        peakRssBytes: worker.maxRssBytes,
      };
      if (size === 100_000) {
        targets.push(
          `100k events end to end: ${Math.round(oursRate).toLocaleString('en-US')} events/s (target >= 100,000): ${oursRate >= 100_000 ? 'met' : 'NOT met'}`,
          `100k events vs sql.js inserting the same rows bare: ${round(ofBare, 2)}x (target >= 0.8x): ${ofBare >= 0.8 ? 'met' : 'NOT met'}; against the same insert in a fresh process, ${round(ofFreshBare, 2)}x`,
          `100k events vs native bare insert of the same rows: ${round(ratio, 2)}x (target >= 0.5x): ${ratio >= 0.5 ? 'met' : 'NOT met'}`,
        );
      }
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }
  fs.rmSync(bundleDir, { recursive: true, force: true });
  return {
    title:
      'Ingest: event log files to rows (end to end) and snapshot save, vs better-sqlite3 and sql.js inserting the same rows bare (medians of alternating runs)',
    columns: [
      'events',
      'runs',
      'log MB',
      'ours ms',
      'ours ev/s',
      'native ms',
      'native ev/s',
      'ratio to native',
      'sql.js bare ms',
      'ratio to sql.js bare',
      'sql.js bare, fresh process ms',
      'ratio to it',
      'save ms',
      'native save ms',
      'db MB',
      'peak RSS MB',
      'chunks on parse worker',
    ],
    rows,
    results,
    targets,
  };
}
