/**
 * Exactly-once under crashes: the ingesting process is killed with SIGKILL at random moments while another
 * writer keeps appending (some lines arrive in two pieces). After a final clean run every complete line is
 * in the database once.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { hookEvent, tempWorkspace } from '../support/events';
import { bundleForNode } from '../support/bundle';

const TOTAL_LINES = 20_000;
const KILLS = 50;

let ws: ReturnType<typeof tempWorkspace>;
let cliBundle: string;

/** A seeded generator so a failure can be replayed with the printed seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

before(async () => {
  ws = tempWorkspace('cd-crash-');
  // The real CLI, bundled as it ships, so each restart is a plain fast `node cli.js`; backlogs of three
  // chunks or more are parsed on its parse worker, so kills also land while the worker reads ahead.
  const outDir = path.join(path.dirname(ws.home), 'cli');
  cliBundle = path.join(outDir, 'cli.js');
  await bundleForNode(outDir, { cli: 'src/cli/main.ts', parseWorker: 'src/engine/workers/parseWorker.ts' });
});
after(() => ws.cleanup());

function line(i: number): string {
  return `${JSON.stringify(
    hookEvent(i % 10 === 0 ? 'UserPromptSubmit' : 'PostToolUse', {
      session_id: `session-${Math.floor(i / 500)}`,
      cwd: ws.project,
      tool_name: 'Bash',
      tool_use_id: `toolu_${i}`,
      tool_response: { stdout: 'x'.repeat(i % 300) },
      prompt: `prompt ${i}`,
      at: 1e12 + i,
    }),
  )}\n`;
}

/** Appends all lines in bursts; every seventh line is written in two pieces with a pause between. */
async function writer(file: string, rand: () => number): Promise<void> {
  let i = 0;
  while (i < TOTAL_LINES) {
    const burst = Math.min(TOTAL_LINES - i, 50 + Math.floor(rand() * 400));
    let text = '';
    for (let end = i + burst; i < end; i++) {
      if (i % 7 === 3) {
        const whole = line(i);
        const cut = 1 + Math.floor(rand() * (whole.length - 2));
        fs.appendFileSync(file, text + whole.slice(0, cut));
        text = '';
        await sleep(rand() * 4);
        fs.appendFileSync(file, whole.slice(cut));
      } else {
        text += line(i);
      }
    }
    fs.appendFileSync(file, text);
    await sleep(5 + rand() * 30);
  }
}

function runIngest(follow: boolean): ChildProcess {
  return spawn(
    process.execPath,
    [
      cliBundle,
      'ingest',
      ...(follow ? ['--follow'] : []),
      '--home',
      ws.home,
      '--project',
      ws.project,
      '--chunk-bytes',
      '8192',
      '--save-interval',
      '0',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

test(`SIGKILL at ${KILLS} random moments during a ${TOTAL_LINES}-line ingest loses and repeats nothing`, async (t) => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 100_000);
  const rand = random(seed);
  const file = path.join(ws.home, 'events', 'live.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '');

  const writing = writer(file, rand);
  let killedMidRun = 0;
  let killedMidSave = 0;
  const stateDir = () => path.join(ws.home, 'projects', fs.readdirSync(path.join(ws.home, 'projects'))[0]);
  for (let kill = 0; kill < KILLS; kill++) {
    const child = runIngest(true);
    await sleep(150 + rand() * 550);
    if (child.exitCode === null && child.kill('SIGKILL')) killedMidRun++;
    await exited(child);
    // A temp snapshot left behind means the kill landed inside a save.
    if (
      fs.existsSync(path.join(ws.home, 'projects')) &&
      fs.readdirSync(stateDir()).some((name) => name.includes('.tmp-'))
    ) {
      killedMidSave++;
    }
  }
  t.diagnostic(
    `seed ${seed}: ${killedMidRun} kills during a run, ${killedMidSave} of them inside a snapshot save`,
  );
  await writing;
  const finalRun = runIngest(false);
  let stderr = '';
  finalRun.stderr?.on('data', (chunk) => (stderr += chunk));
  assert.equal(await exited(finalRun), 0, `final ingest failed (seed ${seed}): ${stderr}`);

  assert.equal(
    killedMidRun,
    KILLS,
    `most kills hit a running ingest (${killedMidRun}/${KILLS}, seed ${seed})`,
  );
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'reader' });
  try {
    const counts = engine.counts();
    const message = `seed ${seed}`;
    assert.equal(counts.events, TOTAL_LINES, message);
    assert.equal(counts.rejected, 0, `torn lines were waited for, not rejected (${message})`);
    assert.equal(counts.prompts, TOTAL_LINES / 10, message);
    assert.equal(counts.toolCalls, TOTAL_LINES - TOTAL_LINES / 10, message);
    assert.equal(engine.store.number('SELECT max(offset) FROM log_files'), fs.statSync(file).size, message);
    assert.deepEqual(
      fs.readdirSync(stateDir()).filter((name) => name.includes('.tmp-')),
      [],
      'dead temp files are cleaned up',
    );
  } finally {
    await engine.close();
  }
});
