/**
 * A backlog read in the catch-up process (as the extension host does for large ones) leaves the database an
 * ingest on the host's own thread would, saved; the host then goes on reading new lines exactly once.
 * Cancelled, it keeps what was read; a process that fails leaves the database as it was, and one whose host
 * has gone stops.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ChildJob } from '../../src/engine/project/catchUp';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { discoverFromUse } from '../../src/engine/registry';
import { useBundle } from '../support/bundle';
import { appendEvents, type Payload, sessionEvents, tempWorkspace } from '../support/events';
import { savedEvents } from '../support/shipped';

const DAY = 86_400_000;
const DETAIL_DAYS = 30;
/** Small chunks, so a cancel lands mid-backlog. */
const CHUNK_BYTES = 16 * 1024;

const script = useBundle({
  catchUpProcess: 'src/engine/workers/catchUpProcess.ts',
  parseWorker: 'src/engine/workers/parseWorker.ts',
});
const catchUpScript = () => script('catchUpProcess');

let ws: ReturnType<typeof tempWorkspace>;
const engines: ProjectEngine[] = [];
beforeEach(() => {
  ws = tempWorkspace('cd-catchup-');
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  ws.cleanup();
});

async function openWriter(home: string): Promise<ProjectEngine> {
  const engine = await ProjectEngine.open({ home, folder: ws.project, role: 'writer' });
  engines.push(engine);
  return engine;
}

/** Sessions spread over the last 90 days (half older than the detail window), with tools, prompts and failures. */
function backlog(sessions: number, prefix = 's'): Payload[] {
  const now = Date.now();
  return Array.from({ length: sessions }, (_, i) =>
    sessionEvents({
      sessionId: `${prefix}${i}`,
      cwd: ws.project,
      startAt: now - ((sessions - i) * 90 * DAY) / sessions,
      prompts: [`Make the parser ${i} accept quoted strings`, `Now fix test ${i}`],
      tools: Array.from({ length: 12 }, (_, t) => ({
        tool: ['Read', 'Edit', 'Bash', `mcp__docs__search_${i % 3}`][t % 4],
        ...(t === 5 ? { error: 'Exit code 1' } : {}),
      })),
    }),
  ).flat();
}

/** The pids of the processes whose command line names `script` (Linux's /proc). */
function processesRunning(script: string): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      return commandLine.includes(script) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** What the dashboard and the registry show of a database. */
function figures(engine: ProjectEngine) {
  return {
    // The snapshots' sizes on disk differ: one was saved, one not.
    counts: { ...engine.counts(), dbBytes: 0 },
    registry: engine.store.all(
      'SELECT name, origin, status, usage_count, last_used_at FROM tool_registry ORDER BY name',
    ),
    toolDays: engine.store.number('SELECT count(*) FROM tool_days'),
    digests: engine.store.number("SELECT count(*) FROM observations WHERE source = 'digest'"),
    observations: engine.store.number('SELECT count(*) FROM observations WHERE forgotten_at IS NULL'),
  };
}

