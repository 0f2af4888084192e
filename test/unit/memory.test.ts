import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  MEMORY_EVENTS,
  TOKEN_BUDGET,
  estimateTokens,
  formatObservations,
  formatSearch,
  formatTimeline,
  getObservations,
  memoryCounts,
  resolveId,
  saveToMemory,
  searchObservations,
  setForgotten,
  timeline,
} from '../../src/engine/memory';
import { derivedId } from '../../src/engine/memory/ids';
import { normalisePayload } from '../../src/engine/agents/payloads';
import { type MemoryItem, analyseMemoryEvent } from '../../src/engine/memory/eventMemory';
import { ObservationWriter } from '../../src/engine/memory/observationWriter';
import { parseQuery } from '../../src/engine/memory/search';
import {
  type ObservationDraft,
  type SessionState,
  analyseEvent,
  resolveDraft,
} from '../../src/engine/memory/summarise';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { migrate } from '../../src/engine/storage/schema';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { Store } from '../../src/engine/storage/store';
import {
  FIXTURES_DIR,
  type Payload,
  appendEvents,
  hookEvent,
  hookExample,
  tempWorkspace,
} from '../support/events';
import { databaseBefore } from '../support/oldSchema';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const CWD = '/work/app';

function summarise(
  event: string,
  values: Payload = {},
  state: SessionState = {},
): ObservationDraft | undefined {
  const payload: Payload = { ...hookExample(event), cwd: CWD, ...values };
  const normalised = normalisePayload(payload);
  const template = normalised && analyseEvent(normalised);
  return template && resolveDraft(template, state);
}

function bash(command: string, response: Payload = { stdout: 'done', stderr: '' }): Payload {
  return { tool_name: 'Bash', tool_input: { command }, tool_response: response };
}

/** What an explicit save event gives the writer. */
function savedItem(fields: Payload): MemoryItem {
  const item = analyseMemoryEvent({ hook_event_name: MEMORY_EVENTS.save, ...fields }, MEMORY_EVENTS.save);
  assert.ok(item);
  return item;
}

async function emptyStore(): Promise<Store> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  migrate(db);
  return new Store(db);
}

interface Note {
  text: string;
  type?: string;
  at?: number;
  session?: string;
}

/** A store holding explicit saves, written by the real writer as the ingester would. */
async function storeWith(notes: readonly Note[]): Promise<{ store: Store; ids: string[] }> {
  const store = await emptyStore();
  const ids = notes.map((_, i) => derivedId(`note ${i}`));
  store.transaction(() => {
    const writer = new ObservationWriter(store);
    notes.forEach((note, i) =>
      writer.add(
        savedItem({ id: ids[i], text: note.text, type: note.type }),
        i + 1,
        note.session ?? 'session-a',
        note.at ?? T0 + i * 60_000,
      ),
    );
    writer.flush();
  });
  return { store, ids };
}

