/**
 * Recorder wall time per call: `node hook.js` (built as `scripts/build.mjs --production` builds dist/hook.js
 * and the recorder.js it runs from a code cache) fed one payload of each agent's shape on stdin - Claude Code, VS Code's agent, Codex CLI, opencode's
 * plugin - beside a bare `node -e 0` measured in the same rounds. Each round runs every command once, in an
 * order rotated from round to round, so that machine load affects all alike. VS Code's agent and Codex CLI
 * wait for each hook, so the user waits for this. Target: at most 15 ms more than bare node (medians).
 *
 * Also measured: a SessionStart of VS Code's shape with and without a session-context file for the project
 * (with one, the recorder prints it), and the second copy of a VS Code event (VS Code runs the hook of each
 * hook file that names it; duplicates.ts lets the first copy record and the others skip). Each VS Code
 * payload gets a fresh `timestamp`, as VS Code stamps each event, so only the copy is a duplicate. And the
 * first call after an install or a Node update, which compiles the recorder and writes its code cache: paid
 * once, so it is reported beside the target rather than held to it.
 * Run alone with `node --import tsx bench/recorder.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { SESSION_CONTEXT_FILE, projectStateDir } from '../src/engine/project/paths';
import { identifyProject } from '../src/engine/project/projectIdentity';
import { FIXTURES_DIR, hookExample } from '../test/support/events';
import { type BenchSection, formatTable, median, percentile, round } from './report';

const RUNS = 30;
const WARMUP = 3;
const TARGET_MS = 15;
const ROOT = path.join(__dirname, '..');

type Payload = Record<string, unknown>;
type Agent = 'claude-code' | 'vscode' | 'codex' | 'opencode';
/** What the recorder must print: the session context, or nothing. */
type Output = 'context' | 'nothing';

interface Shape {
  /** Key under `results.shapes`. */
  key: string;
  agent: Agent;
  label: string;
  /** Arguments after `hook.js --home <home>`, as the agent's hook command passes them. */
  args?: string[];
  /** This run's payload, or the key of the shape (earlier in the same group) whose input it repeats. */
  payload: (() => Payload) | { copyOf: string };
  output: Output;
  /** Whether the call appends a line to the event log (a duplicate doesn't). */
  records: boolean;
  /** Run with no code cache, as the first call after an install is (paid once: not held to the target). */
  coldCache?: true;
}

function readJson(file: string): Payload {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8')) as Payload;
}

function jsonLines(file: string): Payload[] {
  return fs
    .readFileSync(path.join(FIXTURES_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Payload);
}

/** A Read as Claude Code reports it: the file's text in `tool_response.file.content`. */
function readOf(file: string, cwd: string): Payload {
  const content = fs.readFileSync(file, 'utf8');
  const lines = content.split('\n').length;
  return {
    ...hookExample('PostToolUse'),
    cwd,
    tool_name: 'Read',
    tool_input: { file_path: file },
    tool_response: {
      type: 'text',
      file: { filePath: file, content, numLines: lines, startLine: 1, totalLines: lines },
    },
  };
}

interface Spawned {
  ms: number;
  stdout: string;
}

function spawnTimed(args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv): Spawned {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  if (result.stderr.length > 0) throw new Error(`${args.join(' ')} wrote to stderr: ${result.stderr}`);
  return { ms, stdout: result.stdout.toString('utf8') };
}

/**
 * The recorder exactly as `node scripts/build.mjs --production` writes it: dist/hook.js (the loader agents
 * run) and dist/recorder.js beside it. Returns the recorder's largest modules.
 */
async function buildRecorder(dir: string): Promise<Array<[string, number]>> {
  const base = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'scripts/esbuild.node.json'), 'utf8'),
  ) as esbuild.BuildOptions;
  const build = (entry: string, outfile: string, banner?: string) =>
    esbuild.build({
      ...base,
      entryPoints: [entry],
      outfile: path.join(dir, outfile),
      ...(banner ? { banner: { js: banner } } : {}),
      minify: true,
      sourcemap: false,
      metafile: true,
      logLevel: 'warning',
      absWorkingDir: ROOT,
    });
  await build('src/hook/loader.ts', 'hook.js', '#!/usr/bin/env node');
  const result = await build('src/hook/main.ts', 'recorder.js');
  const inputs = Object.values(result.metafile.outputs)[0]?.inputs ?? {};
  return Object.entries(inputs)
    .map(([file, { bytesInOutput }]): [string, number] => [file, bytesInOutput])
    .sort((a, b) => b[1] - a[1]);
}

