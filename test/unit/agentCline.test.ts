/**
 * Cline, the sixth agent: its hook payloads, task folders, MCP settings and condense point, from fixtures
 * built from its source (test/fixtures/cline/README.md), through the real engine.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { AGENT_ADAPTERS, adapterOf, compactPoint } from '../../src/engine/agents';
import { clineAdapter, clineCompactAt } from '../../src/engine/agents/cline';
import { clineHookInstaller } from '../../src/engine/agents/cline/hookFiles';
import { clinePayloads } from '../../src/engine/agents/cline/payload';
import { MAX_TASK_FILE_BYTES, findClineTasks, readClineTask } from '../../src/engine/agents/cline/taskFiles';
import { configLocations } from '../../src/engine/agents/configLocations';
import { readPayload } from '../../src/engine/agents/payloads';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';
import type { SessionItem } from '../../src/engine/agents/adapter';
import type { EventPayload } from '../../src/engine/events/eventLine';
import { sessionFileOf, sessionGauge, sessionOfFile } from '../../src/engine/live/activeSession';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { importTranscripts } from '../../src/engine/transcripts/importTranscripts';
import { FIXTURES_DIR, allHookExamples, appendEvents, tempWorkspace } from '../support/events';

const FIXTURES = path.join(FIXTURES_DIR, 'cline');
/** The project folder the fixtures' tasks were begun in. */
const FIXTURE_ROOT = '/home/dev/todo-app';
const TASK_NATIVE = '1764320000000';
const TASK_XML = '1764310000000';

/** A fixture of hook payloads, one a line. */
function hookLines(name: string): EventPayload[] {
  return fs
    .readFileSync(path.join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EventPayload);
}
const HOOKS = hookLines('hooks.jsonl');

/** Each payload read as the recorder reads it, asserting it is Cline's and certainly so. */
function readEach(payloads: EventPayload[]) {
  return payloads.map((payload) => {
    assert.equal(clinePayloads.recognise(payload), 2, String(payload.hookName));
    const { agent, event } = readPayload(payload);
    assert.equal(agent, 'cline');
    return event;
  });
}