describe('summariser rules on documented hook payloads', () => {
  test('file writes and edits become changes, paths relative to the project', () => {
    const created = summarise('PostToolUse', {
      tool_input: { file_path: `${CWD}/src/factorial.ts`, content: 'a\nb\nc' },
    });
    assert.deepEqual(created, {
      type: 'feature',
      source: 'change',
      text: 'Created src/factorial.ts (3 lines)',
      agentType: 'main',
    });
    const edited = summarise(
      'PostToolUse',
      {
        tool_name: 'Edit',
        tool_input: {
          file_path: `${CWD}/src/login.ts`,
          old_string: 'if (user = null)',
          new_string: 'if (user === null)',
        },
        tool_response: {},
      },
      { intent: 'bugfix' },
    );
    assert.equal(
      edited?.text,
      'Modified src/login.ts: replaced "if (user = null)" with "if (user === null)"',
    );
    assert.equal(edited?.type, 'bugfix', 'an edit made for a prompt asking for a fix is a bugfix');
    const secret = summarise('PostToolUse', {
      tool_name: 'Edit',
      tool_input: { file_path: `${CWD}/.env.local`, old_string: 'A=1', new_string: 'A=2' },
    });
    assert.equal(secret?.text, 'Modified .env.local (content not recorded)');
  });

  test('commands: checks keep their outcome, navigation and silent commands are skipped', () => {
    const state: SessionState = {};
    const failed = summarise('PostToolUseFailure', {}, state);
    assert.deepEqual(failed, {
      type: 'problem',
      source: 'check',
      text: "Tests failed: npm test — Error: Cannot find module 'express'",
      agentType: 'main',
    });
    const passed = summarise('PostToolUse', bash('npm test', { stdout: 'ok 1\n# pass 12\n# fail 0' }), state);
    assert.equal(passed?.type, 'solution', 'a passing run after a failing one is a solution');
    assert.equal(passed?.text, 'Tests passed again: npm test — # pass 12');
    assert.equal(summarise('PostToolUse', bash('npx tsc --noEmit', { stdout: '' }), state)?.type, 'success');
    const reported = summarise(
      'PostToolUse',
      bash('npx vitest run', { stdout: 'Tests  2 failed | 10 passed' }),
    );
    assert.equal(reported?.type, 'problem', 'a runner reporting failures failed even with exit code 0');

    for (const command of ['ls -la', 'cd src && cat a.ts | head -5', 'git status', 'git diff HEAD~1', 'pwd'])
      assert.equal(summarise('PostToolUse', bash(command)), undefined, command);
    // A look-up that found nothing (grep's exit code 1) is no problem left: a real Codex session's.
    assert.equal(
      summarise('PostToolUseFailure', {
        tool_input: { command: "ps -ef | rg -i 'Google Chrome|chrome.*remote'" },
        error: 'Exit code 1',
      }),
      undefined,
    );
    assert.equal(summarise('PostToolUse', bash('git add -A')), undefined);
    // Not kept; it only settles an earlier failure of the same command.
    const silent = normalisePayload({
      ...hookExample('PostToolUse'),
      cwd: CWD,
      ...bash('node scripts/x.js', { stdout: '', stderr: '' }),
    });
    assert.equal(silent && analyseEvent(silent)?.silent, true);
    assert.equal(
      summarise('PostToolUse', bash('node scripts/x.js', { stdout: 'wrote 3 files\n' }))?.text,
      'Ran node scripts/x.js — wrote 3 files',
    );
    assert.deepEqual(summarise('PostToolUse', bash('npm install zod express --save')), {
      type: 'feature',
      source: 'command',
      text: 'Added dependency zod, express (npm install zod express --save)',
      agentType: 'main',
    });
    assert.equal(summarise('PostToolUse', bash('npm ci'))?.text, 'Installed dependencies: npm ci');
    assert.equal(
      summarise('PostToolUse', bash('git commit -am "Fix login null check"'))?.text,
      'Committed: Fix login null check',
    );
    assert.equal(
      summarise('PostToolUse', bash('npx eslint src', { stdout: '' }))?.text,
      'Lint clean: npx eslint src',
    );
    assert.equal(
      summarise('PostToolUseFailure', { tool_input: { command: 'npx eslint src' } })?.type,
      'warning',
    );
    assert.equal(
      summarise('PostToolUseFailure', { is_interrupt: true }),
      undefined,
      'an interrupt is no error',
    );
  });

  test('secrets in commands and outputs are redacted', () => {
    const draft = summarise(
      'PostToolUse',
      bash(
        'curl -H "Authorization: Bearer sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789" https://api.example.com',
        {
          stdout: 'token=ghp_0123456789abcdefghijABCDEFGHIJ0123456789',
        },
      ),
    );
    assert.ok(draft);
    assert.doesNotMatch(draft.text, /sk-ant-api03-AbCd|ghp_0123456789abcdef/);
  });

  test('errors, prompts, compactions, subagents and references', () => {
    assert.deepEqual(
      summarise('PostToolUseFailure', {
        tool_name: 'Edit',
        tool_input: { file_path: `${CWD}/src/a.ts` },
        error: 'String to replace not found in file.',
      }),
      {
        type: 'problem',
        source: 'error',
        text: 'Edit failed on src/a.ts: String to replace not found in file.',
        agentType: 'main',
      },
    );
    const state: SessionState = {};
    const prompt = summarise('UserPromptSubmit', {}, state);
    assert.equal(prompt?.text, 'Asked: Write a function to calculate the factorial of a number');
    assert.equal(prompt?.type, 'feature');
    assert.equal(state.intent, 'feature', 'the prompt sets the kind of work that follows');
    assert.equal(
      summarise('UserPromptSubmit', { prompt: 'yes go' }),
      undefined,
      'steering is not remembered',
    );
    // A compaction is an event of the session, never a decision.
    assert.deepEqual(summarise('PreCompact'), {
      type: 'discovery',
      source: 'compaction',
      text: 'Context compacted on request',
      agentType: 'main',
    });
    assert.equal(summarise('PreCompact', { trigger: 'auto' })?.type, 'warning');
    assert.deepEqual(summarise('SubagentStop'), {
      type: 'discovery',
      source: 'subagent',
      text: 'Explore subagent reported: Analysis complete. Found 3 potential issues...',
      agentType: 'Explore',
    });
    assert.deepEqual(
      summarise('PostToolUse', {
        tool_name: 'WebFetch',
        tool_input: { url: 'https://sql.js.org/documentation/Database.html', prompt: 'create_function' },
      }),
      {
        type: 'discovery',
        source: 'reference',
        text: 'Fetched https://sql.js.org/documentation/Database.html (looking for: create_function)',
        agentType: 'main',
      },
    );
    assert.equal(
      summarise('PostToolUse', { tool_name: 'WebSearch', tool_input: { query: 'fts4 bm25 matchinfo' } })
        ?.text,
      'Searched the web for: fts4 bm25 matchinfo',
    );
    for (const tool of ['Read', 'Grep', 'Glob', 'TodoWrite'])
      assert.equal(
        summarise('PostToolUse', { tool_name: tool, tool_input: { file_path: 'x' } }),
        undefined,
        tool,
      );
    // The docs' Stop carries the agent's last message: its report, kept as the agent's words.
    assert.deepEqual(summarise('Stop'), {
      type: 'refactor',
      source: 'report',
      text: "Reported: I've completed the refactoring. Here's a summary...",
      agentType: 'main',
    });
    assert.equal(summarise('Stop', { last_assistant_message: 'Done.' }), undefined, 'too short to tell');
  });
});