export async function benchRecorder(): Promise<BenchSection> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-recorder-'));
  // Other work on the machine widens every figure: noted, to tell a noisy run.
  const loadAtStart = os.loadavg()[0];
  try {
    const bin = path.join(dir, 'bin');
    const modules = await buildRecorder(bin);
    const bundle = path.join(bin, 'hook.js');
    const bundleBytes = fs.statSync(path.join(bin, 'recorder.js')).size;
    const loaderBytes = fs.statSync(bundle).size;
    const home = path.join(dir, 'home');
    // Two git projects: one with a session-start context waiting, one without.
    const project = path.join(dir, 'shop');
    const bare = path.join(dir, 'plain');
    for (const folder of [project, bare]) fs.mkdirSync(path.join(folder, '.git'), { recursive: true });
    const contextFile = path.join(projectStateDir(home, identifyProject(project).id), SESSION_CONTEXT_FILE);
    fs.mkdirSync(path.dirname(contextFile), { recursive: true });
    fs.writeFileSync(contextFile, `# Context\n${'- a remembered change (2 hours ago)\n'.repeat(150)}`);

    // VS Code stamps each event; copies of one event share the stamp. Strictly increasing, so never equal.
    let lastStamp = 0;
    const stamp = () => {
      lastStamp = Math.max(Date.now(), lastStamp + 1);
      return new Date(lastStamp).toISOString();
    };
    const vscode = (file: string, cwd: string) => {
      const fixture = readJson(`vscode/local/${file}`);
      return () => ({ ...fixture, timestamp: stamp(), cwd });
    };
    const fixed = (payload: Payload) => () => payload;
    const opencodeTool = jsonLines('opencode/opencode-1.18.33.run.plugin-payloads.jsonl').find(
      (payload) => payload.hook_event_name === 'PostToolUse',
    );
    if (!opencodeTool) throw new Error('no PostToolUse in the opencode plugin payloads');

    /** Groups run back to back; their order rotates from round to round. */
    const groups: Shape[][] = [
      [
        {
          key: 'claudeCodePostToolUse',
          agent: 'claude-code',
          label: 'PostToolUse (docs example)',
          payload: fixed({ ...hookExample('PostToolUse'), cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'claudeCodeRead',
          agent: 'claude-code',
          label: 'PostToolUse Read of a 14 KB source file',
          payload: fixed(readOf(path.join(ROOT, 'src/hook/record.ts'), project)),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'claudeCodeFirstCall',
          agent: 'claude-code',
          label: 'PostToolUse, first call (no code cache yet)',
          payload: fixed({ ...hookExample('PostToolUse'), cwd: project }),
          output: 'nothing',
          records: true,
          coldCache: true,
        },
      ],
      [
        {
          key: 'claudeCodeSessionStart',
          agent: 'claude-code',
          label: 'SessionStart, context file (printed)',
          payload: fixed({ ...hookExample('SessionStart'), cwd: project }),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'vscodePostToolUse',
          agent: 'vscode',
          label: 'PostToolUse run_in_terminal',
          payload: vscode('PostToolUse.run_in_terminal.json', project),
          output: 'nothing',
          records: true,
        },
        {
          key: 'vscodeDuplicate',
          agent: 'vscode',
          label: 'same PostToolUse, 2nd copy (skipped)',
          payload: { copyOf: 'vscodePostToolUse' },
          output: 'nothing',
          records: false,
        },
      ],
      [
        {
          key: 'vscodeSessionStartContext',
          agent: 'vscode',
          label: 'SessionStart, context file (printed)',
          payload: vscode('SessionStart.json', project),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'vscodeSessionStartNoContext',
          agent: 'vscode',
          label: 'SessionStart, no context file',
          payload: vscode('SessionStart.json', bare),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'codexPostToolUse',
          agent: 'codex',
          label: 'PostToolUse Bash',
          payload: fixed({ ...readJson('codex/hook-payloads/PostToolUse.Bash.input.json'), cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'opencodePostToolUse',
          agent: 'opencode',
          label: 'PostToolUse bash (plugin, --agent opencode)',
          args: ['--agent', 'opencode'],
          payload: fixed({ ...opencodeTool, cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
    ];
    const shapes = groups.flat();

    // The child gets neither this process's loaders nor any NODE_OPTIONS: bare node, as an agent runs it.
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    const baselineInput = JSON.stringify(hookExample('PostToolUse'));
    const baselineTimes: number[] = [];
    const times = new Map<string, number[]>(shapes.map((shape) => [shape.key, []]));
    const units: Array<'baseline' | Shape[]> = ['baseline', ...groups];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const inputs = new Map<string, string>();
      for (let i = 0; i < units.length; i++) {
        const unit = units[(run + i) % units.length];
        if (unit === 'baseline') {
          const { ms } = spawnTimed(['-e', '0'], baselineInput, project, env);
          if (run >= WARMUP) baselineTimes.push(ms);
          continue;
        }
        for (const shape of unit) {
          const input =
            typeof shape.payload === 'function'
              ? JSON.stringify(shape.payload())
              : (inputs.get(shape.payload.copyOf) ?? '');
          inputs.set(shape.key, input);
          if (shape.coldCache) fs.rmSync(path.join(bin, 'code-cache'), { recursive: true, force: true });
          const { ms, stdout } = spawnTimed(
            [bundle, '--home', home, ...(shape.args ?? [])],
            input,
            project,
            env,
          );
          const printed: Output = stdout.includes('"additionalContext"') ? 'context' : 'nothing';
          if (printed !== shape.output || (printed === 'nothing' && stdout !== ''))
            throw new Error(
              `${shape.key}: expected ${shape.output} on stdout, got ${JSON.stringify(stdout)}`,
            );
          if (run >= WARMUP) times.get(shape.key)?.push(ms);
        }
      }
    }

    // Every call but the duplicates recorded one line, recognised as its agent's.
    const counted = new Map<string, number>();
    for (const name of fs.readdirSync(path.join(home, 'events'))) {
      for (const line of fs.readFileSync(path.join(home, 'events', name), 'utf8').split('\n')) {
        if (line === '') continue;
        const agent = String((JSON.parse(line) as { _cd?: { agent?: string } })._cd?.agent);
        counted.set(agent, (counted.get(agent) ?? 0) + 1);
      }
    }
    for (const agent of new Set(shapes.map((shape) => shape.agent))) {
      const expected = shapes.filter((s) => s.agent === agent && s.records).length * (WARMUP + RUNS);
      if (counted.get(agent) !== expected)
        throw new Error(`expected ${expected} lines of ${agent}, found ${counted.get(agent) ?? 0}`);
    }
    if (
      [...counted.values()].reduce((a, b) => a + b, 0) !==
      shapes.filter((s) => s.records).length * (WARMUP + RUNS)
    )
      throw new Error(`unexpected agents in the event log: ${JSON.stringify([...counted])}`);

    const baselineMedian = median(baselineTimes);
    const baseline = {
      medianMs: round(baselineMedian, 2),
      p95Ms: round(percentile(baselineTimes, 95), 2),
    };
    const results = shapes.map((shape) => {
      const values = times.get(shape.key) ?? [];
      const medianMs = median(values);
      const overheadMs = round(medianMs - baselineMedian, 2);
      return {
        shape,
        figures: {
          agent: shape.agent,
          payload: shape.label,
          medianMs: round(medianMs, 2),
          p95Ms: round(percentile(values, 95), 2),
          baselineMedianMs: baseline.medianMs,
          overheadMs,
          pairedOverheadMs: round(median(values.map((ms, i) => ms - baselineTimes[i])), 2),
          ratio: round(medianMs / baselineMedian, 3),
          meetsTarget: shape.coldCache ? undefined : overheadMs <= TARGET_MS,
        },
      };
    });
    const distHook = path.join(ROOT, 'dist/hook.js');
    const distStat = fs.existsSync(distHook) ? fs.statSync(distHook) : undefined;
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const met = (ok: boolean | undefined) => (ok === undefined ? 'once' : ok ? 'met' : 'NOT met');

    return {
      title: `Recorder wall time per call (${RUNS} runs each after ${WARMUP} warm-up, rotating with bare node; recorder.js ${kib(bundleBytes)} minified, run by a ${kib(loaderBytes)} hook.js)`,
      columns: [
        'agent',
        'payload',
        'median ms',
        'p95 ms',
        'node -e 0 ms',
        '+ms',
        '+ms paired',
        'ratio',
        `<= +${TARGET_MS} ms`,
      ],
      rows: [
        ['-', 'node -e 0 (bare)', baseline.medianMs, baseline.p95Ms, baseline.medianMs, 0, 0, 1, '-'],
        ...results.map(({ figures: f }) => [
          f.agent,
          f.payload,
          f.medianMs,
          f.p95Ms,
          f.baselineMedianMs,
          f.overheadMs,
          f.pairedOverheadMs,
          f.ratio,
          met(f.meetsTarget),
        ]),
      ],
      results: {
        runs: RUNS,
        warmup: WARMUP,
        targetMs: TARGET_MS,
        bundleBytes,
        loaderBytes,
        /** The bundle measured: what `scripts/build.mjs --production` writes as dist/recorder.js from today's sources. */
        bundleBuild: 'scripts/esbuild.node.json, minify, no source map (as build.mjs --production)',
        /** The largest modules in it, bytes of output each. */
        bundleModules: Object.fromEntries(modules.slice(0, 12)),
        /** dist/hook.js as found on disk (built whenever `npm run build` or `npm run package` last ran). */
        distHookJs: distStat
          ? { bytes: distStat.size, modifiedAt: distStat.mtime.toISOString() }
          : { missing: true },
        contextFileBytes: fs.statSync(contextFile).size,
        loadAverage1m: { start: round(loadAtStart, 2), end: round(os.loadavg()[0], 2) },
        baseline,
        shapes: Object.fromEntries(results.map(({ shape, figures }) => [shape.key, figures])),
        meetsTarget: results.every(({ figures }) => figures.meetsTarget !== false),
      },
      targets: results
        .filter(({ figures: f }) => f.meetsTarget !== undefined)
        .map(
          ({ figures: f }) =>
            `${f.agent} ${f.payload}: +${f.overheadMs} ms median (paired +${f.pairedOverheadMs} ms, x${f.ratio}) vs target <= +${TARGET_MS} ms: ${met(f.meetsTarget)}`,
        ),
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
