/**
 * Imported history feeds the memory exactly as hook events do: the real fixture transcripts are imported
 * into one project and their hook-event equivalent (built here from the raw lines, without the code under
 * test) is ingested into another, and the two memories are compared.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { assembleSessionContext } from '../../src/engine/context/sessionContextAssembly';
import { searchObservations } from '../../src/engine/memory';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import type { Row } from '../../src/engine/storage/store';
import { importTranscripts } from '../../src/engine/transcripts';
import { FIXTURES_DIR, type Payload, appendEvents, hookEvent, tempWorkspace } from '../support/events';

const FIXTURES = path.join(FIXTURES_DIR, 'transcripts');
const REPRESENTATIVE = 'claude-code-log-representative_messages.jsonl';
/** The fixtures' sessions ran in /tmp: hook events of the same sessions belong to a project there. */
const FIXTURE_CWD = '/tmp';

let ws: ReturnType<typeof tempWorkspace>;
const engines: ProjectEngine[] = [];

async function open(folder = ws.project, home = ws.home): Promise<ProjectEngine> {
  const engine = await ProjectEngine.open({ home, folder, role: 'writer', saveDebounceMs: 10 });
  engines.push(engine);
  return engine;
}

beforeEach(() => {
  ws = tempWorkspace('cd-import-memory-');
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  ws.cleanup();
});

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

/** Text of message or result content: a string, or its text blocks joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((b) => (asObject(b)?.type === 'text' ? [String(asObject(b)!.text)] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

const NOT_TYPED = /^(<local-command|<bash-|Caveat: The messages below|\[Request interrupted)/;

/**
 * The hook events Claude Code would have sent for a transcript's activity, each stamped with the time of
 * the line that shows it: a prompt's UserPromptSubmit, a tool result's PostToolUse(Failure) (a subagent's
 * also its SubagentStop), a compaction's PreCompact (its summary's PostCompact), a turn's last assistant text a
 * Stop, and a SessionEnd at each session's last line.
 */
function hookEventsOf(file: string): Payload[] {
  const events: Payload[] = [];
  const uses = new Map<string, { name: string; input: Json }>();
  const last = new Map<string, number>();
  const stops = new Map<string, Payload>();
  for (const text of fs.readFileSync(file, 'utf8').split('\n')) {
    let line: Json | undefined;
    try {
      line = asObject(JSON.parse(text));
    } catch {
      continue;
    }
    const at = typeof line?.timestamp === 'string' ? Date.parse(line.timestamp) : NaN;
    if (!line || typeof line.sessionId !== 'string' || !Number.isFinite(at)) continue;
    const base = { session_id: line.sessionId, cwd: line.cwd, transcript_path: file, at };
    last.set(line.sessionId, Math.max(at, last.get(line.sessionId) ?? at));
    if (line.subtype === 'compact_boundary')
      events.push(hookEvent('PreCompact', { ...base, trigger: asObject(line.compactMetadata)?.trigger }));
    const message = asObject(line.message);
    const blocks = Array.isArray(message?.content) ? message.content.map(asObject) : [];
    for (const block of blocks) {
      if (block?.type === 'tool_use')
        uses.set(String(block.id), { name: String(block.name), input: block.input as Json });
      const use = block?.type === 'tool_result' ? uses.get(String(block.tool_use_id)) : undefined;
      if (!block || !use) continue;
      uses.delete(String(block.tool_use_id));
      const call = { ...base, tool_name: use.name, tool_input: use.input, tool_use_id: block.tool_use_id };
      const output = textOf(block.content);
      if (block.is_error === true) {
        events.push(hookEvent('PostToolUseFailure', { ...call, error: output, is_interrupt: false }));
        continue;
      }
      events.push(hookEvent('PostToolUse', { ...call, tool_response: line.toolUseResult ?? output }));
      if (use.name === 'Task')
        events.push(
          hookEvent('SubagentStop', {
            ...base,
            agent_type: use.input.subagent_type,
            last_assistant_message: output?.split('\nagentId:')[0],
          }),
        );
    }
    const typed = textOf(message?.content);
    const isPrompt =
      line.type === 'user' &&
      !line.isMeta &&
      !line.isCompactSummary &&
      !line.isSidechain &&
      !blocks.some((b) => b?.type === 'tool_result') &&
      typed !== undefined &&
      !NOT_TYPED.test(typed);
    // The agent's own words: its compaction summary (PostCompact) and what it said last (Stop).
    if (line.type === 'user' && line.isCompactSummary === true && typed !== undefined)
      events.push(hookEvent('PostCompact', { ...base, trigger: 'auto', compact_summary: typed }));
    // Stop comes once a turn, with its last assistant text, when the next prompt comes or the session ends.
    if (line.type === 'assistant' && !line.isSidechain && message?.model !== '<synthetic>' && typed?.trim())
      stops.set(line.sessionId, hookEvent('Stop', { ...base, last_assistant_message: typed }));
    if (isPrompt) {
      const stop = stops.get(line.sessionId);
      stops.delete(line.sessionId);
      if (stop) events.push(stop);
      const command = /<command-name>\/?(.*?)<\/command-name>.*?<command-args>(.*?)<\/command-args>/s.exec(
        typed,
      );
      events.push(
        hookEvent('UserPromptSubmit', { ...base, prompt: command ? `/${command[1]} ${command[2]}` : typed }),
      );
    }
  }
  events.push(...stops.values());
  for (const [sessionId, at] of last)
    events.push(hookEvent('SessionEnd', { session_id: sessionId, cwd: FIXTURE_CWD, reason: 'other', at }));
  return events;
}