/** A line of a fixture transcript by its uuid (a real line where the README says so). */
function fixtureLine(name: string, uuid: string): Payload {
  const line = fs
    .readFileSync(path.join(FIXTURES_DIR, 'transcripts', name), 'utf8')
    .split('\n')
    .filter((text) => text.includes(`"${uuid}"`))
    .map((text) => JSON.parse(text) as Payload)
    .find((parsed) => parsed.uuid === uuid);
  assert.ok(line, uuid);
  return line;
}

/** The first block of a type (`text`, `tool_use`) of a fixture line's message. */
function fixtureBlock(name: string, uuid: string, type = 'text'): Payload {
  const content = (fixtureLine(name, uuid).message as Payload).content as Payload[];
  const block = content.find((candidate) => candidate.type === type);
  assert.ok(block, `${uuid} ${type}`);
  return block;
}

describe('observation types read as what happened, on lines of the fixture transcripts', () => {
  const REPRESENTATIVE = 'claude-code-log-representative_messages.jsonl';
  const EDGE_CASES = 'claude-code-log-edge_cases.jsonl';
  const prompted = (uuid: string, name = REPRESENTATIVE) =>
    summarise('UserPromptSubmit', { prompt: fixtureBlock(name, uuid).text });

  test('a prompt that asks is a question, not a discovery; one that asks for work is that work', () => {
    const questions = [
      prompted('msg_001'), // Hello Claude! Can you help me understand how Python decorators work?
      prompted('msg_007'), // Can you run that example to show the output?
      prompted('edge_001', EDGE_CASES), // Here's a message with some **markdown** ... Let's see how it renders!
    ];
    assert.deepEqual(
      questions.map((draft) => draft?.type),
      ['question', 'question', 'question'],
    );
    assert.equal(prompted('msg_003')?.type, 'feature', '"show me how to create a decorator" asks for one');
    assert.equal(
      summarise('UserPromptSubmit', { prompt: 'Make the sidebar collapsible on narrow screens' })?.type,
      'feature',
      'a request without a keyword asks for new behaviour',
    );
    const state: SessionState = {};
    summarise('UserPromptSubmit', { prompt: fixtureBlock(REPRESENTATIVE, 'msg_001').text }, state);
    const edit = summarise(
      'PostToolUse',
      { tool_name: 'Edit', tool_input: { file_path: `${CWD}/a.py`, old_string: 'x', new_string: 'y' } },
      state,
    );
    assert.equal(edit?.type, 'feature', 'an edit made after a question is a change, not a question');
  });

  test('creating a file is a feature whatever the prompt asked for; an Edit from empty text creates one', () => {
    const written = summarise('PostToolUse', {}, { intent: 'refactor' });
    assert.equal(written?.text, 'Created /path/to/file.txt (1 line)');
    assert.equal(written?.type, 'feature', 'a new file is not a refactor');

    // Claude Code's Edit (and MultiEdit) create a file when the old text is empty.
    const use = fixtureBlock(REPRESENTATIVE, 'msg_004', 'tool_use');
    const created = summarise(
      'PostToolUse',
      { tool_name: use.name, tool_input: use.input, tool_response: 'File created successfully', cwd: '/tmp' },
      { intent: 'bugfix' },
    );
    assert.deepEqual(created, {
      type: 'feature',
      source: 'change',
      text: 'Created decorator_example.py (14 lines)',
      agentType: 'main',
    });
    const multi = fixtureBlock(EDGE_CASES, 'edge_009', 'tool_use');
    assert.match(
      summarise('PostToolUse', { tool_name: multi.name, tool_input: multi.input, cwd: '/tmp' })?.text ?? '',
      /^Created complex_example\.py \(\d+ lines\)$/,
    );
  });
});

