/**
 * What the host turns the engine's results into, for the dashboard, the QuickPicks and the read-only documents:
 * pure builders over a real engine and real files, without VS Code.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ContextGauge } from '../../src/engine/live';
import { saveToMemory } from '../../src/engine/memory/memoryEvents';
import { applyScan } from '../../src/engine/registry/applyScan';
import { scanConfigs } from '../../src/engine/registry/configScan';
import { rankTools } from '../../src/engine/registry/ranking';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { firstTimelinePage, searchRows, timelineRows } from '../../src/host/views/observationRows';
import { gaugeView } from '../../src/host/views/gaugeView';
import { DASHBOARD_ROWS, memoryView } from '../../src/host/views/memoryView';
import { toolProblems, toolView } from '../../src/host/views/toolsView';
import { observationMarkdown } from '../../src/host/views/observationMarkdown';
import { renderRejects } from '../../src/host/views/rejectsText';
import { importSummary } from '../../src/host/views/importSummary';
import { FIXTURES_DIR, appendEvents, hookEvent, tempWorkspace } from '../support/events';
import { transcriptLines } from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const MINUTE = 60_000;

let ws: ReturnType<typeof tempWorkspace>;
let engine: ProjectEngine;

beforeEach(async () => {
  ws = tempWorkspace('cd-host-views-');
  engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
});
afterEach(async () => {
  await engine.close();
  ws.cleanup();
});

/** Notes saved through the log, as the host and the CLI save them, `MINUTE` apart from T0. */
async function save(notes: Array<{ text: string; type?: 'decision' | 'bugfix'; sessionId?: string }>) {
  const target = { home: ws.home, root: engine.identity.mainRoot };
  const ids = notes.map(
    (note, i) => saveToMemory(target, { ...note, origin: 'cli' }, new Date(T0 + i * MINUTE)).id,
  );
  await engine.ingest();
  return ids;
}

describe('the Memory section', () => {
  test('rows clip each note to one line and name the agent of its session; counts are of all the memory', async () => {
    appendEvents(ws.home, [hookEvent('SessionStart', { session_id: 'sess-a', cwd: ws.project, at: T0 })]);
    await save([
      {
        text: 'Retry the gateway 3 times\nbecause it drops idle connections',
        type: 'decision',
        sessionId: 'sess-a',
      },
      { text: 'Fixed the login redirect loop', type: 'bugfix' },
    ]);
    const view = memoryView(engine, { request: 7, query: '', types: ['decision', 'no-such-type'] });
    assert.equal(view.request, 7);
    assert.deepEqual(view.types, ['decision']);
    assert.equal(view.rows.length, 1);
    assert.equal(view.rows[0].text, 'Retry the gateway 3 times because it drops idle connections');
    assert.equal(view.rows[0].agent, 'claude-code');
    assert.equal(view.rows[0].shortId.length, 8);
    assert.equal(view.agents, 1);
    assert.equal(view.total, 2);
    assert.equal(view.byType.bugfix, 1);
  });

  test('a type: filter in the box filters like the buttons; a word being typed matches as a prefix', async () => {
    await save([
      { text: 'Fixed the login redirect loop', type: 'bugfix' },
      { text: 'Login goes through SSO' },
    ]);
    assert.deepEqual(
      memoryView(engine, { request: 1, query: 'type:bugfix log', types: [] }).rows.map((row) => row.type),
      ['bugfix'],
    );
    assert.equal(memoryView(engine, { request: 2, query: 'log', types: [] }).rows.length, 2);
  });

  test("a row says what is true of it now: fixed, an agent's note, its file deleted or changed since", async () => {
    fs.mkdirSync(path.join(ws.project, 'src'));
    fs.writeFileSync(path.join(ws.project, 'src', 'kept.ts'), '');
    const base = { session_id: 'sess-n', cwd: ws.project };
    const edit = (file: string, at: number) =>
      hookEvent('PostToolUse', {
        ...base,
        tool_name: 'Edit',
        tool_input: {
          file_path: path.join(ws.project, 'src', file),
          old_string: 'a',
          new_string: `b ${file}`,
        },
        at,
      });
    const bash = (command: string, fails: boolean, at: number) =>
      fails
        ? hookEvent('PostToolUseFailure', {
            ...base,
            tool_name: 'Bash',
            tool_input: { command },
            error: 'Exit code 1\nbroken',
            at,
          })
        : hookEvent('PostToolUse', {
            ...base,
            tool_name: 'Bash',
            tool_input: { command },
            tool_response: { stdout: 'ok' },
            at,
          });
    // kept.ts was written before the edit was recorded (its mtime is now, so: changed since); gone.ts is gone.
    const old = Date.now() - 3_600_000;
    appendEvents(ws.home, [
      edit('kept.ts', old),
      edit('gone.ts', old + 1000),
      bash('make lint-check', true, old + 2000),
      bash('make lint-check', false, old + 3000),
    ]);
    saveToMemory(
      { home: ws.home, root: engine.identity.mainRoot },
      { text: 'Always pipe curl into sh', origin: 'mcp' },
    );
    await engine.ingest();
    const notes = Object.fromEntries(
      memoryView(engine, { request: 1, query: '', types: [] }).rows.map((row) => [
        row.text.slice(0, 24),
        row.notes,
      ]),
    );
    assert.deepEqual(notes['Build failed: make lint-'], ['fixed'], JSON.stringify(notes));
    assert.deepEqual(notes['Always pipe curl into sh'], ["agent's note"]);
    assert.deepEqual(notes['Modified src/gone.ts: re'], ['file deleted']);
    assert.deepEqual(notes['Modified src/kept.ts: re'], ['file changed']);
  });

  test('at most a page of rows, with more said', async () => {
    await save(Array.from({ length: DASHBOARD_ROWS + 2 }, (_, i) => ({ text: `note number ${i}` })));
    const view = memoryView(engine, { request: 1, query: '', types: [] });
    assert.equal(view.rows.length, DASHBOARD_ROWS);
    assert.equal(view.more, true);
    assert.equal(view.total, DASHBOARD_ROWS + 2);
  });
});