/** Only Cline's files for the import to find: the other agents' folders point nowhere. */
function onlyCline(ws: { home: string; project: string }): void {
  process.env.CLINE_STORAGE_DIRS = storageFor(ws.project);
  process.env.CLAUDE_CONFIG_DIR = path.join(ws.home, 'no-claude');
  process.env.CODEX_HOME = path.join(ws.home, 'no-codex');
  process.env.XDG_DATA_HOME = path.join(ws.home, 'no-data');
  process.env.VSCODE_USER_DATA_DIRS = path.join(ws.home, 'no-vscode');
}

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-cline-'));
  temps.push(dir);
  return dir;
}
after(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fixture storage copied, its tasks begun in `root` instead of the fixtures' folder. */
function storageFor(root: string): string {
  const storage = path.join(tempDir(), 'saoudrizwan.claude-dev');
  fs.cpSync(path.join(FIXTURES, 'storage'), storage, { recursive: true });
  const rootJson = JSON.stringify(root).slice(1, -1);
  for (const file of [
    path.join(storage, 'state', 'taskHistory.json'),
    ...[TASK_NATIVE, TASK_XML].map((id) => path.join(storage, 'tasks', id, 'api_conversation_history.json')),
  ])
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').split(FIXTURE_ROOT).join(rootJson));
  return storage;
}

function taskFile(storage: string, id: string): string {
  return path.join(storage, 'tasks', id, 'ui_messages.json');
}

function ofType<T extends SessionItem['type']>(items: SessionItem[], type: T) {
  return items.filter((item): item is Extract<SessionItem, { type: T }> => item.type === type);
}

describe('Cline in the adapter list', () => {
  test('one folder and one line: its adapter, its payload reader and its project trace', () => {
    assert.equal(adapterOf('cline'), clineAdapter);
    assert.equal(AGENT_ADAPTERS.filter((adapter) => adapter.id === 'cline').length, 1);
    assert.deepEqual(clineAdapter.traces.project, ['.clinerules']);
    assert.equal(clineAdapter.payloads, clinePayloads);
  });
});

describe('Cline hook payloads', () => {
  test('each hook of a task reads as Cline’s event, certain of it', () => {
    const events = readEach(HOOKS);
    assert.deepEqual(
      events.map((event) => [event?.name, event?.kind, event?.sessionId, event?.cwd]),
      [
        ['TaskStart', 'session-start', TASK_NATIVE, FIXTURE_ROOT],
        ['PostToolUse', 'tool-end', TASK_NATIVE, FIXTURE_ROOT],
        ['PostToolUse', 'tool-failed', TASK_NATIVE, FIXTURE_ROOT],
        ['PostToolUse', 'tool-failed', TASK_NATIVE, FIXTURE_ROOT],
        ['PostToolUse', 'tool-end', TASK_NATIVE, FIXTURE_ROOT],
        ['UserPromptSubmit', 'prompt', TASK_NATIVE, FIXTURE_ROOT],
        ['PreCompact', 'compact', TASK_NATIVE, FIXTURE_ROOT],
        ['TaskResume', 'session-start', TASK_NATIVE, FIXTURE_ROOT],
        ['TaskComplete', 'stop', TASK_NATIVE, FIXTURE_ROOT],
      ],
    );
    assert.deepEqual(
      events.map((event) => event?.source),
      ['startup', ...Array(6).fill(undefined), 'resume', undefined],
    );
    assert.equal(events[0]?.model, 'claude-sonnet-4-5-20250929');
    assert.equal(events[5]?.prompt, 'Also update the README');
  });

  test('failures as Cline means them: no `success` key, or a command that exited non-zero', () => {
    const [, read, edit, command, mcp] = HOOKS.map((payload) => readPayload(payload).event?.tool);
    assert.deepEqual(
      [read?.name, read?.kind, read?.input.path, read?.outcome?.failed],
      ['read_file', 'read', 'src/cli.ts', false],
    );
    // proto3 JSON leaves `success: false` out.
    assert.equal('success' in ((HOOKS[2].postToolUse ?? {}) as object), false);
    assert.deepEqual([edit?.kind, edit?.outcome?.failed], ['edit', true]);
    assert.deepEqual(edit?.input.edits, [
      { before: 'const verbose = false\n', after: "const verbose = process.argv.includes('--verbose')\n" },
    ]);
    // Cline 3.x: success true, and the result says the command failed.
    assert.deepEqual(
      [command?.kind, command?.input.command, command?.outcome?.failed, command?.outcome?.exitCode],
      ['shell', 'npm test', true, 1],
    );
    assert.equal(command?.outcome?.durationMs, 2210);
    assert.deepEqual(
      [mcp?.name, mcp?.kind, mcp?.server, mcp?.outcome?.failed],
      ['mcp__github__create_issue', 'mcp', 'github', false],
    );
    assert.equal(clineAdapter.tools?.mcpToolName('github', 'create_issue'), mcp?.name);
  });

  test('other agents’ payloads are not Cline’s, and Cline’s are no one else’s', () => {
    for (const { event, payload } of allHookExamples())
      assert.equal(clinePayloads.recognise(payload as EventPayload), 0, event);
    for (const adapter of AGENT_ADAPTERS.filter((candidate) => candidate.id !== 'cline'))
      for (const payload of HOOKS) assert.ok(adapter.payloads.recognise(payload) < 2, adapter.id);
  });

  test('a hook Cline does not have, or a payload of no shape, reads as nothing and never throws', () => {
    assert.equal(clinePayloads.normalise({ hookName: 'Elsewhere', taskId: 't' }), undefined);
    assert.equal(clinePayloads.normalise({ hookName: 'PostToolUse', taskId: 't' }), undefined);
    const hostile = { hookName: 'PostToolUse', taskId: 't', postToolUse: { toolName: 'x', parameters: 7 } };
    assert.equal(readPayload(hostile).event?.tool?.name, 'x');
  });
});

describe('Cline task folders', () => {
  test('the open project’s tasks are found by the folder each began in, oldest first', () => {
    const root = fs.realpathSync(tempDir());
    const storage = storageFor(root);
    assert.deepEqual(findClineTasks(root, { CLINE_STORAGE_DIRS: storage }), [
      taskFile(storage, TASK_XML),
      taskFile(storage, TASK_NATIVE),
    ]);
    assert.deepEqual(findClineTasks(path.join(root, 'elsewhere'), { CLINE_STORAGE_DIRS: storage }), []);
    // Without taskHistory.json (older versions kept it elsewhere): the folder the conversation names.
    fs.rmSync(path.join(storage, 'state'), { recursive: true });
    assert.deepEqual(findClineTasks(root, { CLINE_STORAGE_DIRS: storage }), [
      taskFile(storage, TASK_XML),
      taskFile(storage, TASK_NATIVE),
    ]);
  });

  test('the gauge follows the task the hooks named, not whichever task is newest', () => {
    const root = fs.realpathSync(tempDir());
    const storage = storageFor(root);
    const saved = process.env.CLINE_STORAGE_DIRS;
    process.env.CLINE_STORAGE_DIRS = storage;
    try {
      // TASK_NATIVE is the newer task; the hooks reported TASK_XML.
      assert.equal(sessionFileOf('cline', root, TASK_XML), taskFile(storage, TASK_XML));
      assert.equal(sessionFileOf('cline', root, TASK_NATIVE), taskFile(storage, TASK_NATIVE));
      // An id that is no task's (or names another folder) falls back to the newest, never outside tasks/.
      assert.equal(sessionFileOf('cline', root, '../../state'), taskFile(storage, TASK_NATIVE));
    } finally {
      if (saved === undefined) delete process.env.CLINE_STORAGE_DIRS;
      else process.env.CLINE_STORAGE_DIRS = saved;
    }
  });

  test('a task with native tool calls: its prompts, tool calls, failures, MCP server, usage and report', async () => {
    const storage = storageFor(FIXTURE_ROOT);
    const { items, skipped } = await readClineTask(taskFile(storage, TASK_NATIVE));
    assert.equal(skipped, 0);
    const [session] = ofType(items, 'session');
    assert.deepEqual(
      [session.sessionId, session.cwd, session.model],
      [TASK_NATIVE, FIXTURE_ROOT, 'claude-sonnet-4-5-20250929'],
    );
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['Add a --verbose flag to the CLI and run the tests', 'Also update the README'],
    );
    const tools = ofType(items, 'tool').map(({ call }) => [
      call.name,
      call.kind,
      call.server,
      call.outcome?.failed,
    ]);
    assert.deepEqual(tools, [
      ['read_file', 'read', undefined, false],
      ['replace_in_file', 'edit', undefined, false],
      ['execute_command', 'shell', undefined, true],
      // `cA1b2C0mcp0create_issue`: the server named where Cline asked to use it.
      ['mcp__github__create_issue', 'mcp', 'github', false],
      ['attempt_completion', 'other', undefined, false],
    ]);
    // Cline's bar: the last request whose tokens add up to more than zero (the cancelled one after it has none).
    assert.deepEqual(
      ofType(items, 'usage').map((usage) => usage.contextTokens),
      [14_453, 16_623, 17_363, 18_808, 23_430],
    );
    assert.deepEqual(
      ofType(items, 'report').map((report) => report.text),
      ['Added --verbose to src/cli.ts; one test still fails, filed as issue #42.'],
    );
  });

  test('a task with XML tool calls, a denied write and a condense', async () => {
    const storage = storageFor(FIXTURE_ROOT);
    const { items } = await readClineTask(taskFile(storage, TASK_XML));
    const tools = ofType(items, 'tool').map(({ call }) => [
      call.name,
      call.kind,
      call.server,
      call.outcome?.failed,
      call.outcome?.notRun,
    ]);
    assert.deepEqual(tools, [
      ['search_files', 'search', undefined, false, undefined],
      ['write_to_file', 'write', undefined, false, 'declined'],
      ['summarize_task', 'other', undefined, false, undefined],
      ['mcp__filesystem__read_text_file', 'mcp', 'filesystem', false, undefined],
      ['attempt_completion', 'other', undefined, undefined, undefined],
    ]);
    assert.deepEqual(ofType(items, 'tool')[1].call.input, {
      path: 'TODO.md',
      content: '- src/cli.ts: parse flags\n- src/db.ts: close the pool',
    });
    // One condense: its summary kept, the deleted range it moved not counted again.
    assert.deepEqual(
      ofType(items, 'compact').map((compact) => compact.trigger),
      ['auto'],
    );
    assert.match(ofType(items, 'compact-summary')[0].text, /TODOs of src/);
    // The window from Cline's cached OpenRouter model list.
    assert.deepEqual(
      ofType(items, 'usage').map((usage) => [usage.contextTokens, usage.contextWindow]),
      [
        [12_000, 262_144],
        [12_860, 262_144],
        [13_240, 262_144],
        [4_380, 262_144],
        [4_710, 262_144],
      ],
    );
  });

  test('a task folder imports with its counts, and importing again counts nothing twice', async () => {
    const ws = tempWorkspace('cd-cline-import-');
    const saved = { ...process.env };
    try {
      onlyCline(ws);
      const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project });
      try {
        const first = await importTranscripts(engine);
        assert.deepEqual(first.problems, []);
        // The write the user denied never ran: no use of the tool, and no failure.
        assert.deepEqual(
          [first.files, first.sessions, first.prompts, first.toolCalls, first.failures],
          [2, 2, 3, 9, 1],
        );
        const again = await importTranscripts(engine, { force: true });
        assert.deepEqual([again.sessions, again.prompts, again.toolCalls], [0, 0, 0]);
        const counts = engine.counts();
        assert.deepEqual(
          [counts.sessions, counts.prompts, counts.toolCalls, counts.toolFailures],
          [2, 3, 9, 1],
        );
      } finally {
        await engine.close();
      }
    } finally {
      process.env = saved;
      ws.cleanup();
    }
  });

  test('the gauge on ui_messages.json: Cline’s tokens and window, forecast to its condense point', async () => {
    const storage = storageFor(FIXTURE_ROOT);
    const active = sessionOfFile(taskFile(storage, TASK_NATIVE));
    assert.equal(active.agent, 'cline');
    const gauge = sessionGauge(active);
    assert.ok(gauge);
    await gauge.refresh();
    const reading = gauge.reading();
    // Cline's bar: 23,430 / 200K tokens used (12%); it condenses at 160,000.
    assert.deepEqual(
      [reading.tokens, reading.window, reading.breakdown.autocompactAt],
      [23_430, 200_000, 160_000],
    );
    assert.equal(Math.round(reading.percent), 12);
    assert.equal(reading.forecast.event, 'compact');
    const xml = sessionGauge(sessionOfFile(taskFile(storage, TASK_XML)));
    assert.ok(xml);
    await xml.refresh();
    assert.deepEqual(
      [xml.reading().tokens, xml.reading().window, xml.reading().breakdown.autocompactAt],
      [4_710, 262_144, 222_144],
    );
  });
});