describe('observations from the event log', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  test('ingestion derives observations once, skips near duplicates, and a rebuild gives the same ids', async () => {
    const base = { session_id: 's1', cwd: ws.project };
    const edit = (at: number) =>
      hookEvent('PostToolUse', {
        ...base,
        tool_name: 'Edit',
        tool_input: { file_path: `${ws.project}/src/a.ts`, old_string: 'x', new_string: 'y' },
        at,
      });
    appendEvents(ws.home, [
      hookEvent('UserPromptSubmit', {
        ...base,
        prompt: 'Refactor the parser into smaller functions',
        at: T0,
      }),
      edit(T0 + 1000),
      edit(T0 + 2000),
      hookEvent('PostToolUse', { ...base, tool_name: 'Read', tool_input: { file_path: 'a' }, at: T0 + 3000 }),
      hookEvent('SubagentStop', { ...base, at: T0 + 4000 }),
    ]);
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      await engine.ingest();
      const rows = engine.store.all(
        'SELECT id, type, source, agent_type, session_id, event_id, at FROM observations ORDER BY seq',
      );
      assert.deepEqual(
        rows.map((row) => [row.type, row.source, row.agent_type, row.session_id, row.at]),
        [
          ['refactor', 'prompt', 'main', 's1', T0],
          ['refactor', 'change', 'main', 's1', T0 + 1000],
          ['discovery', 'subagent', 'Explore', 's1', T0 + 4000],
        ],
        'the repeated edit is a near duplicate; the read is not an observation',
      );
      assert.ok(rows.every((row) => typeof row.event_id === 'number'));
      await engine.rebuild();
      const rebuilt = engine.store.all('SELECT id FROM observations ORDER BY seq');
      assert.deepEqual(
        rebuilt.map((row) => row.id),
        rows.map((row) => row.id),
      );
    } finally {
      await engine.close();
    }
  });

  test('live ingestion, a few events at a time, remembers exactly what a rebuild in one pass does', async () => {
    const base = { session_id: 's1', cwd: ws.project };
    let at = T0;
    const prompt = (text: string) =>
      hookEvent('UserPromptSubmit', { ...base, prompt: text, at: (at += 1000) });
    const edit = (file: string) =>
      hookEvent('PostToolUse', {
        ...base,
        tool_name: 'Edit',
        tool_input: { file_path: `${ws.project}/src/${file}`, old_string: 'a', new_string: 'b' },
        at: (at += 1000),
      });
    const test = (exitCode: number) =>
      hookEvent('PostToolUse', {
        ...base,
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        tool_response: { stdout: exitCode ? 'Tests: 2 failed' : 'Tests: 9 passed', exitCode },
        at: (at += 1000),
      });
    // "continue" and "yes" steer without changing what the work is; a long prompt is typed by its opening.
    const events = [
      prompt('Fix the crash in the session parser when a line is torn'),
      edit('parser.ts'),
      test(1),
      prompt('continue'),
      edit('lines.ts'),
      test(0),
      prompt(
        `Add an export to CSV for the timeline view ${'with columns and options '.repeat(15)} then refactor it`,
      ),
      edit('export.ts'),
      prompt('yes'),
      edit('csv.ts'),
    ];
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      for (const event of events) {
        appendEvents(ws.home, [event]);
        await engine.ingest();
      }
      const remembered = () =>
        engine.store
          .all('SELECT type, source, text FROM observations ORDER BY seq')
          .map((row) => [row.type, row.source, row.text]);
      const live = remembered();
      assert.deepEqual(
        live.filter(([, source]) => source === 'change').map(([type]) => type),
        ['bugfix', 'bugfix', 'feature', 'feature'],
        'edits take the type of the last prompt that said what to do',
      );
      await engine.rebuild();
      assert.deepEqual(remembered(), live);
    } finally {
      await engine.close();
    }
  });

  test('saves, forgets and restores are events: forgotten observations vanish everywhere until restored', async () => {
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      const target = { home: ws.home, root: engine.identity.mainRoot };
      const kept = saveToMemory(target, {
        text: 'We use sql.js because native modules fail to build',
        type: 'decision',
        origin: 'cli',
      });
      const hidden = saveToMemory(target, { text: 'sql.js exports reset pragmas', origin: 'mcp' });
      await engine.ingest();
      assert.equal(searchObservations(engine.store, { query: 'sql.js' }).hits.length, 2);
      assert.equal(getObservations(engine.store, [hidden.id]).observations[0].type, 'discovery');

      setForgotten(target, [hidden.id], true, 'cli');
      await engine.ingest();
      const visibleIds = (hits: Array<{ id: string }>) => hits.map((hit) => hit.id);
      assert.deepEqual(visibleIds(searchObservations(engine.store, { query: 'sql.js' }).hits), [kept.id]);
      assert.deepEqual(visibleIds(searchObservations(engine.store, { query: 'pragmas' }).hits), []);
      assert.deepEqual(visibleIds(searchObservations(engine.store, { query: '' }).hits), [kept.id]);
      assert.deepEqual(visibleIds(timeline(engine.store, { before: 20, after: 20, anchorAt: 0 }).entries), [
        kept.id,
      ]);
      assert.deepEqual(visibleIds(timeline(engine.store, { before: 20 }).entries), [kept.id]);
      assert.equal(getObservations(engine.store, [hidden.id]).observations.length, 0);
      assert.equal(resolveId(engine.store, hidden.id.slice(0, 8)).ok, false);
      assert.equal(memoryCounts(engine.store).total, 1);

      setForgotten(target, [hidden.id], false, 'cli');
      await engine.ingest();
      assert.equal(searchObservations(engine.store, { query: 'pragmas' }).hits[0]?.id, hidden.id);
      assert.equal(memoryCounts(engine.store).byType.discovery, 1);
    } finally {
      await engine.close();
    }
  });
});

