/**
 * Hook wall time per call, per agent and event, in one run against two floors measured in the same rounds:
 * `sh` appending the payload to a file (the least any hook can cost) and a bare `node -e 0`.
 *
 * The hooks agents wait on (Claude Code's SessionStart and UserPromptSubmit; every hook of Codex, VS Code's
 * agent and Cline) are the commands Connect writes, run as the agent runs them (`sh -c` in the project
 * folder, the payload on stdin): `sh` spooling the payload (agents/spoolCommand.ts), SessionStart (Cline's
 * TaskStart) also printing the session context, a prompt hook also looking for the engine's line.
 * Target: at most 10 ms over the `sh` floor (medians). The payloads are of each agent's shape; each VS Code
 * payload gets a fresh `timestamp` as VS Code stamps each event, and the second copy of one (VS Code runs
 * the hook of each hook file that names it) is measured too. After the rounds the spool is drained
 * (log/spool.ts, what the next ingest does) and its cost per payload reported: nobody waits for it.
 *
 * Also measured, against bare node: the node recorder (`node hook.js`, as `scripts/build.mjs --production`
 * builds dist/hook.js and the recorder.js it runs from a code cache), which Windows and the opencode plugin
 * run: a payload of each, and its first call after an install (no code cache yet; paid once, so reported
 * beside the target). Target: at most 15 ms over bare node.
 * Each round runs every command once, in an order rotated from round to round, so that machine load affects
 * all alike. Run alone with `node --import tsx bench/recorder.bench.ts`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { writeHookOutputs } from '../src/engine/context/hookOutput';
import { drainSpool } from '../src/engine/log/spool';
import { SESSION_CONTEXT_FILE, projectStateDir } from '../src/engine/kernel/paths';
import { identifyProject } from '../src/engine/kernel/projectIdentity';
import { FIXTURES_DIR, hookExample } from '../test/support/events';
import { hookCommand } from '../test/support/hookCommands';
import { SPOOL_SCRIPT, SPOOL_SCRIPT_NAME } from '../src/engine/agents/spoolCommand';
import { type BenchSection, formatTable, median, percentile, round } from './report';

const RUNS = 30;
const WARMUP = 3;
/** Most a hook an agent waits on may cost over `sh` appending the payload (medians). */
const SPOOL_TARGET_MS = 10;
/** Most the node recorder (Windows, the opencode plugin) may cost over a bare node start. */
const NODE_TARGET_MS = 15;
const ROOT = path.join(__dirname, '..');

type Payload = Record<string, unknown>;
type Agent = 'claude-code' | 'vscode' | 'codex' | 'opencode' | 'cline';
/** What the hook must print: the session context, or nothing. */
type Output = 'context' | 'nothing';

