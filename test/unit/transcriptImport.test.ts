import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { ContextGauge } from '../../src/engine/live';
import { importTranscripts } from '../../src/engine/transcripts';
import { encodeProjectDir, findActiveTranscript } from '../../src/engine/agents/claudeCode/transcriptFiles';
import {
  type SessionScript,
  FIXTURES_DIR,
  appendEvents,
  sessionEvents,
  tempWorkspace,
} from '../support/events';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';

const FIXTURES = path.join(FIXTURES_DIR, 'transcripts');

let ws: ReturnType<typeof tempWorkspace>;
const engines: ProjectEngine[] = [];

async function open(role: 'writer' | 'reader' = 'writer') {
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role, saveDebounceMs: 10 });
  engines.push(engine);
  return engine;
}

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  ws.cleanup();
});

type Json = Record<string, unknown>;

interface RawCounts {
  malformed: number;
  toolCalls: number;
  failures: number;
  prompts: number;
  /** Context tokens of the last main-chain assistant line with usage. */
  tokens: number;
  /** Distinct API responses (message.id + requestId) with usage on the main chain. */
  responses: number;
}

const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const blocks = (message: Json | undefined): Json[] =>
  Array.isArray(message?.content)
    ? (message.content as unknown[]).flatMap((b): Json[] => {
        const o = asObject(b);
        return o ? [o] : [];
      })
    : [];

/** Counts what a transcript holds straight from its lines, without the code under test. */
function countRaw(file: string): RawCounts {
  const counts: RawCounts = { malformed: 0, toolCalls: 0, failures: 0, prompts: 0, tokens: 0, responses: 0 };
  const uses = new Set<string>();
  const resolved = new Set<string>();
  const responses = new Set<string>();
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    let line: Json | undefined;
    try {
      line = asObject(JSON.parse(text));
    } catch {
      line = undefined;
    }
    const message = asObject(line?.message);
    if (!line || (typeof line.type !== 'string' && !message)) {
      counts.malformed++;
      continue;
    }
    for (const block of blocks(message)) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string')
        uses.add(block.id);
      if (
        block.type === 'tool_result' &&
        uses.has(String(block.tool_use_id)) &&
        !resolved.has(String(block.tool_use_id))
      ) {
        resolved.add(String(block.tool_use_id));
        counts.toolCalls++;
        if (block.is_error === true) counts.failures++;
      }
    }
    const content = message?.content;
    const texts =
      typeof content === 'string'
        ? [content]
        : blocks(message).flatMap((b) => (b.type === 'text' ? [b.text] : []));
    const isPrompt =
      line.type === 'user' &&
      !line.isMeta &&
      !line.isCompactSummary &&
      !line.isSidechain &&
      !blocks(message).some((b) => b.type === 'tool_result') &&
      texts.length > 0 &&
      !/^(<local-command|<bash-|Caveat: The messages below|\[Request interrupted)/.test(String(texts[0]));
    if (isPrompt) counts.prompts++;
    const usage = asObject(message?.usage);
    if (usage && line.type !== 'user' && !line.isSidechain) {
      const tokens = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].reduce(
        (sum, key) => sum + (typeof usage[key] === 'number' ? (usage[key] as number) : 0),
        0,
      );
      if (tokens > 0) {
        counts.tokens = tokens;
        // Lines without ids are responses of their own.
        const hasKey = message?.id !== undefined || line.requestId !== undefined;
        responses.add(hasKey ? `${String(message?.id)}|${String(line.requestId)}` : `line ${responses.size}`);
      }
    }
  }
  counts.responses = responses.size;
  return counts;
}