describe('search', () => {
  test('ranking: all terms above one term, rarer terms weigh more', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => ({
      text: `Modified src/file${i}.ts while fixing the parser`,
    }));
    const { store } = await storeWith([
      ...filler,
      { text: 'The parser crashes on empty input' },
      { text: 'Tokenizer crashes on unicode escapes in the parser' },
      { text: 'Tokenizer rewrite landed' },
    ]);
    const texts = (query: string) =>
      searchObservations(store, { query, limit: 50 }).hits.map((hit) => hit.text);
    // "crashes" is rare, "parser" common: a document with both ranks first, then rarer-term documents.
    const ranked = texts('parser OR crashes');
    assert.equal(ranked.length, 42);
    assert.match(ranked[0], /crashes/);
    assert.match(ranked[1], /crashes/);
    assert.ok(ranked.slice(2).every((text) => !text.includes('crashes')));
    const both = texts('tokenizer OR unicode');
    assert.equal(both[0], 'Tokenizer crashes on unicode escapes in the parser', 'matching all terms wins');
    assert.equal(both[1], 'Tokenizer rewrite landed');
    const scores = searchObservations(store, { query: 'tokenizer OR parser' }).hits;
    const rare = scores.find((hit) => hit.text === 'Tokenizer rewrite landed');
    const common = scores.find((hit) => hit.text === 'The parser crashes on empty input');
    assert.ok(rare && common && rare.score! > common.score!, 'a rare term weighs more than a common one');
  });

  test('a very common word ranks every match: the best is found however old, and filters still apply', async () => {
    // The best match for "parser" is the oldest note (shortest text), behind over 1,000 newer, longer ones:
    // FTS4 ranked only the newest 1,000 matches and never showed it.
    const older = { text: 'parser bug', type: 'problem' as const, session: 'old-session' };
    const newer = Array.from({ length: 1010 }, (_, i) => ({
      text: `Modified src/file${i}.ts while fixing the parser`,
    }));
    const { store } = await storeWith([older, ...newer]);
    const parser = searchObservations(store, { query: 'parser', limit: 5 });
    assert.equal(parser.hits.length, 5);
    assert.ok(parser.more);
    assert.equal(parser.hits[0].text, 'parser bug', 'the oldest, shortest match ranks first');
    assert.ok(parser.hits.slice(1).every((hit) => hit.text.startsWith('Modified')));
    assert.equal(searchObservations(store, { query: 'parser', offset: 1000, limit: 20 }).hits.length, 11);
    const bySession = searchObservations(store, { query: 'parser', sessionId: 'old' });
    assert.deepEqual(
      bySession.hits.map((hit) => hit.text),
      ['parser bug'],
    );
    const byType = searchObservations(store, { query: 'modified', types: ['problem'] });
    assert.deepEqual(byType.hits, [], 'a filter no match passes leaves none');
  });

  test('observations indexed before the prefix-index upgrade are found after it', async () => {
    const db = await databaseBefore('prefix=');
    // Written as that version wrote them: the row, then its full-text entry.
    db.run(
      `INSERT INTO observations (seq, id, session_id, type, source, text, tokens, at)
       VALUES (1, ?, 'session-a', 'discovery', 'saved', 'Parser rewrite landed', 3, ?)`,
      [derivedId('old'), T0],
    );
    db.run("INSERT INTO observations_fts (docid, text) VALUES (1, 'Parser rewrite landed')");
    const store = new Store(db);
    migrate(db);
    for (const query of ['pars*', 'parser', 'rewrite landed'])
      assert.deepEqual(
        searchObservations(store, { query }).hits.map((hit) => hit.text),
        ['Parser rewrite landed'],
        query,
      );
  });

  test('prefix, phrase, filters and snippets', async () => {
    const { store, ids } = await storeWith([
      { text: 'Decided to keep the snapshot in memory', type: 'decision', session: 'aaa-1', at: T0 },
      {
        text: 'Snapshots are written atomically with rename',
        type: 'pattern',
        session: 'bbb-2',
        at: T0 + 3_600_000,
      },
      { text: 'memory in the snapshot keeps growing', type: 'problem', session: 'bbb-2', at: T0 + 7_200_000 },
    ]);
    const found = (options: Parameters<typeof searchObservations>[1]) =>
      searchObservations(store, options)
        .hits.map((hit) => ids.indexOf(hit.id))
        .sort();
    assert.deepEqual(found({ query: 'snap*' }), [0, 1, 2]);
    assert.deepEqual(found({ query: 'snapshot' }), [0, 2]);
    assert.deepEqual(found({ query: '"snapshot in memory"' }), [0]);
    assert.deepEqual(found({ query: 'snapshot memory' }), [0, 2]);
    assert.deepEqual(found({ query: 'snap*', types: ['pattern', 'problem'] }), [1, 2]);
    assert.deepEqual(found({ query: 'snap*', sessionId: 'bbb' }), [1, 2], 'a session id prefix works');
    assert.deepEqual(found({ query: 'snap*', since: T0 + 1, until: T0 + 7_200_000 }), [1]);
    assert.deepEqual(found({ query: '', types: ['decision'] }), [0]);
    const hit = searchObservations(store, { query: 'atomic* rename' }).hits[0];
    assert.equal(hit.snippet, 'Snapshots are written atomically with rename');
    assert.deepEqual(
      hit.matches.map(([s, e]) => hit.snippet.slice(s, e)),
      ['atomically', 'rename'],
    );
    assert.ok(hit.score! > 0);
  });

  test('in a small project the index shows each hit against the best one, never 0.00 for all', async () => {
    // The real agent suite's project: a word in nearly every observation, whose BM25 score is 0.000001.
    const { store } = await storeWith([
      { text: 'Asked: Is greet.sh fixed?' },
      { text: 'Rewrote greet.sh (1 line)' },
      { text: 'Created greet.sh (1 line)' },
      { text: 'Reported: Done: greet.sh now prints hello and its check passes, the long way round' },
    ]);
    const result = searchObservations(store, { query: 'greet' });
    assert.ok(
      result.hits.every((hit) => hit.score! < 0.001),
      'the raw scores are all near zero',
    );
    const scores = formatSearch(result, 'greet')
      .text.split('\n')
      .flatMap((line) => /^\[\d+\] [^|]+\|[^|]+\| ([\d.]+) \|/.exec(line)?.slice(1) ?? []);
    assert.equal(scores.length, 4);
    assert.equal(scores[0], '1.00');
    assert.ok(
      scores.every((score) => Number(score) > 0 && Number(score) <= 1),
      scores.join(' '),
    );
  });

  test('FTS syntax errors are answered as plain words', async () => {
    const { store } = await storeWith([{ text: 'Fix title: column parsing (NEAR the end) - done' }]);
    for (const query of [
      'title:column',
      '(parsing',
      'parsing AND',
      '"column parsing',
      'parsing NEAR end',
      '-parsing',
      'parsing*)',
      'column^ parsing',
      'OR parsing OR',
    ])
      assert.equal(searchObservations(store, { query }).hits.length, 1, query);
    assert.deepEqual(searchObservations(store, { query: '*** () ""' }), {
      hits: [],
      more: false,
      noWords: true,
    });
    assert.deepEqual(parseQuery('a "b c" d* OR e AND').groups, [
      [{ words: ['a'], prefix: false }],
      [{ words: ['b', 'c'], prefix: false }],
      [
        { words: ['d'], prefix: true },
        { words: ['e'], prefix: false },
      ],
    ]);
  });
});

