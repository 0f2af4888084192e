/**
 * What the next session is told, measured: the real whole Claude Code sessions of the fixtures imported as
 * Import Agent History imports them and read back as SessionStart hands them over, an hour after they
 * ended and again 45 days later (folded), counted for what must never be there (system text, compactions as
 * decisions, fixed failures shown open, a file on several lines, a deleted file shown as current) and what
 * must (the final report, the pending work). Beside each, the figure issue #33 measured on the same sessions
 * with the version before (4e652e8). Then the cost of assembling it at 100,000 observations, and of the
 * citation checks within it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assembleSessionContext } from '../src/engine/context/sessionContextAssembly';
import { ProjectEngine } from '../src/engine/project/projectEngine';
import { importTranscripts } from '../src/engine/transcripts';
import { type BenchSection, median, round } from './report';

const SESSIONS = path.join(
  __dirname,
  '..',
  'test',
  'fixtures',
  'claude-code-sessions',
  'marot-spotter-sessions',
);
const DAY = 86_400_000;
const SYSTEM_TEXT =
  /<task-notification>|<command-|<local-command|<system-reminder>|\[Request interrupted|This session is being continued/;
const OBSERVATIONS = 100_000;
const RUNS = 15;

/** Issue #33's figures for the same five sessions with the version before this one (4e652e8). */
const BEFORE = {
  fresh: {
    chars: 4133,
    systemText: 1,
    compactionDecisions: 1,
    fixedShownOpen: 3,
    filesOnSeveralLines: 1,
    report: 'no',
    pending: 'no',
  },
  folded: { chars: 396, report: 'no', pending: 'no', files: 0 },
};

interface Told {
  chars: number;
  systemText: number;
  compactionDecisions: number;
  fixedShownOpen: number;
  filesOnSeveralLines: number;
  deletedShownCurrent: number;
  report: string;
  pending: string;
  files: number;
}

function section(context: string, title: string): string {
  return new RegExp(`## ${title}\\n[\\s\\S]*?(?=\\n\\n|$)`).exec(context)?.[0] ?? '';
}

function measure(context: string, files: string[], fixed: string[]): Told {
  const lines = context.split('\n');
  const previous = section(context, 'Previous Session');
  // Where changes are told: the story's Changed line and Recent Changes (a finding may quote a path).
  const told = [
    ...previous.split('\n').filter((line) => line.startsWith('Changed: ')),
    ...section(context, 'Recent Changes').split('\n').slice(1),
  ];
  const naming = (file: string) =>
    told.filter((line) => line.includes(`"${file} (`) || line.includes(` ${file}`));
  return {
    chars: context.length,
    systemText: lines.filter((line) => SYSTEM_TEXT.test(line)).length,
    compactionDecisions: section(context, 'Active Decisions')
      .split('\n')
      .filter((line) => /compact/i.test(line)).length,
    fixedShownOpen: fixed.filter((text) => context.includes(text)).length,
    filesOnSeveralLines: files.filter((file) => naming(file).length > 1).length,
    // None of the sessions' files is on this machine: each one named must say so.
    deletedShownCurrent: files.filter((file) => naming(file).some((line) => !/deleted since/.test(line)))
      .length,
    report: /^Reported: /m.test(previous) ? 'yes' : 'no',
    pending: /^Pending as of /m.test(previous) ? 'yes' : 'no',
    files: files.filter((file) => naming(file).length > 0).length,
  };
}