/** A transcript of the session a hook script describes: same session, prompts, tool_use_ids and times. */
function transcriptOf(script: SessionScript): string {
  const step = script.stepMs ?? 1000;
  let at = script.startAt;
  const base = { sessionId: script.sessionId, cwd: script.cwd, isSidechain: false, version: '2.0.0' };
  const stamp = () => new Date((at += step)).toISOString();
  const lines: Json[] = [];
  const prompts = script.prompts ?? [];
  const tools = script.tools ?? [];
  const perPrompt = Math.ceil(tools.length / Math.max(1, prompts.length));
  let toolIndex = 0;
  for (let p = 0; p < Math.max(1, prompts.length); p++) {
    if (prompts[p] !== undefined)
      lines.push({
        ...base,
        type: 'user',
        uuid: `u-${script.sessionId}-${p}-${prompts[p]}`,
        timestamp: stamp(),
        message: { role: 'user', content: prompts[p] },
      });
    for (let i = 0; i < perPrompt && toolIndex < tools.length; i++, toolIndex++) {
      const id = `toolu_${script.sessionId}_${toolIndex}`;
      const usage = { input_tokens: 10, cache_read_input_tokens: 1000 * (toolIndex + 1), output_tokens: 5 };
      lines.push({
        ...base,
        type: 'assistant',
        uuid: `a-${toolIndex}`,
        requestId: `req-${toolIndex}`,
        timestamp: new Date(at).toISOString(),
        message: {
          id: `msg-${toolIndex}`,
          role: 'assistant',
          model: script.model ?? 'claude-sonnet-4-5-20250929',
          content: [{ type: 'tool_use', id, name: tools[toolIndex].tool, input: {} }],
          usage,
        },
      });
      const error = tools[toolIndex].error;
      lines.push({
        ...base,
        type: 'user',
        uuid: `r-${toolIndex}`,
        timestamp: stamp(),
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: id, content: error ?? 'ok', is_error: error !== undefined },
          ],
        },
      });
    }
  }
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