describe('timeline and get_observations', () => {
  test('bounds, defaults, clamping, chronological order and counts', async () => {
    const notes = Array.from({ length: 30 }, (_, i) => ({
      text: `step ${i}`,
      at: T0 + i * 1000,
      session: i % 2 ? 'odd' : 'even',
    }));
    const { store, ids } = await storeWith(notes);
    const steps = (result: ReturnType<typeof timeline>) => result.entries.map((entry) => entry.text);
    const around = timeline(store, { anchorId: ids[10].slice(0, 8) });
    assert.deepEqual(steps(around), [
      'step 5',
      'step 6',
      'step 7',
      'step 8',
      'step 9',
      'step 10',
      'step 11',
      'step 12',
      'step 13',
      'step 14',
      'step 15',
    ]);
    assert.deepEqual(around.entries.map((e) => e.anchor).indexOf(true), 5);
    assert.deepEqual(
      [around.totalBefore, around.totalAfter, around.shownBefore, around.shownAfter],
      [10, 19, 5, 5],
    );
    const clamped = timeline(store, { anchorAt: T0 + 10_000, before: 0, after: 99 });
    assert.deepEqual([clamped.before, clamped.after], [1, 20]);
    assert.deepEqual(steps(clamped), ['step 10', ...Array.from({ length: 19 }, (_, i) => `step ${i + 11}`)]);
    const latest = timeline(store, { now: T0 + 60_000, before: 50, after: 3 });
    assert.equal(latest.entries.length, 20);
    assert.equal(latest.entries[19].text, 'step 29');
    assert.equal(latest.totalAfter, 0);
    const odd = timeline(store, { anchorAt: T0 + 10_000, sessionId: 'odd', before: 2, after: 2 });
    assert.deepEqual(steps(odd), ['step 7', 'step 9', 'step 11', 'step 13']);
    const long = await storeWith([{ text: 'x'.repeat(500) }]);
    assert.equal(timeline(long.store, { now: T0 + 1e9 }).entries[0].text.length, 200);
    assert.throws(() => timeline(store, { anchorId: 'zzzzzzzz' }), /no observation has id/);
  });

  test('ids: any unique prefix, ambiguity and unknown ids explained, at most 10 per get', async () => {
    const { store, ids } = await storeWith(Array.from({ length: 12 }, (_, i) => ({ text: `note ${i}` })));
    assert.deepEqual(resolveId(store, ids[3].slice(0, 6).toUpperCase()), { ok: true, id: ids[3] });
    assert.match((resolveId(store, '') as { error: string }).error, /not an observation id/);
    const shared = await storeWith([{ text: 'a' }, { text: 'b' }]);
    // Force two ids that share a prefix.
    shared.store.run("UPDATE observations SET id = 'abcd' || substr(id, 5)");
    assert.match((resolveId(shared.store, 'abc') as { error: string }).error, /ambiguous/);
    const got = getObservations(store, [ids[0].slice(0, 8), ids[1], 'nope0000']);
    assert.deepEqual(
      got.observations.map((o) => o.text),
      ['note 0', 'note 1'],
    );
    assert.match(got.missing[0].error, /no observation has id nope0000/);
    assert.throws(() => getObservations(store, ids.slice(0, 11)), /at most 10 ids/);
  });
});