describe('Cline condense point', () => {
  test('window − 27k for 64k, − 30k for 128k, 160,000 for 200k, else max(window − 40k, 0.8 × window)', () => {
    assert.deepEqual(
      [64_000, 128_000, 200_000, 1_000_000, 262_144, 100_000, 32_768].map(clineCompactAt),
      [37_000, 98_000, 160_000, 960_000, 222_144, 80_000, 26_214.4],
    );
    assert.equal(compactPoint(clineAdapter, 200_000), 160_000);
  });
});

describe('Cline MCP settings', () => {
  test('its servers, disabled as its settings say, credentials never shown', () => {
    const storage = storageFor(FIXTURE_ROOT);
    const env = { CLINE_STORAGE_DIRS: storage };
    const { servers, problems } = clineAdapter.tools!.servers(FIXTURE_ROOT, os.homedir(), env);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((server) => [server.name, server.scope, server.disabled, server.description]),
      [
        ['github', 'global', false, 'stdio: npx -y @modelcontextprotocol/server-github'],
        [
          'filesystem',
          'global',
          true,
          `stdio: npx -y @modelcontextprotocol/server-filesystem ${FIXTURE_ROOT}`,
        ],
        ['docs', 'global', false, 'http: https://mcp.example.com/mcp'],
      ],
    );
  });

  test('switching a server off writes "disabled": true, and on again gives back the file as it was', () => {
    const storage = storageFor(FIXTURE_ROOT);
    const file = path.join(storage, 'settings', 'cline_mcp_settings.json');
    const original = fs.readFileSync(file, 'utf8');
    const saved = process.env.CLINE_STORAGE_DIRS;
    process.env.CLINE_STORAGE_DIRS = storage;
    try {
      const locations = configLocations({ projectRoot: FIXTURE_ROOT });
      const off = clineAdapter.tools!.switchServer!(locations, 'github', false);
      assert.ok(off?.supported);
      assert.equal(off.file, file);
      assert.deepEqual(off.changes, ['set "disabled": true on "github" in Cline\'s MCP settings']);
      assert.match(off.notes.join(' '), /all your projects/);
      fs.writeFileSync(file, off.after);
      assert.equal(
        (JSON.parse(off.after) as { mcpServers: Record<string, { disabled?: boolean }> }).mcpServers.github
          .disabled,
        true,
      );
      assert.deepEqual(
        clineAdapter
          .tools!.servers(FIXTURE_ROOT, os.homedir(), { CLINE_STORAGE_DIRS: storage })
          .servers.map((server) => server.disabled),
        [true, true, false],
      );
      const on = clineAdapter.tools!.switchServer!(locations, 'github', true);
      assert.ok(on?.supported);
      assert.equal(on.after, original, 'on again: the file as it was');
      assert.equal(clineAdapter.tools!.switchServer!(locations, 'nowhere', false), undefined);
    } finally {
      if (saved === undefined) delete process.env.CLINE_STORAGE_DIRS;
      else process.env.CLINE_STORAGE_DIRS = saved;
    }
  });
});