/** A writer of a new project in a temporary home, at the clock `now()` reads; removed after `run`. */
async function withProject<T>(
  now: () => number,
  run: (engine: ProjectEngine, project: string) => Promise<T>,
): Promise<T> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-recall-'));
  const project = path.join(home, 'project');
  fs.mkdirSync(project);
  const engine = await ProjectEngine.open({
    home: path.join(home, 'home'),
    folder: project,
    role: 'writer',
    now,
  });
  try {
    return await run(engine, project);
  } finally {
    await engine.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

function truthOfRealSessions(): Promise<{ fresh: Told; folded: Told }> {
  let now = Date.parse('2026-03-01T00:00:00Z');
  return withProject(
    () => now,
    async (engine) => {
      await importTranscripts(engine, {
        paths: fs.readdirSync(SESSIONS).map((name) => path.join(SESSIONS, name)),
      });
      now = engine.store.number('SELECT max(last_event_at) FROM sessions') + 3_600_000;
      const files = engine.store
        .all('SELECT DISTINCT file FROM observations WHERE file IS NOT NULL')
        .map((row) => String(row.file));
      const fixed = engine.store
        .all('SELECT text FROM observations WHERE resolved_at IS NOT NULL')
        .map((row) => String(row.text).slice(0, 60));
      const fresh = measure(assembleSessionContext(engine, { now }).text, files, fixed);
      now += 45 * DAY;
      while ((await engine.foldOldHistory(30)) > 0);
      const folded = measure(assembleSessionContext(engine, { now }).text, files, fixed);
      return { fresh, folded };
    },
  );
}

/** 100,000 observations of 2,000 sessions over 200 days, a fifth of them changes of 500 files on disk. */
function costAt100k(): Promise<{ assemblyMs: number; citedFiles: number; statMs: number }> {
  const now = Date.parse('2026-03-01T00:00:00Z');
  return withProject(
    () => now,
    async (engine, project) => {
      fs.mkdirSync(path.join(project, 'src'));
      const fileOf = (i: number) => `src/module${i % 500}.ts`;
      for (let i = 0; i < 500; i++) fs.writeFileSync(path.join(project, fileOf(i)), 'export {};\n');
      const perSession = OBSERVATIONS / 2000;
      const start = now - 200 * DAY;
      const step = (200 * DAY) / OBSERVATIONS;
      engine.store.transaction(() => {
        for (let s = 0; s < 2000; s++) {
          const first = start + s * perSession * step;
          engine.store.run(
            'INSERT INTO sessions (id, started_at, last_event_at, ended_at, agent) VALUES (?, ?, ?, ?, ?)',
            [`s${s}`, first, first + perSession * step, first + perSession * step, 'claude-code'],
          );
        }
        for (let i = 0; i < OBSERVATIONS; i++) {
          const change = i % 5 === 0;
          engine.store.run(
            `INSERT INTO observations (id, session_id, agent_type, type, source, text, tokens, at, file)
           VALUES (?, ?, 'main', ?, ?, ?, 6, ?, ?)`,
            [
              `b${String(i).padStart(15, '0')}`,
              `s${Math.floor(i / perSession)}`,
              change ? 'feature' : 'discovery',
              change ? 'change' : 'command',
              change ? `Modified ${fileOf(i)}: replaced 'a' with 'b'` : `Ran make step${i % 97} — done`,
              start + i * step,
              change ? fileOf(i) : null,
            ],
          );
        }
      });
      const times: number[] = [];
      let context = '';
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        context = assembleSessionContext(engine, { now }).text;
        times.push(performance.now() - started);
      }
      // What the checks cost within it: a stat of each file the context names.
      const cited = [...new Set(context.match(/src\/module\d+\.ts/g) ?? [])];
      const statTimes: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        for (const file of cited) fs.statSync(path.join(project, file), { throwIfNoEntry: false });
        statTimes.push(performance.now() - started);
      }
      return { assemblyMs: median(times), citedFiles: cited.length, statMs: median(statTimes) };
    },
  );
}

export async function benchRecall(): Promise<BenchSection> {
  const { fresh, folded } = await truthOfRealSessions();
  const cost = await costAt100k();
  const row = (what: string, now: number | string, later: number | string, before: number | string) => [
    what,
    now,
    later,
    before,
  ];
  return {
    title:
      'What the next session is told: five real Claude Code sessions (952 tool calls), fresh and 45 days later',
    columns: ['measure', '1 h after', '45 days after (folded)', 'version before, 1 h after (issue #33)'],
    rows: [
      row('characters', fresh.chars, folded.chars, `${BEFORE.fresh.chars} (45 days: ${BEFORE.folded.chars})`),
      row('lines of system text', fresh.systemText, folded.systemText, BEFORE.fresh.systemText),
      row(
        'compactions as decisions',
        fresh.compactionDecisions,
        folded.compactionDecisions,
        BEFORE.fresh.compactionDecisions,
      ),
      row(
        'failures fixed later, shown',
        fresh.fixedShownOpen,
        folded.fixedShownOpen,
        BEFORE.fresh.fixedShownOpen,
      ),
      row(
        'files on more than one line',
        fresh.filesOnSeveralLines,
        folded.filesOnSeveralLines,
        `${BEFORE.fresh.filesOnSeveralLines} (on 6 lines)`,
      ),
      row('deleted files shown as current', fresh.deletedShownCurrent, folded.deletedShownCurrent, 'all'),
      row('final report carried', fresh.report, folded.report, BEFORE.fresh.report),
      row('pending work carried', fresh.pending, folded.pending, BEFORE.fresh.pending),
      row('changed files named', fresh.files, folded.files, `2 (45 days: ${BEFORE.folded.files})`),
      row(
        `assembly at ${OBSERVATIONS.toLocaleString('en-US')} observations, median of ${RUNS}`,
        `${round(cost.assemblyMs, 1)} ms`,
        '',
        '',
      ),
      row(
        `of which citation checks (${cost.citedFiles} files, one stat each)`,
        `${round(cost.statMs, 2)} ms (${round((100 * cost.statMs) / cost.assemblyMs, 1)}%)`,
        '',
        '',
      ),
    ],
    results: { fresh, folded, before: BEFORE, cost },
    targets: [
      `none of system text, compactions as decisions, fixed failures, files on several lines, deleted files as current, fresh and folded: ${
        [fresh, folded].every(
          (told) =>
            told.systemText +
              told.compactionDecisions +
              told.fixedShownOpen +
              told.filesOnSeveralLines +
              told.deletedShownCurrent ===
            0,
        )
          ? 'met'
          : 'NOT met'
      }`,
      `final report and pending work carried, fresh and folded: ${
        [fresh, folded].every((told) => told.report === 'yes' && told.pending === 'yes') ? 'met' : 'NOT met'
      }`,
    ],
  };
}