describe('token budget', () => {
  test('every agent-facing response stays within 2000 tokens with 10,000 long observations', async () => {
    const vocabulary =
      'parser snapshot ingest memory writer reader budget token search timeline anchor'.split(' ');
    const notes = Array.from({ length: 10_000 }, (_, i) => ({
      text:
        `${vocabulary[i % vocabulary.length]} ${vocabulary[(i * 7) % vocabulary.length]} `.repeat(150) +
        `item ${i}`,
      at: T0 + i * 1000,
    }));
    const { store, ids } = await storeWith(notes);
    const responses = [
      formatSearch(searchObservations(store, { query: 'parser', limit: 100 }), 'parser'),
      formatSearch(searchObservations(store, { query: '', limit: 100 }), ''),
      formatTimeline(timeline(store, { anchorId: ids[5000], before: 20, after: 20 })),
      formatObservations(getObservations(store, ids.slice(0, 10))),
    ];
    for (const response of responses) {
      // The whole tool result as it goes over the wire must fit.
      const wire = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: response.text }] },
      });
      assert.ok(estimateTokens(wire) <= TOKEN_BUDGET, `${estimateTokens(wire)} tokens`);
      assert.equal(response.tokens, estimateTokens(response.text));
      assert.ok(response.truncated);
      assert.match(response.text, /truncated to fit the budget; (narrow|ask for fewer)/);
    }
    const small = formatSearch(searchObservations(store, { query: '"item 42"' }), '"item 42"');
    assert.match(small.text, /-- 1 results, ~\d+ tokens, not truncated/);
  });
});