interface Shape {
  /** Key under `results.shapes`. */
  key: string;
  agent: Agent;
  label: string;
  /** The hook command Connect writes for this agent's event (run with `sh -c`), or the node recorder's arguments after `hook.js --home <home>`. */
  run: { sh: string } | { node: string[] };
  /** This run's payload, or the key of the shape (earlier in the same group) whose input it repeats. */
  payload: (() => Payload) | { copyOf: string };
  output: Output;
  /** Whether the call ends as a line in the event log (a duplicate doesn't). */
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

function spawnTimed(
  command: string,
  args: string[],
  input: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Spawned {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { input, cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
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

interface Figures {
  medianMs: number;
  p95Ms: number;
}

function figuresOf(values: number[]): Figures {
  return { medianMs: round(median(values), 2), p95Ms: round(percentile(values, 95), 2) };
}

export async function benchRecorder(): Promise<BenchSection> {
  // Real paths: the `sh` hooks find the context by the physical working folder.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-recorder-')));
  // Other work on the machine widens every figure: noted, to tell a noisy run.
  const loadAtStart = os.loadavg()[0];
  try {
    const bin = path.join(dir, 'home', 'bin');
    const modules = await buildRecorder(bin);
    // The script every `sh` hook command sources, as installRecorder writes it beside the recorder.
    fs.writeFileSync(path.join(bin, SPOOL_SCRIPT_NAME), SPOOL_SCRIPT, { mode: 0o600 });
    const bundle = path.join(bin, 'hook.js');
    const bundleBytes = fs.statSync(path.join(bin, 'recorder.js')).size;
    const loaderBytes = fs.statSync(bundle).size;
    const home = path.join(dir, 'home');
    fs.mkdirSync(path.join(home, 'events'), { mode: 0o700 });
    // Two git projects: one with a session-start context waiting, one without.
    const project = path.join(dir, 'shop');
    const bare = path.join(dir, 'plain');
    for (const folder of [project, bare]) fs.mkdirSync(path.join(folder, '.git'), { recursive: true });
    const context = `# Context\n${'- a remembered change (2 hours ago)\n'.repeat(150)}`;
    const contextFile = path.join(projectStateDir(home, identifyProject(project).id), SESSION_CONTEXT_FILE);
    fs.mkdirSync(path.dirname(contextFile), { recursive: true });
    fs.writeFileSync(contextFile, context);
    // What the engine writes with it for the `sh` hooks; the plain project's context is empty.
    writeHookOutputs(home, [project], context);
    writeHookOutputs(home, [bare], '');

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
    const codex = (file: string) => fixed({ ...readJson(`codex/hook-payloads/${file}`), cwd: project });
    const clineHooks = jsonLines('cline/hooks.jsonl');
    // Cline's payloads name the folder in `workspaceRoots`; `cwd` is where the bench runs the hook, as Cline does.
    const cline = (hook: string) => {
      const payload = clineHooks.find((candidate) => candidate.hookName === hook);
      if (!payload) throw new Error(`no ${hook} in the Cline hook payloads`);
      return fixed({ ...payload, workspaceRoots: [project], cwd: project });
    };
    const sh = (agent: 'claude-code' | 'codex' | 'vscode' | 'cline', event: string) => ({
      sh: hookCommand(agent, event),
    });

    /** Groups run back to back; their order rotates from round to round. */
    const groups: Shape[][] = [
      [
        {
          key: 'claudeCodeSessionStart',
          agent: 'claude-code',
          label: 'SessionStart, context printed (waits)',
          run: sh('claude-code', 'SessionStart'),
          payload: fixed({ ...hookExample('SessionStart'), cwd: project }),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'claudeCodeUserPromptSubmit',
          agent: 'claude-code',
          label: 'UserPromptSubmit, no line waiting (waits)',
          run: sh('claude-code', 'UserPromptSubmit'),
          payload: fixed({ ...hookExample('UserPromptSubmit'), cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'claudeCodePostToolUse',
          agent: 'claude-code',
          label: 'PostToolUse (async: not waited on)',
          run: sh('claude-code', 'PostToolUse'),
          payload: fixed({ ...hookExample('PostToolUse'), cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'claudeCodeRead',
          agent: 'claude-code',
          label: 'PostToolUse Read of a 14 KB source file (async)',
          run: sh('claude-code', 'PostToolUse'),
          payload: fixed(readOf(path.join(ROOT, 'src/engine/log/hookRecord.ts'), project)),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'codexSessionStart',
          agent: 'codex',
          label: 'SessionStart, context printed',
          run: sh('codex', 'SessionStart'),
          payload: codex('SessionStart.input.json'),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'codexUserPromptSubmit',
          agent: 'codex',
          label: 'UserPromptSubmit',
          run: sh('codex', 'UserPromptSubmit'),
          payload: codex('UserPromptSubmit.input.json'),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'codexPostToolUse',
          agent: 'codex',
          label: 'PostToolUse Bash',
          run: sh('codex', 'PostToolUse'),
          payload: codex('PostToolUse.Bash.input.json'),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'codexStop',
          agent: 'codex',
          label: 'Stop',
          run: sh('codex', 'Stop'),
          payload: codex('Stop.input.json'),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'vscodeSessionStartContext',
          agent: 'vscode',
          label: 'SessionStart, context printed',
          run: sh('vscode', 'SessionStart'),
          payload: vscode('SessionStart.json', project),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'vscodeSessionStartNoContext',
          agent: 'vscode',
          label: 'SessionStart, no context',
          run: sh('vscode', 'SessionStart'),
          payload: vscode('SessionStart.json', bare),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'vscodeUserPromptSubmit',
          agent: 'vscode',
          label: 'UserPromptSubmit',
          run: sh('vscode', 'UserPromptSubmit'),
          payload: vscode('UserPromptSubmit.json', project),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'vscodePostToolUse',
          agent: 'vscode',
          label: 'PostToolUse run_in_terminal',
          run: sh('vscode', 'PostToolUse'),
          payload: vscode('PostToolUse.run_in_terminal.json', project),
          output: 'nothing',
          records: true,
        },
        {
          key: 'vscodeDuplicate',
          agent: 'vscode',
          label: 'same PostToolUse, 2nd hook file (dropped at ingest)',
          run: sh('vscode', 'PostToolUse'),
          payload: { copyOf: 'vscodePostToolUse' },
          output: 'nothing',
          records: false,
        },
      ],
      [
        {
          key: 'vscodeStop',
          agent: 'vscode',
          label: 'Stop',
          run: sh('vscode', 'Stop'),
          payload: vscode('Stop.json', project),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'nodePostToolUse',
          agent: 'claude-code',
          label: 'node recorder (Windows): PostToolUse',
          run: { node: [] },
          payload: fixed({ ...hookExample('PostToolUse'), cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'nodeSessionStart',
          agent: 'vscode',
          label: 'node recorder (Windows): SessionStart, context printed',
          run: { node: [] },
          payload: vscode('SessionStart.json', project),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'nodeFirstCall',
          agent: 'claude-code',
          label: 'node recorder: first call (no code cache yet)',
          run: { node: [] },
          payload: fixed({ ...hookExample('PostToolUse'), cwd: project }),
          output: 'nothing',
          records: true,
          coldCache: true,
        },
      ],
      [
        {
          key: 'clineTaskStart',
          agent: 'cline',
          label: 'TaskStart hook file, context printed as contextModification',
          run: sh('cline', 'TaskStart'),
          payload: cline('TaskStart'),
          output: 'context',
          records: true,
        },
      ],
      [
        {
          key: 'clinePostToolUse',
          agent: 'cline',
          label: 'PostToolUse hook file',
          run: sh('cline', 'PostToolUse'),
          payload: cline('PostToolUse'),
          output: 'nothing',
          records: true,
        },
      ],
      [
        {
          key: 'opencodePostToolUse',
          agent: 'opencode',
          label: 'node recorder: PostToolUse bash (plugin, not waited on)',
          run: { node: ['--agent', 'opencode'] },
          payload: fixed({ ...opencodeTool, cwd: project }),
          output: 'nothing',
          records: true,
        },
      ],
    ];
    const shapes = groups.flat();
    // Claude Code waits only for its SessionStart and UserPromptSubmit hooks (the others run async).
    const waitedOn = (shape: Shape) =>
      'sh' in shape.run &&
      (shape.agent !== 'claude-code' ||
        shape.key === 'claudeCodeSessionStart' ||
        shape.key === 'claudeCodeUserPromptSubmit');

    // The children get neither this process's loaders nor any NODE_OPTIONS: bare node, as an agent runs it.
    const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_DECK_HOME: home };
    delete env.NODE_OPTIONS;
    const floorInput = JSON.stringify({ ...hookExample('PostToolUse'), cwd: project });
    const floorFile = path.join(dir, 'floor.jsonl');
    const floorTimes: number[] = [];
    const nodeTimes: number[] = [];
    const times = new Map<string, number[]>(shapes.map((shape) => [shape.key, []]));
    const units: Array<'floor' | 'node' | Shape[]> = ['floor', 'node', ...groups];
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const inputs = new Map<string, string>();
      for (let i = 0; i < units.length; i++) {
        const unit = units[(run + i) % units.length];
        if (unit === 'floor' || unit === 'node') {
          const { ms } =
            unit === 'floor'
              ? spawnTimed('/bin/sh', ['-c', `cat >> "${floorFile}"`], floorInput, project, env)
              : spawnTimed(process.execPath, ['-e', '0'], floorInput, project, env);
          if (run >= WARMUP) (unit === 'floor' ? floorTimes : nodeTimes).push(ms);
          continue;
        }
        for (const shape of unit) {
          const input =
            typeof shape.payload === 'function'
              ? JSON.stringify(shape.payload())
              : (inputs.get(shape.payload.copyOf) ?? '');
          inputs.set(shape.key, input);
          if (shape.coldCache) fs.rmSync(path.join(bin, 'code-cache'), { recursive: true, force: true });
          // Agents run their hooks in the session's folder.
          const { cwd } = JSON.parse(input) as { cwd: string };
          const { ms, stdout } =
            'sh' in shape.run
              ? spawnTimed('/bin/sh', ['-c', shape.run.sh], input, cwd, env)
              : spawnTimed(process.execPath, [bundle, '--home', home, ...shape.run.node], input, cwd, env);
          const printed: Output = /"(additionalContext|contextModification)"/.test(stdout)
            ? 'context'
            : 'nothing';
          if (printed !== shape.output || (printed === 'nothing' && stdout !== ''))
            throw new Error(
              `${shape.key}: expected ${shape.output} on stdout, got ${JSON.stringify(stdout)}`,
            );
          if (run >= WARMUP) times.get(shape.key)?.push(ms);
        }
      }
    }

    // What the next ingest does with the spool: nobody waits for it, but it is reported.
    const spooled = fs
      .readdirSync(path.join(home, 'events'))
      .filter((name) => name.endsWith('.spool')).length;
    const drainStarted = process.hrtime.bigint();
    const drained = drainSpool(home);
    const drainMs = Number(process.hrtime.bigint() - drainStarted) / 1e6;
    if (drained.failed || drained.waiting > 0)
      throw new Error(`the drain stopped: ${JSON.stringify(drained)}`);

    // Every call but the duplicates ended as one line, recognised as its agent's.
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

    const floor = figuresOf(floorTimes);
    const node = figuresOf(nodeTimes);
    const results = shapes.map((shape) => {
      const values = times.get(shape.key) ?? [];
      const own = figuresOf(values);
      const overFloorMs = round(own.medianMs - floor.medianMs, 2);
      const overNodeMs = round(own.medianMs - node.medianMs, 2);
      const viaSh = 'sh' in shape.run;
      const meetsTarget = shape.coldCache
        ? undefined
        : viaSh
          ? overFloorMs <= SPOOL_TARGET_MS
          : overNodeMs <= NODE_TARGET_MS;
      return {
        shape,
        figures: {
          agent: shape.agent,
          payload: shape.label,
          hook: viaSh ? 'sh' : 'node',
          waitedOn: waitedOn(shape),
          ...own,
          overFloorMs,
          pairedOverFloorMs: round(median(values.map((ms, i) => ms - floorTimes[i])), 2),
          overNodeMs,
          target: viaSh ? `floor +${SPOOL_TARGET_MS} ms` : `node +${NODE_TARGET_MS} ms`,
          meetsTarget,
        },
      };
    });
    const distHook = path.join(ROOT, 'dist/hook.js');
    const distStat = fs.existsSync(distHook) ? fs.statSync(distHook) : undefined;
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    const signed = (ms: number) => (ms < 0 ? `${ms}` : `+${ms}`);
    const met = (ok: boolean | undefined) => (ok === undefined ? 'once' : ok ? 'met' : 'NOT met');
    const waited = results.filter(({ figures }) => figures.waitedOn);

    return {
      title: `Hook wall time per call (${RUNS} runs each after ${WARMUP} warm-up, rotating with the floor, sh appending the payload, and bare node; the node recorder: recorder.js ${kib(bundleBytes)} minified, run by a ${kib(loaderBytes)} hook.js)`,
      columns: [
        'agent',
        'payload',
        'hook',
        'median ms',
        'p95 ms',
        '+ms floor',
        '+ms floor paired',
        '+ms node',
        'target',
        'met',
      ],
      rows: [
        [
          '-',
          'floor: sh appending the payload',
          'sh',
          floor.medianMs,
          floor.p95Ms,
          0,
          0,
          round(floor.medianMs - node.medianMs, 2),
          '-',
          '-',
        ],
        [
          '-',
          'node -e 0 (bare)',
          'node',
          node.medianMs,
          node.p95Ms,
          round(node.medianMs - floor.medianMs, 2),
          '-',
          0,
          '-',
          '-',
        ],
        ...results.map(({ figures: f }) => [
          f.agent,
          f.payload,
          f.hook,
          f.medianMs,
          f.p95Ms,
          f.overFloorMs,
          f.pairedOverFloorMs,
          f.overNodeMs,
          f.target,
          met(f.meetsTarget),
        ]),
      ],
      results: {
        runs: RUNS,
        warmup: WARMUP,
        spoolTargetMs: SPOOL_TARGET_MS,
        nodeTargetMs: NODE_TARGET_MS,
        floor,
        node,
        /** The drain of the spool after the rounds (what the next ingest does), per payload. */
        drain: {
          payloads: spooled,
          logged: drained.logged,
          dropped: drained.dropped,
          msPerPayload: round(drainMs / Math.max(1, spooled), 3),
        },
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
        shapes: Object.fromEntries(results.map(({ shape, figures }) => [shape.key, figures])),
        /** Every hook an agent waits on within SPOOL_TARGET_MS of the floor. */
        waitedOnMeetTarget: waited.every(({ figures }) => figures.meetsTarget === true),
        meetsTarget: results.every(({ figures }) => figures.meetsTarget !== false),
      },
      targets: results
        .filter(({ figures: f }) => f.meetsTarget !== undefined)
        .map(
          ({ figures: f }) =>
            `${f.agent} ${f.payload} (${f.hook}${f.waitedOn ? ', waited on' : ''}): median ${f.medianMs} ms, p95 ${f.p95Ms} ms; ${signed(f.overFloorMs)} ms against the sh floor, ${signed(f.overNodeMs)} ms against bare node; target ${f.target}: ${met(f.meetsTarget)}`,
        )
        .concat(
          `the spool's drain at the next ingest (nobody waits for it): ${round(drainMs / Math.max(1, spooled), 3)} ms per payload, ${spooled} payloads`,
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