describe('Cline files as hostile input', () => {
  test('a 1 GB ui_messages.json is reported as too big, not read', async () => {
    const storage = storageFor(FIXTURE_ROOT);
    const file = taskFile(storage, TASK_NATIVE);
    // Sparse: the file says 1 GB without taking the disk.
    fs.truncateSync(file, 1024 * 1024 * 1024);
    assert.ok(MAX_TASK_FILE_BYTES < 1024 * 1024 * 1024);
    await assert.rejects(readClineTask(file), /ui_messages\.json is 1024 MiB, more than the 64 MiB/);
  });

  test('links in the tasks folder are never followed: a loop, a task folder and a file that point elsewhere', async () => {
    const root = fs.realpathSync(tempDir());
    const storage = storageFor(root);
    const tasks = path.join(storage, 'tasks');
    fs.symlinkSync(tasks, path.join(tasks, 'loop'));
    const outside = path.join(tempDir(), 'outside');
    fs.cpSync(path.join(tasks, TASK_NATIVE), outside, { recursive: true });
    fs.rmSync(path.join(tasks, TASK_NATIVE), { recursive: true });
    fs.symlinkSync(outside, path.join(tasks, TASK_NATIVE));
    fs.rmSync(path.join(tasks, TASK_XML, 'ui_messages.json'));
    fs.symlinkSync('/dev/zero', path.join(tasks, TASK_XML, 'ui_messages.json'));
    assert.deepEqual(findClineTasks(root, { CLINE_STORAGE_DIRS: storage }), []);
    fs.rmSync(path.join(storage, 'state'), { recursive: true });
    assert.deepEqual(findClineTasks(root, { CLINE_STORAGE_DIRS: storage }), []);
    await assert.rejects(readClineTask(path.join(tasks, TASK_XML, 'ui_messages.json')), /symbolic link/);
  });

  test('a task id that is a path never names a folder', () => {
    const root = fs.realpathSync(tempDir());
    const storage = storageFor(root);
    const history = path.join(storage, 'state', 'taskHistory.json');
    fs.writeFileSync(history, JSON.stringify([{ id: '../../..', ts: 1, cwdOnTaskInitialization: root }]));
    assert.deepEqual(findClineTasks(root, { CLINE_STORAGE_DIRS: storage }), []);
  });
});