describe('catch-up in a child process', () => {
  test('gives the database an ingest on this thread gives, saved, and new lines are then read once', async () => {
    const events = backlog(60);
    appendEvents(ws.home, events);
    const progress: number[] = [];
    const priorities = new Set<number>();
    const engine = await openWriter(ws.home);
    const result = await engine.catchUp(catchUpScript(), {
      detailDays: DETAIL_DAYS,
      chunkBytes: CHUNK_BYTES,
      onProgress: (_progress, counts) => {
        progress.push(counts.events);
        for (const pid of processesRunning(catchUpScript())) priorities.add(os.getPriority(pid));
      },
    });
    assert.deepEqual([...priorities], [10], 'the child reads at background priority (nice 10)');
    assert.equal(result.events, events.length);
    assert.ok(result.folded > 0, 'detail older than the window was folded on the way');
    assert.ok(progress.length > 1 && progress.at(-1)! > progress[0], 'the counts grew as the child read');
    assert.ok(result.peakRssBytes > 10 * 1024 * 1024, `the child's peak RSS: ${result.peakRssBytes} bytes`);

    // The same log read on this thread, then discovered and folded as the host does.
    const reference = await openWriter(path.join(ws.home, '..', 'reference-home'));
    appendEvents(reference.home, events);
    await reference.ingest({ chunkBytes: CHUNK_BYTES });
    while (discoverFromUse(reference).more);
    await reference.foldOldHistory(DETAIL_DAYS, true);
    const mine = figures(engine);
    assert.deepEqual(mine, figures(reference));
    assert.ok(mine.toolDays > 0 && mine.digests > 0);
    assert.equal(await savedEvents(ws.home, ws.project), events.length, 'the child saved what it read');

    const later = sessionEvents({
      sessionId: 'later',
      cwd: ws.project,
      startAt: Date.now(),
      tools: [{ tool: 'Read' }],
    });
    appendEvents(ws.home, later);
    assert.equal((await engine.ingest()).events, later.length);
    assert.equal(engine.counts().events, events.length + later.length);
    await engine.save();
    assert.equal(await savedEvents(ws.home, ws.project), events.length + later.length);
  });

  test('a rebuild in the child reads the whole log again', async () => {
    const events = backlog(10);
    appendEvents(ws.home, events);
    const engine = await openWriter(ws.home);
    await engine.ingest();
    const before = figures(engine);
    const result = await engine.catchUp(catchUpScript(), { rebuild: true, detailDays: DETAIL_DAYS });
    assert.equal(result.events, events.length);
    assert.deepEqual(figures(engine).counts, before.counts);
  });

  test('cancelled, it keeps what it read, and the next ingest reads the rest once', async () => {
    const events = backlog(60);
    appendEvents(ws.home, events);
    const engine = await openWriter(ws.home);
    const abort = new AbortController();
    const result = await engine.catchUp(catchUpScript(), {
      detailDays: DETAIL_DAYS,
      chunkBytes: CHUNK_BYTES,
      signal: abort.signal,
      onProgress: () => abort.abort(),
    });
    assert.ok(
      result.events > 0 && result.events < events.length,
      `read ${result.events} of ${events.length}`,
    );
    assert.equal(engine.counts().events, result.events);
    assert.equal(await savedEvents(ws.home, ws.project), result.events);
    assert.equal((await engine.ingest()).events, events.length - result.events);
    assert.equal(engine.counts().events, events.length);
  });

  test('a child that fails says why and leaves the database as it was', async () => {
    appendEvents(ws.home, backlog(4));
    const engine = await openWriter(ws.home);
    await engine.ingest();
    const before = figures(engine);
    const more = backlog(2, 'more');
    appendEvents(ws.home, more);
    const broken = path.join(ws.home, 'broken-catch-up.js');
    fs.writeFileSync(broken, "throw new Error('the script is damaged');\n");
    await assert.rejects(
      engine.catchUp(broken, { detailDays: DETAIL_DAYS }),
      /catch-up process failed \(exit code 1\) before it was done: Error: the script is damaged/,
    );
    assert.deepEqual(figures(engine), before);
    const missing = path.join(ws.home, 'no-such-script.js');
    await assert.rejects(
      engine.catchUp(missing, { detailDays: DETAIL_DAYS }),
      /catch-up process failed .*Cannot find module/,
    );
    assert.equal(
      (await engine.ingest()).events,
      more.length,
      'the database still reads on from where it was',
    );
  });

  test('a child whose host has gone stops, and what it saved reads on once', async () => {
    const events = backlog(200);
    appendEvents(ws.home, events);
    const job: ChildJob = {
      home: ws.home,
      folder: ws.project,
      excludeRoots: [],
      work: { kind: 'catch-up', rebuild: false, detailDays: DETAIL_DAYS, chunkBytes: CHUNK_BYTES },
    };
    // A stand-in for the extension host: it starts the child and says its pid at the first progress.
    const host = spawn(
      process.execPath,
      [
        '-e',
        `const child = require('node:child_process').fork(${JSON.stringify(catchUpScript())}, [process.argv[1]],
           { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced' });
         child.once('message', () => console.log(child.pid));`,
        JSON.stringify(job),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(host.stdout.setEncoding('utf8'), 'data')) as [string];
    const childPid = Number(line.trim());
    host.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(childPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; alive() && waited < 30_000; waited += 50) await sleep(50);
    assert.equal(alive(), false, 'the catch-up process exited once its host had gone');

    const engine = await openWriter(ws.home);
    const read = engine.counts().events;
    assert.ok(read < events.length, `it stopped before the end: ${read} of ${events.length} saved`);
    assert.equal((await engine.ingest()).events, events.length - read);
    assert.equal(engine.counts().events, events.length);
  });
});
