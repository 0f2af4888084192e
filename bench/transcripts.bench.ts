/**
 * History import speed: our importTranscripts over a generated Claude Code transcript corpus, side by side
 * with ccusage (npm) reading the very same files through CLAUDE_CONFIG_DIR.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProjectEngine } from '../src/engine/project/projectEngine';
import { type TranscriptImportResult, importTranscripts } from '../src/engine/transcripts';
import { encodeProjectDir } from '../src/engine/agents/claudeCode/transcriptFiles';
import { bundleForNode } from '../test/support/bundle';
import { type BenchSection, median, round } from './report';

/**
 * ccusage 20 runs a native binary from a per-platform optional package. 20.0.26 is the newest release
 * (`npm view ccusage version`), but its linux-x64 package is missing from the registry used here, so the
 * newest release with every platform package is pinned.
 */
const CCUSAGE_VERSION = '20.0.24';
const TARGET_MB_PER_S = 50;
/** Runs per reader; the median is reported. */
const RUNS = 3;
const MB = 1024 * 1024;

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same corpus. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the function returns a value when the test passes import export const let async await module build error file line type interface class config path read write update fix refactor'.split(
    ' ',
  );
const TOOLS = [
  'Read',
  'Edit',
  'Bash',
  'Grep',
  'Glob',
  'Write',
  'TodoWrite',
  'mcp__github__search_issues',
  'Task',
];

/** One session's transcript as Claude Code writes it: prompts, responses split over lines, tool results. */
export function sessionTranscript(
  next: () => number,
  sessionId: string,
  cwd: string,
  startAt: number,
  bytes: number,
) {
  const text = (words: number) => {
    const out: string[] = [];
    for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]);
    return out.join(' ');
  };
  const base = {
    parentUuid: null as string | null,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId,
    version: '2.0.14',
    gitBranch: 'main',
  };
  let at = startAt;
  let n = 0;
  let context = 12_000;
  let size = 0;
  const out: string[] = [];
  const push = (line: object) => {
    const json = JSON.stringify(line);
    size += json.length + 1;
    out.push(json);
  };
  while (size < bytes) {
    const uuid = `${sessionId}-${n++}`;
    push({
      ...base,
      type: 'user',
      uuid,
      timestamp: new Date((at += 20_000)).toISOString(),
      message: { role: 'user', content: text(8 + Math.floor(next() * 40)) },
    });
    for (let response = 0, responses = 1 + Math.floor(next() * 4); response < responses; response++) {
      const messageId = `msg_${sessionId}_${n}`;
      const requestId = `req_${sessionId}_${n}`;
      context += 500 + Math.floor(next() * 4000);
      const usage = {
        input_tokens: 4,
        cache_creation_input_tokens: 300 + Math.floor(next() * 2000),
        cache_read_input_tokens: context,
        output_tokens: 50 + Math.floor(next() * 600),
        service_tier: 'standard',
      };
      const assistant = (content: object[]) =>
        push({
          ...base,
          type: 'assistant',
          uuid: `${sessionId}-${n++}`,
          requestId,
          timestamp: new Date((at += 2_000)).toISOString(),
          message: {
            id: messageId,
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5-20250929',
            content,
            stop_reason: null,
            stop_sequence: null,
            usage,
          },
        });
      // One API response is written as several lines that repeat its id and usage.
      assistant([{ type: 'text', text: text(20 + Math.floor(next() * 80)) }]);
      const calls = Math.floor(next() * 3);
      const ids: string[] = [];
      for (let call = 0; call < calls; call++) {
        const id = `toolu_${sessionId}_${n}_${call}`;
        ids.push(id);
        const tool = TOOLS[Math.floor(next() * TOOLS.length)];
        assistant([{ type: 'tool_use', id, name: tool, input: { file_path: `${cwd}/src/${text(1)}.ts` } }]);
      }
      for (const id of ids) {
        const large = next() < 0.1;
        const output = text(large ? 3000 + Math.floor(next() * 6000) : 30 + Math.floor(next() * 500));
        const failed = next() < 0.05;
        push({
          ...base,
          type: 'user',
          uuid: `${sessionId}-${n++}`,
          timestamp: new Date((at += 3_000)).toISOString(),
          message: {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: failed }],
          },
          toolUseResult: failed
            ? `Error: ${output.slice(0, 200)}`
            : { stdout: output, stderr: '', interrupted: false },
        });
      }
    }
    if (context > 160_000) {
      push({
        ...base,
        type: 'system',
        subtype: 'compact_boundary',
        uuid: `${sessionId}-${n++}`,
        timestamp: new Date((at += 1_000)).toISOString(),
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: context },
      });
      context = 15_000;
    }
  }
  return `${out.join('\n')}\n`;
}

