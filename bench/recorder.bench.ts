/**
 * Recorder start-up cost: `node hook.js` (the bundle Claude Code runs on every hook event) against a bare
 * `node -e ""`, both fed the documented PostToolUse payload on stdin, runs alternating so that machine load
 * affects both alike. Target: at most 15 ms median overhead. Run alone with
 * `node --import tsx bench/recorder.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { identifyProject } from '../src/engine/projectIdentity';
import { hookExample } from '../test/support/events';
import { type BenchSection, formatTable, median, percentile, round } from './report';

const RUNS = 30;
const WARMUP = 3;
const TARGET_MS = 15;

function wallMs(args: string[], input: string, cwd: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

export async function benchRecorder(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-recorder-'));
  try {
    const bundle = path.join(dir, 'hook.js');
    await esbuild.build({
      entryPoints: [path.join(__dirname, '../src/hook/main.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      logLevel: 'warning',
    });
    const home = path.join(dir, 'home');
    const project = path.join(dir, 'project');
    fs.mkdirSync(project, { recursive: true });
    const postToolUse = JSON.stringify({ ...hookExample('PostToolUse'), cwd: project });
    // SessionStart is the one synchronous hook: it also resolves the project and prints its context.
    const contextFile = path.join(home, 'projects', identifyProject(project).id, 'session-context.md');
    fs.mkdirSync(path.dirname(contextFile), { recursive: true });
    fs.writeFileSync(contextFile, `# Context\n${'- a remembered change (2 hours ago)\n'.repeat(150)}`);
    const sessionStart = JSON.stringify({ ...hookExample('SessionStart'), cwd: project });

    const commands = {
      baseline: { args: ['-e', ''], input: postToolUse },
      hook: { args: [bundle, '--home', home], input: postToolUse },
      sessionStart: { args: [bundle, '--home', home], input: sessionStart },
    };
    const times: Record<keyof typeof commands, number[]> = { baseline: [], hook: [], sessionStart: [] };
    for (let run = 0; run < WARMUP + RUNS; run++) {
      for (const [name, command] of Object.entries(commands) as Array<
        [keyof typeof commands, { args: string[]; input: string }]
      >) {
        const ms = wallMs(command.args, command.input, project);
        if (run >= WARMUP) times[name].push(ms);
      }
    }
    const recorded = fs
      .readdirSync(path.join(home, 'events'))
      .reduce(
        (lines, name) =>
          lines + fs.readFileSync(path.join(home, 'events', name), 'utf8').split('\n').length - 1,
        0,
      );
    if (recorded !== 2 * (WARMUP + RUNS))
      throw new Error(`expected ${2 * (WARMUP + RUNS)} recorded lines, found ${recorded}`);

    const stats = (values: number[]) => ({
      medianMs: round(median(values), 2),
      p90Ms: round(percentile(values, 90), 2),
    });
    const baseline = stats(times.baseline);
    const hook = stats(times.hook);
    const session = stats(times.sessionStart);
    const overheadMs = round(hook.medianMs - baseline.medianMs, 2);
    const pairedOverheadMs = round(median(times.hook.map((t, i) => t - times.baseline[i])), 2);
    const sessionOverheadMs = round(session.medianMs - baseline.medianMs, 2);
    const meetsTarget = overheadMs <= TARGET_MS;
    return {
      title: `Recorder start-up (${RUNS} runs each, alternating; bundle ${(fs.statSync(bundle).size / 1024).toFixed(1)} KiB)`,
      columns: ['command', 'median ms', 'p90 ms', 'overhead ms (median)'],
      rows: [
        ['node -e ""', baseline.medianMs, baseline.p90Ms, 0],
        ['node hook.js < PostToolUse', hook.medianMs, hook.p90Ms, overheadMs],
        ['node hook.js < SessionStart (prints context)', session.medianMs, session.p90Ms, sessionOverheadMs],
      ],
      results: {
        runs: RUNS,
        bundleBytes: fs.statSync(bundle).size,
        baseline,
        hook,
        sessionStart: session,
        overheadMs,
        pairedOverheadMs,
        sessionStartOverheadMs: sessionOverheadMs,
        targetMs: TARGET_MS,
        meetsTarget,
      },
      targets: [
        `recorder overhead ${overheadMs} ms median (paired ${pairedOverheadMs} ms) vs target <= ${TARGET_MS} ms: ${meetsTarget ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  benchRecorder().then(
    (section) => console.log(formatTable(section)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