function claudeProjectDir(claudeDir: string, cwd: string): string {
  const dir = path.join(claudeDir, 'projects', encodeProjectDir(cwd));
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function tableCounts(engine: ProjectEngine) {
  const { sessions, toolCalls, toolFailures, prompts } = engine.counts();
  return { sessions, toolCalls, toolFailures, prompts };
}

const fixtureFiles = fs
  .readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.jsonl'))
  .sort();

describe('transcript import', () => {
  test('has transcript fixtures to check', () => assert.ok(fixtureFiles.length >= 5));

  for (const name of fixtureFiles) {
    test(`${name}: tool calls, failures, prompts, malformed lines and tokens match the raw file`, async () => {
      const file = path.join(FIXTURES, name);
      const expected = countRaw(file);
      const engine = await open();
      const result = await importTranscripts(engine, { paths: [file] });
      assert.equal(result.malformed, expected.malformed, 'malformed');
      assert.equal(result.toolCalls, expected.toolCalls, 'tool calls');
      assert.equal(result.failures, expected.failures, 'failures');
      assert.equal(result.prompts, expected.prompts, 'prompts');
      const counts = engine.counts();
      assert.deepEqual(
        { toolCalls: counts.toolCalls, toolFailures: counts.toolFailures, prompts: counts.prompts },
        { toolCalls: expected.toolCalls, toolFailures: expected.failures, prompts: expected.prompts },
      );
      assert.ok(counts.sessions >= 1);

      const gauge = new ContextGauge(file, claudeCodeAdapter);
      await gauge.refresh();
      const reading = gauge.reading();
      assert.equal(reading.tokens, expected.tokens, 'tokens');
      assert.equal(reading.trend.length, expected.responses, 'one trend point per response');
      assert.equal(reading.malformed, expected.malformed);
    });
  }

  test('a named file no agent writes is reported as such, not imported as an empty Claude Code session', async () => {
    const file = path.join(ws.project, 'metrics.jsonl');
    fs.writeFileSync(file, '{"cpu":0.4,"at":1}\n{"cpu":0.6,"at":2}\n');
    const engine = await open();
    const result = await importTranscripts(engine, { paths: [file] });
    assert.deepEqual(result.problems, [`${file}: not a session file of any agent Context Deck reads`]);
    assert.equal(result.files, 0);
    assert.equal(engine.counts().sessions, 0);
  });

  test('the edge-case fixture: a failed tool, malformed lines skipped, unanswered tool uses not counted', async () => {
    const engine = await open();
    const result = await importTranscripts(engine, {
      paths: [path.join(FIXTURES, 'claude-code-log-edge_cases.jsonl')],
    });
    assert.equal(result.malformed, 4);
    const calls = engine.store.all('SELECT tool_name, success, error FROM tool_calls');
    assert.deepEqual(calls, [
      {
        tool_name: 'FailingTool',
        success: 0,
        error: 'Error: Tool execution failed with error: Command not found',
      },
    ]);
    const prompts = engine.store
      .all<{ text: string }>('SELECT text FROM prompts ORDER BY at')
      .map((row) => row.text);
    assert.ok(
      prompts.includes('/test-command --verbose --output /tmp/test.log'),
      'a slash command is its typed form',
    );
    assert.ok(
      !prompts.some((text) => text.startsWith('<local-command-stdout>') || text.startsWith('Caveat:')),
    );
  });

  test('the compaction fixture: the compaction summary is not a prompt; session times and model', async () => {
    const engine = await open();
    const file = path.join(FIXTURES, 'claude-code-log-dag_compact_after_rewind.jsonl');
    await importTranscripts(engine, { paths: [file] });
    const prompts = engine.store
      .all<{ text: string }>('SELECT text FROM prompts ORDER BY at')
      .map((row) => row.text);
    assert.deepEqual(prompts, ['Start', 'First attempt', 'Second attempt', 'Keep going', 'After compaction']);
    assert.deepEqual(
      engine.store.get('SELECT id, started_at, last_event_at, model, transcript_path, cwd FROM sessions'),
      {
        id: 's1',
        started_at: Date.parse('2025-07-01T10:00:00.000Z'),
        last_event_at: Date.parse('2025-07-01T10:41:00.000Z'),
        model: 'claude-sonnet-4-20250514',
        transcript_path: file,
        cwd: '/tmp',
      },
    );
  });

  test("the agent's words: the compaction summary line, and each turn's last assistant text as its report", async () => {
    const engine = await open();
    const words = () =>
      engine.store.all(
        "SELECT source, text, at FROM observations WHERE source IN ('report', 'compact-summary') ORDER BY source",
      );
    const at = (minute: number) => `2025-07-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const base = { sessionId: 'words', cwd: ws.project, isSidechain: false, version: '2.1.76' };
    const user = (minute: number, content: unknown, extra: Json = {}) => ({
      ...base,
      type: 'user',
      uuid: `u${minute}`,
      timestamp: at(minute),
      message: { role: 'user', content },
      ...extra,
    });
    // Claude Code writes each content block of one response on a line of its own, repeating its id.
    const assistant = (minute: number, id: string, content: Json[], extra: Json = {}) => ({
      ...base,
      type: 'assistant',
      uuid: `a${minute}`,
      timestamp: at(minute),
      requestId: `req_${id}`,
      message: { id, role: 'assistant', model: 'claude-sonnet-4-5', content },
      ...extra,
    });
    const text = (value: string) => ({ type: 'text', text: value });
    const file = path.join(ws.home, 'words.jsonl');
    const write = (lines: Json[]) =>
      fs.appendFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    write([
      user(0, 'Make the client retry on 503 responses'),
      assistant(1, 'm1', [text('Looking at the client first.')]),
      assistant(2, 'm1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } }]),
      user(3, [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export {}' }]),
      assistant(4, 'm2', [text('The client now retries twice on 503.')]),
      assistant(5, 'm2', [text('Tests pass: npm test.')]),
      // Neither a subagent's words nor Claude Code's own message is the main agent's report.
      assistant(6, 'm3', [text('Subagent: found three call sites.')], { isSidechain: true }),
      assistant(7, 'm4', [text('No response requested.')], {
        message: {
          id: 'm4',
          role: 'assistant',
          model: '<synthetic>',
          content: [text('No response requested.')],
        },
      }),
      {
        ...base,
        type: 'system',
        subtype: 'compact_boundary',
        uuid: 'cb',
        timestamp: at(8),
        compactMetadata: { trigger: 'auto' },
      },
      user(9, 'Summary: the client retries on 503; tests pass; next the server side.', {
        isCompactSummary: true,
      }),
    ]);
    await importTranscripts(engine, { paths: [file] });
    assert.deepEqual(words(), [
      {
        source: 'compact-summary',
        text: 'Compaction summary: Summary: the client retries on 503; tests pass; next the server side.',
        at: Date.parse(at(9)),
      },
      {
        source: 'report',
        text: 'Reported: The client now retries twice on 503. Tests pass: npm test.',
        at: Date.parse(at(5)),
      },
    ]);

    // The next turn, appended: its report replaces the first, whose words the turn's middle never were.
    write([
      user(10, 'Now make the server side send Retry-After'),
      assistant(11, 'm5', [text('Adding the header to the server handler.')]),
      assistant(12, 'm5', [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: 's.ts' } }]),
      user(13, [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' }]),
      assistant(14, 'm6', [
        { type: 'tool_use', id: 'toolu_3', name: 'Bash', input: { command: 'npm test' } },
      ]),
      user(15, [{ type: 'tool_result', tool_use_id: 'toolu_3', content: 'pass' }]),
    ]);
    await importTranscripts(engine, { paths: [file] });
    const reports = () => words().filter((row) => row.source === 'report');
    assert.deepEqual(reports(), [
      {
        source: 'report',
        text: 'Reported: Adding the header to the server handler.',
        at: Date.parse(at(11)),
      },
    ]);
    await importTranscripts(engine, { paths: [file], force: true });
    assert.equal(reports().length, 1, 'read again from the start: still one report, the latest');
    assert.equal(words().length, 2);
  });

  test('importing again, or again from the start, counts nothing twice', async () => {
    const engine = await open();
    const first = await importTranscripts(engine, { paths: [FIXTURES] });
    assert.equal(first.files, fixtureFiles.length);
    const before = tableCounts(engine);
    const again = await importTranscripts(engine, { paths: [FIXTURES] });
    assert.equal(again.skippedFiles, fixtureFiles.length, 'unchanged files are skipped');
    assert.equal(again.bytes, 0);
    const forced = await importTranscripts(engine, { paths: [FIXTURES], force: true });
    assert.equal(forced.bytes, first.bytes, 'force reads everything again');
    assert.deepEqual(
      [forced.toolCalls, forced.failures, forced.prompts, forced.sessions],
      [0, 0, 0, 0],
      'and adds nothing',
    );
    assert.deepEqual(tableCounts(engine), before);
  });

  test('a session recorded by hooks and then imported counts nothing twice', async () => {
    const script: SessionScript = {
      sessionId: 'hooked',
      cwd: ws.project,
      startAt: Date.parse('2026-11-01T10:00:00Z'),
      prompts: ['fix the build', 'continue', 'continue'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'Exit code 1' }, { tool: 'Edit' }, { tool: 'Bash' }],
    };
    appendEvents(ws.home, sessionEvents(script));
    const engine = await open();
    await engine.ingest();
    const fromHooks = tableCounts(engine);
    assert.deepEqual(fromHooks, { sessions: 1, toolCalls: 4, toolFailures: 1, prompts: 3 });

    const file = path.join(claudeProjectDir(path.join(ws.home, 'claude'), ws.project), 'hooked.jsonl');
    fs.writeFileSync(file, transcriptOf(script));
    const result = await importTranscripts(engine, { paths: [file] });
    assert.deepEqual([result.toolCalls, result.prompts, result.sessions], [0, 0, 0]);
    assert.deepEqual(tableCounts(engine), fromHooks);
    assert.equal(
      engine.store.number(
        'SELECT count(*) FROM prompts WHERE source_key IS NOT NULL AND event_id IS NOT NULL',
      ),
      3,
      'each transcript prompt claimed its own hook-recorded prompt (the repeated one too)',
    );
    await importTranscripts(engine, { paths: [file], force: true });
    assert.deepEqual(tableCounts(engine), fromHooks);
  });

  test('tool calls and prompts imported first are not counted again when their hook events arrive', async () => {
    const script: SessionScript = {
      sessionId: 'later',
      cwd: ws.project,
      startAt: Date.parse('2026-11-01T10:00:00Z'),
      prompts: ['fix the build', 'continue', 'continue'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'boom' }],
    };
    const file = path.join(ws.home, 'later.jsonl');
    fs.writeFileSync(file, transcriptOf(script));
    const engine = await open();
    await importTranscripts(engine, { paths: [file] });
    appendEvents(ws.home, sessionEvents(script));
    await engine.ingest();
    assert.deepEqual(
      {
        toolCalls: engine.counts().toolCalls,
        toolFailures: engine.counts().toolFailures,
        prompts: engine.counts().prompts,
      },
      { toolCalls: 2, toolFailures: 1, prompts: 3 },
    );
    assert.equal(
      engine.store.number(
        'SELECT count(*) FROM prompts WHERE event_id IS NOT NULL AND source_key IS NOT NULL',
      ),
      3,
      'each hook prompt claimed its imported row, the repeated one too',
    );
  });

  test('a rebuild imports again the transcripts imported before; one deleted since is left out', async () => {
    const script: SessionScript = {
      sessionId: 'hooked',
      cwd: ws.project,
      startAt: Date.parse('2026-11-01T10:00:00Z'),
      prompts: ['fix the build', 'continue'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'Exit code 1' }],
    };
    appendEvents(ws.home, sessionEvents(script));
    const copies = path.join(ws.home, 'transcripts');
    fs.mkdirSync(copies);
    for (const name of fixtureFiles) fs.copyFileSync(path.join(FIXTURES, name), path.join(copies, name));
    fs.writeFileSync(path.join(copies, 'hooked.jsonl'), transcriptOf(script));
    const engine = await open();
    await engine.ingest();
    await importTranscripts(engine, { paths: [copies] });
    const rows = () => ({
      toolCalls: engine.store.all(
        'SELECT event_id, tool_use_id, session_id, tool_name, success, error, at FROM tool_calls ORDER BY at, tool_use_id',
      ),
      prompts: engine.store.all(
        'SELECT event_id, session_id, text, at, source_key FROM prompts ORDER BY at, text, source_key',
      ),
      sessions: engine.store.all('SELECT * FROM sessions ORDER BY id'),
      transcripts: engine.store.all('SELECT path FROM transcript_files ORDER BY path'),
    });
    const before = rows();
    assert.equal(before.transcripts.length, fixtureFiles.length + 1);

    const rebuilt = await engine.rebuild();
    assert.equal(rebuilt.transcriptFilesImported, fixtureFiles.length + 1);
    assert.deepEqual(rows(), before, 'the same rows, hook-recorded and imported');

    const busiest = [...fixtureFiles].sort(
      (a, b) => countRaw(path.join(FIXTURES, b)).toolCalls - countRaw(path.join(FIXTURES, a)).toolCalls,
    )[0];
    const gone = path.join(copies, busiest);
    fs.rmSync(gone);
    const again = await engine.rebuild();
    assert.equal(again.transcriptFilesImported, fixtureFiles.length);
    const after = rows();
    assert.deepEqual(
      after.transcripts,
      before.transcripts.filter((row) => row.path !== gone),
    );
    assert.ok(after.toolCalls.length < before.toolCalls.length, "the deleted file's tool calls are gone");
    const hookRecorded = (list: typeof before.toolCalls) => list.filter((row) => row.event_id !== null);
    assert.deepEqual(
      hookRecorded(after.toolCalls),
      hookRecorded(before.toolCalls),
      'hook-recorded rows stay',
    );
    assert.equal(hookRecorded(after.toolCalls).length, 2);
  });

  test("routes Claude Code's folders by recorded cwd; subagent files add tool calls, not prompts", async () => {
    const claudeDir = path.join(ws.home, 'claude');
    const sibling = `${ws.project}-two`;
    const mine: SessionScript = {
      sessionId: 'mine',
      cwd: path.join(ws.project, 'sub'),
      startAt: 1e12,
      prompts: ['hello'],
      tools: [{ tool: 'Read' }],
    };
    fs.writeFileSync(path.join(claudeProjectDir(claudeDir, mine.cwd), 'mine.jsonl'), transcriptOf(mine));
    const subagents = path.join(claudeProjectDir(claudeDir, mine.cwd), 'mine', 'subagents');
    fs.mkdirSync(subagents, { recursive: true });
    const agent = transcriptOf({ ...mine, tools: [{ tool: 'Grep' }, { tool: 'Glob', error: 'no match' }] })
      .replaceAll('toolu_mine_', 'toolu_agent_')
      .replaceAll('"isSidechain":false', '"isSidechain":true');
    fs.writeFileSync(path.join(subagents, 'agent-1.jsonl'), agent);
    const theirs = { ...mine, sessionId: 'theirs', cwd: sibling };
    fs.writeFileSync(path.join(claudeProjectDir(claudeDir, sibling), 'theirs.jsonl'), transcriptOf(theirs));
    const elsewhere = { ...mine, sessionId: 'elsewhere', cwd: '/somewhere/else' };
    fs.writeFileSync(
      path.join(claudeProjectDir(claudeDir, elsewhere.cwd), 'x.jsonl'),
      transcriptOf(elsewhere),
    );

    const engine = await open();
    const result = await importTranscripts(engine, { transcriptsDir: claudeDir });
    assert.equal(result.files, 2, 'the session and its subagent');
    assert.equal(result.foreignFiles, 1, 'the sibling folder looks alike but records another cwd');
    assert.deepEqual(tableCounts(engine), { sessions: 1, toolCalls: 3, toolFailures: 1, prompts: 1 });
    const session = engine.store.get('SELECT transcript_path FROM sessions WHERE id = ?', ['mine']);
    assert.equal(session?.transcript_path, path.join(claudeProjectDir(claudeDir, mine.cwd), 'mine.jsonl'));
  });

  test("a session's Workflow agents are its subagents; their run's journal is no transcript", async () => {
    const claudeDir = path.join(ws.home, 'claude');
    const folder = claudeProjectDir(claudeDir, ws.project);
    const mine: SessionScript = { sessionId: 'mine', cwd: ws.project, startAt: 1e12, prompts: ['hello'] };
    fs.writeFileSync(path.join(folder, 'mine.jsonl'), transcriptOf({ ...mine, tools: [{ tool: 'Read' }] }));
    const run = path.join(folder, 'mine', 'subagents', 'workflows', 'wf_1');
    fs.mkdirSync(run, { recursive: true });
    const workflowAgent = (id: string, tool: string, sessionId: string | undefined) =>
      transcriptOf({ ...mine, prompts: [`dispatch ${id}`], tools: [{ tool }] })
        .replaceAll('toolu_mine_', `toolu_${id}_`)
        .replaceAll('"isSidechain":false', '"isSidechain":true')
        .replaceAll('"sessionId":"mine",', sessionId === undefined ? '' : `"sessionId":"${sessionId}",`);
    // One as the Task tool's subagents write them, one whose lines record no session.
    fs.writeFileSync(path.join(run, 'agent-w1.jsonl'), workflowAgent('w1', 'Grep', 'mine'));
    fs.writeFileSync(path.join(run, 'agent-w2.jsonl'), workflowAgent('w2', 'Glob', undefined));
    fs.writeFileSync(path.join(run, 'agent-w1.meta.json'), '{"agentType":"workflow-subagent"}');
    fs.writeFileSync(
      path.join(run, 'journal.jsonl'),
      '{"type":"launched"}\n{"type":"started","agentId":"w1","label":"Look"}\n{"type":"result","agentId":"w1"}\n',
    );

    const engine = await open();
    const found = await importTranscripts(engine, { transcriptsDir: claudeDir });
    assert.equal(found.files, 3, 'the session and its two workflow agents');
    assert.equal(found.foreignFiles, 0, 'the journal is not looked at');
    assert.deepEqual(tableCounts(engine), { sessions: 1, toolCalls: 3, toolFailures: 0, prompts: 1 });

    // Named as a folder, the same: the journal is not offered as a session file.
    const named = await importTranscripts(engine, { paths: [folder], force: true });
    assert.deepEqual(named.problems, []);
    assert.deepEqual(tableCounts(engine), { sessions: 1, toolCalls: 3, toolFailures: 0, prompts: 1 });
  });

  test("a renamed transcript is the session its lines record; an older version's subagent file is not the active one", async () => {
    const claudeDir = path.join(ws.home, 'claude');
    const folder = claudeProjectDir(claudeDir, ws.project);
    const script: SessionScript = { sessionId: 'real-id', cwd: ws.project, startAt: 1e12, prompts: ['hi'] };
    // Older versions wrote usage-only lines, without a session id, before the session's first message.
    const usageOnly = JSON.stringify({ message: { usage: { input_tokens: 5, output_tokens: 1 } } });
    const renamed = path.join(folder, 'real-id (copy).jsonl');
    fs.writeFileSync(renamed, `${usageOnly}\n${transcriptOf({ ...script, tools: [{ tool: 'Read' }] })}`);
    const engine = await open();
    await importTranscripts(engine, { transcriptsDir: claudeDir });
    assert.deepEqual(
      engine.store.all('SELECT id FROM sessions').map((row) => row.id),
      ['real-id'],
    );

    // Claude Code once kept subagents' files beside the sessions' own: the newest of them is not followed.
    const agent = path.join(folder, 'agent-a1.jsonl');
    fs.writeFileSync(agent, transcriptOf(script).replaceAll('"isSidechain":false', '"isSidechain":true'));
    fs.utimesSync(renamed, new Date(1e12), new Date(1e12));
    assert.equal(findActiveTranscript(ws.project, claudeDir), renamed);
  });

  test('a grown file is read from where the last import stopped; a torn line waits; results find their use', async () => {
    const file = path.join(ws.home, 'grow.jsonl');
    const script: SessionScript = {
      sessionId: 'grow',
      cwd: ws.project,
      startAt: 1e12,
      prompts: ['one'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'failed' }, { tool: 'Edit' }],
    };
    const lines = transcriptOf(script).split('\n').filter(Boolean);
    // Stop between the second tool's use and its result, and tear the result line in half.
    const resultLine = lines[4];
    const firstPart = `${lines.slice(0, 4).join('\n')}\n${resultLine.slice(0, 30)}`;
    fs.writeFileSync(file, firstPart);
    const engine = await open();
    const first = await importTranscripts(engine, { paths: [file] });
    assert.equal(first.toolCalls, 1);
    assert.equal(first.bytes, Buffer.byteLength(`${lines.slice(0, 4).join('\n')}\n`));
    assert.equal(engine.store.number('SELECT count(*) FROM transcript_pending_tools'), 1);

    fs.appendFileSync(file, `${resultLine.slice(30)}\n${lines.slice(5).join('\n')}\n`);
    const second = await importTranscripts(engine, { paths: [file] });
    assert.equal(second.bytes, fs.statSync(file).size - first.bytes, 'only the new bytes are read');
    assert.deepEqual([second.toolCalls, second.failures], [2, 1]);
    assert.equal(engine.store.number('SELECT count(*) FROM transcript_pending_tools'), 0);
    assert.deepEqual(tableCounts(engine), { sessions: 1, toolCalls: 3, toolFailures: 1, prompts: 1 });
  });

  test('a replaced file is read again from its start without counting twice', async () => {
    const file = path.join(ws.home, 'replaced.jsonl');
    const script: SessionScript = {
      sessionId: 'r',
      cwd: ws.project,
      startAt: 1e12,
      prompts: ['a'],
      tools: [{ tool: 'Read' }],
    };
    fs.writeFileSync(file, transcriptOf(script));
    const engine = await open();
    await importTranscripts(engine, { paths: [file] });
    fs.writeFileSync(
      file,
      transcriptOf({ ...script, prompts: ['b', 'c'], tools: [{ tool: 'Read' }, { tool: 'Bash' }] }),
    );
    const again = await importTranscripts(engine, { paths: [file] });
    assert.equal(again.bytes, fs.statSync(file).size);
    // Prompt "a" stays counted; the Read call (same tool_use_id) is not counted again.
    assert.deepEqual(tableCounts(engine), { sessions: 1, toolCalls: 2, toolFailures: 0, prompts: 3 });
  });

  test('cancelling keeps what was read; the next import completes it with the same totals', async () => {
    const files = [1, 2, 3].map((n) => {
      const file = path.join(ws.home, `c${n}.jsonl`);
      const tools = Array.from({ length: 40 }, (_, i) => ({
        tool: 'Bash',
        error: i % 7 === 0 ? 'x' : undefined,
      }));
      fs.writeFileSync(
        file,
        transcriptOf({ sessionId: `c${n}`, cwd: ws.project, startAt: 1e12, prompts: ['p', 'q'], tools }),
      );
      return file;
    });
    const engine = await open();
    const abort = new AbortController();
    const progress: number[] = [];
    const partial = await importTranscripts(engine, {
      paths: files,
      chunkBytes: 2048,
      signal: abort.signal,
      onProgress: (p) => {
        progress.push(p.doneBytes);
        if (progress.length === 3) abort.abort();
      },
    });
    assert.ok(partial.cancelled);
    assert.ok(partial.toolCalls > 0 && partial.toolCalls < 120);
    const rest = await importTranscripts(engine, { paths: files, chunkBytes: 2048 });
    assert.equal(partial.toolCalls + rest.toolCalls, 120);
    assert.equal(partial.prompts + rest.prompts, 6);
    assert.deepEqual(tableCounts(engine), { sessions: 3, toolCalls: 120, toolFailures: 18, prompts: 6 });
    assert.ok(
      progress.every((done, i) => i === 0 || done > progress[i - 1]),
      'progress only grows',
    );
  });

  test('prompt and error texts are redacted as hook events are', async () => {
    const file = path.join(ws.home, 'secret.jsonl');
    const key = 'sk-ant-api03-Xk9vQ2mZr7Lp4Tn8Wb3Hc6Jd1Fg5Ks0Ye2Ua7Io9Pq';
    const script: SessionScript = {
      sessionId: 's',
      cwd: ws.project,
      startAt: 1e12,
      prompts: [`use ${key}`],
      tools: [{ tool: 'Bash', error: `bad key ${key}` }],
    };
    fs.writeFileSync(file, transcriptOf(script));
    const engine = await open();
    await importTranscripts(engine, { paths: [file] });
    const texts = [
      ...engine.store.all('SELECT text AS t FROM prompts'),
      ...engine.store.all('SELECT error AS t FROM tool_calls'),
    ].map((row) => String(row.t));
    assert.equal(texts.length, 2);
    for (const text of texts) {
      assert.ok(!text.includes(key), text);
      assert.match(text, /\[REDACTED:/);
    }
  });

  test('schedules a snapshot save; refuses to run as a reader', async () => {
    const file = path.join(FIXTURES, 'claude-code-log-representative_messages.jsonl');
    const engine = await open();
    let changes = 0;
    engine.onDidChange(() => changes++);
    await importTranscripts(engine, { paths: [file] });
    assert.ok(changes >= 1);
    await engine.save();
    const reader = await open('reader');
    assert.equal(reader.counts().toolCalls, 2);
    await assert.rejects(importTranscripts(reader, { paths: [file] }), /only the process that writes/);
    await assert.rejects(importTranscripts(engine, { paths: [path.join(ws.home, 'nope')] }), /not found/);
  });
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('context-deck import-transcripts', () => {
  test("imports the project's sessions from Claude Code's folder, then nothing new", async () => {
    const claudeDir = path.join(ws.home, 'claude');
    const script: SessionScript = {
      sessionId: 'cli',
      cwd: ws.project,
      startAt: 1e12,
      prompts: ['go'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'no' }],
    };
    fs.writeFileSync(path.join(claudeProjectDir(claudeDir, ws.project), 'cli.jsonl'), transcriptOf(script));
    const args = ['--home', ws.home, '--project', ws.project, '--claude-dir', claudeDir];
    const first = await cli('import-transcripts', '--json', ...args);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(
      (({ files, toolCalls, failures, prompts, sessions }) => ({
        files,
        toolCalls,
        failures,
        prompts,
        sessions,
      }))(JSON.parse(first.stdout)),
      { files: 1, toolCalls: 2, failures: 1, prompts: 1, sessions: 1 },
    );
    const second = await cli('import-transcripts', ...args);
    assert.equal(second.code, 0, second.stderr);
    assert.match(
      second.stdout,
      /0 new tool calls \(0 failed\), 0 new prompts, 0 new sessions from 0 transcripts/,
    );
    const status = await cli('status', '--json', '--home', ws.home, '--project', ws.project);
    assert.equal(JSON.parse(status.stdout).toolCalls, 2, 'the import was saved');
  });

  test("a Codex rollout's summary counts the entries read, not 0 lines", async () => {
    const rollout = path.join(
      FIXTURES_DIR,
      'codex',
      'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.excerpt.jsonl',
    );
    const lines = fs
      .readFileSync(rollout, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '').length;
    const run = await cli('import-transcripts', rollout, '--home', ws.home, '--project', ws.project);
    assert.equal(run.code, 0, run.stderr);
    const read = /\((\d+) bytes, ([^,]+), (\d+) malformed\)/.exec(run.stdout);
    assert.ok(read, run.stdout);
    assert.doesNotMatch(run.stdout, /\b0 lines\b/);
    const entries = Number(/(\d+) session entries/.exec(read[2])?.[1]);
    assert.ok(
      entries > 0 && entries <= lines,
      `${entries} entries of a rollout of ${lines} lines: ${run.stdout}`,
    );
  });

  test('named files are imported whatever cwd they record; a missing path fails with one line', async () => {
    const named = await cli(
      'import-transcripts',
      FIXTURES,
      '--json',
      '--home',
      ws.home,
      '--project',
      ws.project,
    );
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).files, fixtureFiles.length);
    const missing = await cli(
      'import-transcripts',
      path.join(ws.home, 'nope.jsonl'),
      '--home',
      ws.home,
      '--project',
      ws.project,
    );
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.split('\n').length, 1);
  });
});