/** Writes `sessions` transcripts (every fifth with a subagent file) of about `bytesPerSession` each. */
function writeCorpus(claudeDir: string, cwd: string, sessions: number, bytesPerSession: number): number {
  const folder = path.join(claudeDir, 'projects', encodeProjectDir(cwd));
  fs.mkdirSync(folder, { recursive: true });
  const next = random(42);
  let total = 0;
  const start = Date.parse('2026-09-01T08:00:00Z');
  for (let s = 0; s < sessions; s++) {
    const id = `00000000-0000-4000-8000-${String(s).padStart(12, '0')}`;
    const content = sessionTranscript(next, id, cwd, start + s * 3_600_000, bytesPerSession);
    fs.writeFileSync(path.join(folder, `${id}.jsonl`), content);
    total += Buffer.byteLength(content);
    if (s % 5 === 0) {
      const subagents = path.join(folder, id, 'subagents');
      fs.mkdirSync(subagents, { recursive: true });
      const agent = sessionTranscript(next, id, cwd, start + s * 3_600_000, bytesPerSession / 4)
        .replaceAll('"isSidechain":false', '"isSidechain":true')
        .replaceAll(`toolu_${id}`, `toolu_agent_${id}`);
      fs.writeFileSync(path.join(subagents, 'agent-a1.jsonl'), agent);
      total += Buffer.byteLength(agent);
    }
  }
  return total;
}

/** The ccusage CLI installed into a cache folder under the temp dir (not a dependency of this project). */
function ccusageCli(): string | undefined {
  const dir = path.join(os.tmpdir(), `context-deck-bench-ccusage-${CCUSAGE_VERSION}`);
  const cli = path.join(dir, 'node_modules', 'ccusage', 'src', 'cli.js');
  const works = () =>
    fs.existsSync(cli) && spawnSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).status === 0;
  if (works()) return cli;
  fs.mkdirSync(dir, { recursive: true });
  spawnSync('npm', ['install', '--prefix', dir, `ccusage@${CCUSAGE_VERSION}`, '--no-audit', '--no-fund'], {
    stdio: 'ignore',
    shell: process.platform === 'win32',
  });
  return works() ? cli : undefined;
}

interface CcusageRun {
  seconds: number;
  sessions: number;
}

function runCcusage(cli: string, claudeDir: string, singleThread: boolean): CcusageRun | string {
  const args = [
    cli,
    'claude',
    'session',
    '--json',
    '--offline',
    ...(singleThread ? ['--single-thread'] : []),
  ];
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, {
    env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir },
    encoding: 'utf8',
    maxBuffer: 256 * MB,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (run.status !== 0) return `ccusage failed: ${(run.stderr || run.stdout).trim().split('\n')[0]}`;
  const report = JSON.parse(run.stdout) as { sessions?: unknown[] };
  return { seconds, sessions: report.sessions?.length ?? 0 };
}