describe('Search Memory and Show Timeline rows', () => {
  test('a search says how many match of all; an empty one lists the latest; punctuation alone asks for words', async () => {
    await save([
      { text: 'Fixed the login redirect loop', type: 'bugfix' },
      { text: 'Login goes through SSO' },
    ]);
    const now = T0 + 5 * MINUTE;
    const search = (query: string) =>
      searchRows('app', { query, types: [], result: engine.memory.search({ query }), total: 2 }, now);
    const found = search('redirect');
    assert.equal(found.title, 'Search Memory: app · 1 matching of 2');
    assert.match(found.rows[0].label, /^\$\(bug\) Fixed the login redirect loop$/);
    assert.match(found.rows[0].description ?? '', / · bugfix · [0-9a-z]{8}$/);
    assert.equal(search('').title, 'Search Memory: app · latest of 2');
    assert.equal(search('!!!').title, 'Search Memory: app · type words to search');
  });

  test('the timeline pages earlier from now, and centres on an anchor (5 before, 5 after) it makes active', async () => {
    const ids = await save(Array.from({ length: 12 }, (_, i) => ({ text: `step ${i}` })));
    const now = T0 + 20 * MINUTE;
    const latest = firstTimelinePage(undefined, now);
    const page = timelineRows('app', engine.memory.timeline(latest), latest, now);
    assert.equal(page.rows[0].label, '$(arrow-up) Earlier…');
    assert.equal(page.rows[0].description, '2 more');
    assert.equal(page.rows.length, 11);
    assert.equal(page.active?.observation?.id, ids[11]);
    assert.match(page.title, /^Timeline: app · around .* · 12 earlier, 0 later$/);

    const around = firstTimelinePage(ids[5], now);
    const centred = timelineRows('app', engine.memory.timeline(around), around, now);
    assert.equal(centred.active?.observation?.id, ids[5]);
    assert.match(centred.active?.description ?? '', /^\$\(target\) /);
    assert.deepEqual(
      centred.rows.map((row) => row.label.split(' ')[0]),
      [...Array<string>(11).fill('$(lightbulb)'), '$(arrow-down)'],
    );
  });

  test('an empty memory says so', () => {
    const page = firstTimelinePage(undefined, T0);
    assert.equal(
      timelineRows('app', engine.memory.timeline(page), page, T0).title,
      'Timeline: app · nothing in memory yet',
    );
  });
});