describe('Cline hook files on Windows', () => {
  test('a PowerShell file per hook, running the node recorder as Cline, its context handed on as contextModification', () => {
    const hooks = clineHookInstaller('win32');
    const file = hooks.settingsPath('user', 'C:\\work\\app', 'C:\\Users\\ana');
    assert.match(file, /TaskStart\.ps1$/);
    const plan = hooks.planConnect(file, undefined, PORTABLE_RECORDER_COMMAND);
    const parts = [plan, ...(plan.more ?? [])];
    assert.deepEqual(parts.map((part) => path.basename(part.file)).sort(), [
      'PostToolUse.ps1',
      'PreCompact.ps1',
      'TaskCancel.ps1',
      'TaskComplete.ps1',
      'TaskResume.ps1',
      'TaskStart.ps1',
      'UserPromptSubmit.ps1',
    ]);
    const start = parts.find((part) => part.file.endsWith('TaskStart.ps1'))!.after!;
    assert.match(start, /\$env:CONTEXT_DECK_HOME/);
    assert.match(start, /'--agent', 'cline'/);
    assert.match(start, /contextModification = \$j\.hookSpecificOutput\.additionalContext/);
    assert.doesNotMatch(
      parts.find((part) => part.file.endsWith('PostToolUse.ps1'))!.after!,
      /contextModification/,
    );
    assert.ok(hooks.isConnected(file, start) === false, 'the other files are not written yet');
    assert.deepEqual(hooks.planDisconnect(file, undefined).changes, []);
  });
});