function toLines(lines: Json[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

/** The event as the recorder would have stamped it `ms` later (earlier when negative). */
function restamp(event: Payload, ms: number): Payload {
  const stamp = event._cd as { ts: string };
  return { ...event, _cd: { ...stamp, ts: new Date(Date.parse(stamp.ts) + ms).toISOString() } };
}

/** What a memory holds, as a user or the agent sees it. */
function memoryOf(engine: ProjectEngine) {
  return engine.store.all(
    // By time: a session's latest report and summary are written when a chunk ends, wherever chunks split.
    'SELECT id, session_id, agent_type, type, source, text, at FROM observations ORDER BY at, id',
  );
}

function endsOf(engine: ProjectEngine) {
  return engine.store.all('SELECT id, ended_at FROM sessions WHERE ended_at IS NOT NULL ORDER BY id');
}

function endOf(engine: ProjectEngine, sessionId: string) {
  return engine.store.get('SELECT ended_at FROM sessions WHERE id = ?', [sessionId])?.ended_at;
}

const fixtureFiles = fs
  .readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
  .map((name) => path.join(FIXTURES, name));

/** A copy of fixture files in a folder of their own (a rebuild imports again from where they were). */
function copyFixtures(names: readonly string[]): string {
  const dir = path.join(ws.home, 'transcripts');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of names) {
    fs.copyFileSync(path.join(FIXTURES, name), path.join(dir, name));
    fs.chmodSync(path.join(dir, name), 0o644);
  }
  return dir;
}

/** The same activity recorded by hooks, in a project of its own (another home). */
async function fromHooks(events: Payload[]): Promise<ProjectEngine> {
  const other = tempWorkspace('cd-import-memory-hooks-');
  const previous = ws.cleanup;
  ws.cleanup = () => {
    previous();
    other.cleanup();
  };
  appendEvents(other.home, events);
  const engine = await open(FIXTURE_CWD, other.home);
  await engine.ingest();
  return engine;
}

describe('imported transcripts feed the memory', () => {
  test('the fixture transcripts give the observations, ids and session ends their hook events give', async () => {
    const imported = await open();
    await importTranscripts(imported, { paths: fixtureFiles });
    const hooked = await fromHooks(fixtureFiles.flatMap((file) => hookEventsOf(file)));

    const memory = memoryOf(imported);
    assert.deepEqual(memory, memoryOf(hooked));
    assert.deepEqual(
      memory.map((row) => [row.session_id, row.type, row.source]),
      [
        ['test_session', 'question', 'prompt'],
        ['test_session', 'feature', 'prompt'],
        ['test_session', 'feature', 'change'],
        ['test_session', 'question', 'prompt'],
        ['test_session', 'discovery', 'command'],
        // The agent's last words of the session, its report; then the prompt after it, typed at its time.
        ['test_session', 'pattern', 'report'],
        ['test_session', 'feature', 'prompt'],
        ['edge_cases', 'question', 'prompt'],
        ['edge_cases', 'question', 'prompt'],
        ['edge_cases', 'problem', 'error'],
        ['edge_cases', 'feature', 'prompt'],
        ['edge_cases', 'discovery', 'report'],
        ['edge_cases', 'feature', 'prompt'],
        ['s1', 'warning', 'compaction'],
        ['s1', 'discovery', 'compact-summary'],
      ],
    );
    assert.ok(memory.every((row) => row.agent_type === 'main'));
    // Usage-only lines, without sessionId or timestamp, are filed under the file's name at its modification
    // time: no hook event stands for them.
    const hookSessions = new Set(endsOf(hooked).map((row) => row.id));
    assert.equal(hookSessions.size, 5);
    assert.deepEqual(
      endsOf(imported).filter((row) => hookSessions.has(row.id)),
      endsOf(hooked),
      'a session without SessionEnd ended at its last line, where the hooks would have ended it',
    );

    const found = (query: string) =>
      searchObservations(imported.store, { query }).hits.map((hit) => hit.text);
    assert.deepEqual(found('decorator_example'), [
      'Created decorator_example.py (14 lines)',
      'Ran python /tmp/decorator_example.py — Hello, Alice!',
    ]);
    assert.deepEqual(found('FailingTool'), [
      'FailingTool failed: Error: Tool execution failed with error: Command not found',
    ]);
    // The agent's final report is searchable too, as the agent's words.
    assert.deepEqual(
      found('decorators').map((text) => text.slice(0, 40)),
      ['Reported: Perfect! As you can see, the `', 'Asked: Hello Claude! Can you help me und'],
    );
  });

  test('importing again adds nothing; a rebuild gives the same memory and session ends', async () => {
    const dir = copyFixtures(fixtureFiles.map((file) => path.basename(file)));
    const engine = await open();
    await importTranscripts(engine, { paths: [dir] });
    const memory = memoryOf(engine);
    const ends = endsOf(engine);
    assert.ok(memory.length > 0);

    await importTranscripts(engine, { paths: [dir], force: true });
    assert.deepEqual(memoryOf(engine), memory, 'read again from the start, nothing is added');
    await engine.rebuild();
    assert.deepEqual(memoryOf(engine), memory);
    assert.deepEqual(endsOf(engine), ends);
    assert.deepEqual(
      engine.store.all('SELECT session_id, intent FROM memory_sessions ORDER BY session_id'),
      [
        { session_id: 'edge_cases', intent: 'feature' },
        { session_id: 'test_session', intent: 'feature' },
      ],
      'the summariser state is rebuilt too',
    );
  });

  test('a session the hooks recorded gives no second observation, whichever is read first', async () => {
    const dir = copyFixtures([REPRESENTATIVE]);
    const files = [path.join(dir, REPRESENTATIVE), path.join(dir, 'busy.jsonl')];
    fs.writeFileSync(files[1], toLines(busyTranscript()));
    // As the recorder stamps them: a moment after the line, PreCompact (with the /compact instructions the
    // transcript does not keep) before the summary is written, SubagentStop before the Task's result.
    const events = files
      .flatMap((file) => hookEventsOf(file))
      .map((event) =>
        event.hook_event_name === 'PreCompact'
          ? restamp({ ...event, custom_instructions: 'keep the retry plan' }, -90_000)
          : restamp(event, event.hook_event_name === 'SubagentStop' ? -2_000 : 300),
      );
    const kinds = (rows: Row[]) => rows.map((row) => `${String(row.type)} ${String(row.source)}`).sort();

    // Hooks first, then the import of the same sessions (what a rebuild does).
    const hooksFirst = await fromHooks(events);
    const recorded = memoryOf(hooksFirst);
    assert.ok(recorded.length > 30, 'more than the near-duplicate check looks back over');
    assert.ok(recorded.some((row) => row.source === 'subagent' && row.agent_type === 'Explore'));
    assert.ok(recorded.some((row) => row.text === 'Context compacted on request: keep the retry plan'));
    const result = await importTranscripts(hooksFirst, { paths: files });
    assert.deepEqual([result.toolCalls, result.prompts], [0, 0]);
    assert.deepEqual(memoryOf(hooksFirst), recorded);

    // The import first, then the hook events arrive.
    const importFirst = await open(FIXTURE_CWD);
    await importTranscripts(importFirst, { paths: files });
    const imported = memoryOf(importFirst);
    assert.deepEqual(kinds(imported), kinds(recorded), 'the import alone remembers what the hooks alone do');
    appendEvents(ws.home, events);
    await importFirst.ingest();
    assert.deepEqual(memoryOf(importFirst), imported);
  });

  test('a tool use whose result a later import reads is remembered with its input', async () => {
    const file = path.join(ws.home, 'grow.jsonl');
    const [use, result] = busyTranscript().filter((line) => String(line.uuid).startsWith('toolu_write_0-'));
    fs.writeFileSync(file, `${JSON.stringify(use)}\n`);
    const engine = await open(FIXTURE_CWD);
    await importTranscripts(engine, { paths: [file] });
    assert.equal(memoryOf(engine).length, 0);
    fs.appendFileSync(file, `${JSON.stringify(result)}\n`);
    await importTranscripts(engine, { paths: [file] });
    assert.deepEqual(
      memoryOf(engine).map((row) => row.text),
      ['Created src/retry0.ts (1 line)'],
    );
  });

  test('a session without SessionEnd is summarised once idle; a live one stays open until it is', async () => {
    const dir = copyFixtures([REPRESENTATIVE]);
    const idle = path.join(dir, REPRESENTATIVE);
    const lastLine = Date.parse('2025-06-14T10:04:00Z');
    const engine = await open();
    await importTranscripts(engine, { paths: [idle] });
    assert.deepEqual(
      engine.store.all('SELECT id FROM sessions'),
      [{ id: 'test_session' }],
      'the closing `summary` line is no session of its own (one with nothing to say)',
    );
    assert.equal(endOf(engine, 'test_session'), lastLine);
    const context = assembleSessionContext(engine, { now: lastLine + 3_600_000 });
    assert.match(
      context.text,
      /## Previous Session\nSession ended 2025-06-14 10:04 UTC .*\nAsked: \[user\] Hello Claude! .*\n(.*\n)*Changed: \[tool\] "decorator_example\.py \(new\), deleted since"/,
    );

    // Resumed: new lines a minute old open it again; the session is live.
    const now = Date.now();
    fs.appendFileSync(
      idle,
      `${JSON.stringify({
        type: 'user',
        sessionId: 'test_session',
        cwd: FIXTURE_CWD,
        uuid: 'resumed',
        timestamp: new Date(now - 60_000).toISOString(),
        message: { role: 'user', content: 'Now add a timing decorator next to it' },
      })}\n`,
    );
    await importTranscripts(engine, { paths: [idle] });
    assert.equal(endOf(engine, 'test_session'), null, 'a live session has not ended');
  });
});

/**
 * A busy main session, shaped like Claude Code's lines: an Explore subagent's Task (its result ending with
 * the agent's id, as newer versions write it), 30 files written and a compaction the user asked for.
 */
function busyTranscript(): Json[] {
  const base = { sessionId: 'busy_session', cwd: FIXTURE_CWD, isSidechain: false, version: '2.0.0' };
  let seconds = 0;
  const at = () => new Date(Date.parse('2025-09-01T09:00:00Z') + (seconds += 5) * 1000).toISOString();
  const call = (id: string, name: string, input: Json, content: unknown, toolUseResult?: unknown): Json[] => [
    {
      ...base,
      type: 'assistant',
      uuid: `${id}-use`,
      timestamp: at(),
      message: {
        id: `msg-${id}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [{ type: 'tool_use', id, name, input }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: `${id}-result`,
      timestamp: at(),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
      ...(toolUseResult === undefined ? {} : { toolUseResult }),
    },
  ];
  const writes = Array.from({ length: 30 }, (_, i) => {
    const input = { file_path: `/tmp/src/retry${i}.ts`, content: `export const retries = ${i};\n` };
    return call(`toolu_write_${i}`, 'Write', input, 'File created successfully', {
      type: 'create',
      filePath: input.file_path,
      content: input.content,
    });
  }).flat();
  const task = call(
    'toolu_task',
    'Task',
    { subagent_type: 'Explore', description: 'Find fetch calls', prompt: 'Where is fetch called?' },
    [
      { type: 'text', text: 'Found 3 call sites of fetch in src/api.ts; none retries on 503.' },
      { type: 'text', text: "agentId: a1b2c3d (for resuming to continue this agent's work if needed)" },
    ],
  );
  const compaction = {
    ...base,
    type: 'system',
    subtype: 'compact_boundary',
    uuid: 'compact',
    timestamp: at(),
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'manual', preTokens: 120_000 },
  };
  // The report early: the writes after it put it out of the near-duplicate check's reach.
  return [...task, ...writes, compaction];
}