/** The median of RUNS runs, or the first failure. */
function medianCcusage(cli: string, claudeDir: string, singleThread: boolean): CcusageRun | string {
  const runs: CcusageRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = runCcusage(cli, claudeDir, singleThread);
    if (typeof run === 'string') return run;
    runs.push(run);
  }
  return { seconds: median(runs.map((run) => run.seconds)), sessions: runs[0].sessions };
}

export async function benchTranscripts(sessions = 160, bytesPerSession = 900 * 1024): Promise<BenchSection> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-transcripts-'));
  try {
    const project = path.join(root, 'project');
    const home = path.join(root, 'home');
    const claudeDir = path.join(root, 'claude');
    fs.mkdirSync(project);
    const bytes = writeCorpus(claudeDir, fs.realpathSync(project), sessions, bytesPerSession);
    const megabytes = bytes / MB;

    // The transcript worker as it ships, bundled, reads while this thread writes.
    const bundleDir = path.join(root, 'bundle');
    await bundleForNode(bundleDir, { transcriptWorker: 'src/engine/workers/transcriptWorker.ts' });
    const workerFile = path.join(bundleDir, 'transcriptWorker.js');
    // Each run imports into a fresh project database (a first import, as a user would run it).
    const ourRuns: Array<{ seconds: number; result: TranscriptImportResult }> = [];
    for (let run = 0; run < RUNS; run++) {
      fs.rmSync(home, { recursive: true, force: true });
      const engine = await ProjectEngine.open({ home, folder: project, role: 'writer' });
      const started = process.hrtime.bigint();
      try {
        const result = await importTranscripts(engine, { transcriptsDir: claudeDir, workerFile });
        ourRuns.push({ seconds: Number(process.hrtime.bigint() - started) / 1e9, result });
      } finally {
        await engine.close();
      }
    }
    const seconds = median(ourRuns.map((run) => run.seconds));
    const ours = ourRuns[0].result;
    const oursMbps = megabytes / seconds;

    const rows: Array<Array<string | number>> = [
      [
        'context-deck importTranscripts',
        round(megabytes),
        round(seconds, 2),
        round(oursMbps),
        1,
        `${ours.toolCalls} tool calls, ${ours.prompts} prompts, ${ours.sessions} sessions (${ours.workerChunks} chunks on the worker)`,
      ],
    ];
    const results: Record<string, unknown> = {
      corpusBytes: bytes,
      files: ours.files,
      ours: { seconds, runs: ourRuns.map((run) => run.seconds), mbPerSecond: oursMbps, ...ours },
    };
    const cli = ccusageCli();
    if (!cli) {
      rows.push([
        `ccusage ${CCUSAGE_VERSION}`,
        round(megabytes),
        'n/a',
        'n/a',
        'n/a',
        'could not be installed',
      ]);
    } else {
      for (const singleThread of [false, true]) {
        const run = medianCcusage(cli, claudeDir, singleThread);
        const label = `ccusage ${CCUSAGE_VERSION} session --offline${singleThread ? ' --single-thread' : ''}`;
        if (typeof run === 'string') {
          rows.push([label, round(megabytes), 'n/a', 'n/a', 'n/a', run]);
          continue;
        }
        const mbps = megabytes / run.seconds;
        rows.push([
          label,
          round(megabytes),
          round(run.seconds, 2),
          round(mbps),
          round(oursMbps / mbps, 2),
          `${run.sessions} sessions`,
        ]);
        results[singleThread ? 'ccusageSingleThread' : 'ccusage'] = {
          seconds: run.seconds,
          mbPerSecond: mbps,
          sessions: run.sessions,
        };
      }
    }
    return {
      title: 'Transcript import (Claude Code history) vs ccusage on the same files',
      columns: ['reader', 'MB', 'seconds', 'MB/s', 'ours / this', 'found'],
      rows,
      results,
      targets: [
        `history import: ${round(oursMbps)} MB/s (target >= ${TARGET_MB_PER_S} MB/s): ${oursMbps >= TARGET_MB_PER_S ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