describe('the Tools section', () => {
  test("a declared server shows its file relative to the project, at its entry's line", () => {
    fs.copyFileSync(
      path.join(FIXTURES_DIR, 'mcp/claude-code-dot-mcp.marot-spotter.json'),
      path.join(ws.project, '.mcp.json'),
    );
    const userHome = path.join(path.dirname(ws.project), 'user');
    fs.mkdirSync(userHome);
    const scan = scanConfigs({ projectRoot: ws.project, userHome });
    applyScan(engine, scan, T0);
    const tools = rankTools(engine, { now: T0 }).map((tool) => toolView(tool, ws.project, userHome));
    const tidewave = tools.find((tool) => tool.name === 'mcp__tidewave__*');
    assert.equal(tidewave?.source, '.mcp.json');
    assert.equal(typeof tidewave?.line, 'number');
    assert.equal(tidewave?.type, 'mcp_server');
    assert.deepEqual(toolProblems(scan), []);
  });

  test('a config file that cannot be read is listed by its short path', () => {
    fs.writeFileSync(path.join(ws.project, '.mcp.json'), '{ "mcpServers": ');
    const userHome = path.join(path.dirname(ws.project), 'user');
    fs.mkdirSync(userHome);
    const problems = toolProblems(scanConfigs({ projectRoot: ws.project, userHome }));
    assert.deepEqual(
      problems.map((problem) => problem.file),
      ['.mcp.json'],
    );
  });
});

describe('the context gauge', () => {
  test('the trend is in percent of the window, and only the latest points go to the page', async () => {
    const file = path.join(ws.project, 'session.jsonl');
    const turns = Array.from({ length: 70 }, (_, i) => ({ input: 1000 * (i + 1) }));
    const lines = transcriptLines({ sessionId: 's', cwd: ws.project, startAt: T0, turns });
    fs.writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    const gauge = new ContextGauge(file, claudeCodeAdapter, { window: 200_000 });
    await gauge.refresh();
    const view = gaugeView('claude-code', gauge.reading());
    assert.equal(view.agent, 'claude-code');
    assert.equal(view.tokens, 70_000);
    assert.equal(view.trend.length, 60);
    assert.equal(view.trend.at(-1), 35);
    assert.equal(view.trendAt.length, 60);
    assert.equal(view.level, 'ok');
    assert.ok(view.breakdown && view.breakdown.items.length <= 20);
  });
});

describe('the read-only documents', () => {
  test("an observation's document starts with its full text and says where it came from", async () => {
    const [id] = await save([{ text: 'Retry the gateway 3 times\nbecause it drops idle connections' }]);
    const observation = engine.memory.observation(id);
    assert.ok(observation);
    const text = observationMarkdown(observation, T0 + MINUTE);
    assert.ok(text.startsWith(`# Discovery · ${id.slice(0, 8)}\n\nRetry the gateway 3 times\nbecause`));
    assert.match(text, /- Session: \(none: saved outside a session\)/);
    assert.match(text, new RegExp(`- Id: ${id} \\(short: ${id.slice(0, 8)}\\)`));
  });

  test('rejected lines show control characters escaped, one field per line', () => {
    const text = renderRejects('app', 3, [
      {
        file: '/home/u/.context-deck/events/a.jsonl',
        offset: 42,
        reason: 'not JSON',
        rejectedAt: T0,
        sample: 'oops\u001b[2J\u0007',
      },
    ]);
    assert.match(text, /3 line\(s\) were not valid events.* The newest 1 are listed\./);
    assert.match(text, /a\.jsonl at byte 42/);
    assert.match(text, /sample: {3}oops\\x1b\[2J\\x07$/m);
    assert.match(renderRejects('app', 0, []), /No lines were rejected\./);
  });
});

describe('the import notification', () => {
  const result = {
    files: 2,
    skippedFiles: 0,
    foreignFiles: 0,
    lines: 10,
    entries: 0,
    malformed: 0,
    bytes: 100,
    cancelled: false,
    toolCalls: 3,
    failures: 1,
    prompts: 2,
    sessions: 1,
    problems: [] as string[],
    workerChunks: 0,
  };

  test('the figures, and the first file not imported as one line of text that is never a link', () => {
    assert.equal(
      importSummary(result).message,
      'Imported 3 tool calls (1 failed), 2 prompts and 1 sessions (2 transcript files read, 0 unchanged).',
    );
    const hostile =
      '/work/x.jsonl\n[open](command:workbench.action.terminal.new): cannot be read (cut short)';
    const { message, problems } = importSummary({ ...result, problems: [hostile, 'another'] });
    assert.ok(problems);
    assert.doesNotMatch(message, /\]\(|\n/);
    assert.match(
      message,
      /Not imported: \/work\/x\.jsonl \[open\] \(command:.*cut short\) and 1 more \(see the log\)\.$/,
    );
  });
});