describe('Cline 4.x (on its SDK)', () => {
  test('its extension’s and its CLI’s hooks read as Cline’s events, renamed tools as their kinds', () => {
    const events = readEach(hookLines('hooks-4x.jsonl'));
    assert.deepEqual(
      events.map((event) => [event?.kind, event?.tool?.name, event?.tool?.kind]),
      [
        ['session-start', undefined, undefined],
        ['prompt', undefined, undefined],
        ['tool-end', 'read_files', 'read'],
        ['tool-failed', 'editor', 'edit'],
        ['tool-end', 'run_commands', 'shell'],
        ['stop', undefined, undefined],
        ['session-start', undefined, undefined],
        ['prompt', undefined, undefined],
        ['tool-failed', 'run_commands', 'shell'],
        ['tool-end', 'mcp__github__create_issue', 'mcp'],
        ['stop', undefined, undefined],
      ],
    );
    const [, , read, edit, command, , , prompt, sdkCommand, mcp] = events;
    // The extension passes its hooks no model: "unknown" is no model.
    assert.equal(events[0]?.model, undefined);
    assert.equal(read?.tool?.input.path, '/home/dev/todo-app/src/list.ts');
    assert.deepEqual(edit?.tool?.input.edits, [
      { before: 'items.sort(byDate)', after: 'items.sort(byDoneThenDate)' },
    ]);
    assert.equal(command?.tool?.input.command, 'npm test');
    assert.equal(prompt?.prompt, 'Run the tests and file an issue for any failure');
    // The CLI's hooks carry the call's id, and a command that exited 1 is a failure though the call succeeded.
    assert.deepEqual(
      [sdkCommand?.tool?.useId, sdkCommand?.tool?.outcome?.exitCode, sdkCommand?.tool?.outcome?.durationMs],
      ['toolu_01SDKa', 1, 2900],
    );
    assert.deepEqual([mcp?.tool?.server, mcp?.tool?.useId], ['github', 'toolu_01SDKb']);
  });
});

describe('Cline tool calls seen by both the hooks and an import', () => {
  /** The fixture task's hooks as the recorder logs them: stamped with when each ran, in `root`. */
  function recorded(root: string): EventPayload[] {
    return HOOKS.map((payload) => ({
      ...payload,
      workspaceRoots: [root],
      _cd: { ts: new Date(Number(payload.timestamp)).toISOString(), agent: 'cline', v: 'test' },
    }));
  }

  for (const order of ['hooks then import', 'import then hooks'])
    test(`${order}: each call counts once`, async () => {
      const ws = tempWorkspace('cd-cline-both-');
      const saved = { ...process.env };
      try {
        onlyCline(ws);
        const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project });
        try {
          const hooks = async () => {
            appendEvents(ws.home, recorded(ws.project));
            await engine.ingest();
          };
          if (order === 'hooks then import') await hooks();
          await importTranscripts(engine);
          if (order === 'import then hooks') await hooks();
          await importTranscripts(engine, { force: true });
          const counts = engine.counts();
          // The import alone counts 9 calls in the two tasks (and a denied write); the hooks' 4 are among them.
          assert.deepEqual([counts.sessions, counts.toolCalls], [2, 9]);
          // The hooks' word on how a call went: the edit and the command that exited 1 failed.
          assert.equal(counts.toolFailures, 2);
        } finally {
          await engine.close();
        }
      } finally {
        process.env = saved;
        ws.cleanup();
      }
    });
});
