import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import type { SessionItem } from '../../src/engine/agents/adapter';
import {
  ForeignPluginError,
  PLUGIN_FILE_NAME,
  findSessionFiles,
  isContextDeckPlugin,
  mcpServerOf,
  mcpToolName,
  opencodeAdapter,
  opencodeAgentType,
  opencodeConfigDir,
  opencodePluginPath,
  pluginSource,
  readOpencodeStore,
  toolCall,
} from '../../src/engine/agents/opencode';
import {
  PORTABLE_RECORDER_COMMAND,
  recorderCommand,
  recorderFromCommand,
} from '../../src/engine/agents/recorderCommand';
import { findNodeOnPath } from '../../src/engine/agents/recorderInstall';
import { SqliteFile, SqliteFileError } from '../../src/engine/kernel/sqliteFile';
import { gaugeOfItems } from '../../src/engine/live/sessionFileGauge';
import { FIXTURES_DIR, allHookExamples, tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { walDatabase } from '../support/walDatabase';

const OPENCODE_FIXTURES = path.join(FIXTURES_DIR, 'opencode');
const DUMP = fs.readFileSync(path.join(OPENCODE_FIXTURES, 'opencode-1.18.33.lazyagents.excerpt.sql'), 'utf8');
const SESSION = 'ses_f0de500f8ffeXvsiYJDOg5JtrU';
const CHILD = 'ses_0f21b0610001SynthChildSess';

type Json = Record<string, unknown>;
interface PluginCall {
  hook: 'event' | 'chat.message';
  input: unknown;
  output?: unknown;
}
type Hooks = Record<string, (input: unknown, output?: unknown) => Promise<void>>;

const CALLS = JSON.parse(
  fs.readFileSync(path.join(OPENCODE_FIXTURES, 'plugin-calls.json'), 'utf8'),
) as PluginCall[];
const PAYLOADS = fs
  .readFileSync(path.join(OPENCODE_FIXTURES, 'plugin-payloads.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Json);

const shipped = useShippedBundle();
const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-opencode-'));
  temps.push(dir);
  return dir;
}
after(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A stand-in recorder: saves its stdin as one file per run under `<--home>/out/`. */
function writeRecorder(dir: string): string {
  const file = path.join(dir, 'hook.js');
  fs.writeFileSync(
    file,
    `const fs = require('fs'), path = require('path');
let data = '';
process.stdin.on('data', (chunk) => (data += chunk));
process.stdin.on('end', () => {
  const home = process.argv.includes('--home') ? process.argv[process.argv.indexOf('--home') + 1] : process.env.CONTEXT_DECK_HOME;
  const out = path.join(home, 'out');
  fs.mkdirSync(out, { recursive: true });
  const base = path.join(out, process.pid + '-' + process.hrtime.bigint());
  fs.writeFileSync(base + '.tmp', data);
  fs.renameSync(base + '.tmp', base + '.json');
});
`,
  );
  return file;
}

async function loadPlugin(source: string, dir: string): Promise<(input: unknown) => Promise<Hooks>> {
  // `.mjs` so Node treats the file as the ES module it is (opencode's Bun detects that from the syntax).
  const file = path.join(dir, `plugin-${crypto.randomUUID()}.mjs`);
  fs.writeFileSync(file, source);
  const module = (await import(file)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(module), ['default'], 'one default-exported function, nothing else');
  assert.equal(typeof module.default, 'function');
  return module.default as (input: unknown) => Promise<Hooks>;
}

/** The plugin as opencode starts it for a project in `directory` (PluginInput: directory, worktree, ...). */
async function startPlugin(source: string, dir: string, directory = '/work/proj'): Promise<Hooks> {
  const plugin = await loadPlugin(source, dir);
  return plugin({ directory, worktree: directory, project: {}, client: {}, $: {} });
}

async function waitForPayloads(home: string, count: number, timeoutMs = 10_000): Promise<Json[]> {
  const out = path.join(home, 'out');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(out) ? fs.readdirSync(out).filter((name) => name.endsWith('.json')) : [];
    if (files.length >= count || Date.now() > deadline) {
      return files.map((name) => JSON.parse(fs.readFileSync(path.join(out, name), 'utf8')) as Json);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits (at most 10 s) until the recorders the plugin started without waiting have logged `count` events into
 * `home`: removed while one still writes, the folder is not empty by the time it is deleted.
 */
async function waitForLoggedEvents(home: string, count: number): Promise<void> {
  const dir = path.join(home, 'events');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const logged = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .reduce(
            (sum, name) =>
              sum + fs.readFileSync(path.join(dir, name), 'utf8').split('\n').filter(Boolean).length,
            0,
          )
      : 0;
    if (logged >= count || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const canonical = (value: unknown) => JSON.stringify(value);

describe('opencode plugin', () => {
  test('the plugin is valid JS, spawns the recorder per event and sends exactly the fixture payloads', async () => {
    const dir = tempDir();
    const hook = writeRecorder(dir);
    const source = pluginSource({ node: process.execPath, hook, home: dir });
    assert.ok(isContextDeckPlugin(source));
    const hooks = await startPlugin(source, dir);
    assert.deepEqual(Object.keys(hooks).sort(), [
      'chat.message',
      'event',
      'experimental.chat.system.transform',
    ]);
    for (const call of CALLS) await hooks[call.hook](call.input, call.output);
    const sent = await waitForPayloads(dir, PAYLOADS.length);
    assert.deepEqual(sent.map(canonical).sort(), PAYLOADS.map(canonical).sort());
    // Nothing more arrives: pending, running and repeated tool parts, step parts and file.edited send nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await waitForPayloads(dir, 0)).length, PAYLOADS.length);
  });

  test('session.status idle is a stop, once per busy spell, whether or not session.idle follows it', async () => {
    // EventSessionStatus (packages/sdk/js/src/v2/gen/types.gen.ts): `status` is {type: "busy"}, {type:
    // "retry", ...} or {type: "idle"}; opencode publishes the deprecated session.idle beside the idle status.
    const dir = tempDir();
    const hook = writeRecorder(dir);
    const hooks = await startPlugin(pluginSource({ node: process.execPath, hook, home: dir }), dir);
    const status = (type: string) => ({
      event: { type: 'session.status', properties: { sessionID: SESSION, status: { type } } },
    });
    for (const input of [
      status('busy'),
      status('idle'),
      { event: { type: 'session.idle', properties: { sessionID: SESSION } } },
      status('idle'),
      status('busy'),
      status('retry'),
      status('idle'),
    ])
      await hooks.event(input);
    const sent = await waitForPayloads(dir, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await waitForPayloads(dir, 0)).length, 2);
    assert.deepEqual(
      sent.map((payload) => [payload.hook_event_name, payload.session_id]),
      [
        ['Stop', SESSION],
        ['Stop', SESSION],
      ],
    );
    assert.deepEqual(
      sent.map((payload) => opencodeAdapter.payloads.normalise(payload)?.kind),
      ['stop', 'stop'],
    );
  });

  test("the agent's words reach the memory: its last text with the stop, its summary with the compaction", async () => {
    // MessageV2 (packages/opencode/src/session/message-v2.ts): an assistant message's `summary: true` marks
    // the compaction's summary; its text arrives as `text` parts (streamed: the latest update is whole).
    const dir = tempDir();
    const hook = writeRecorder(dir);
    const hooks = await startPlugin(pluginSource({ node: process.execPath, hook, home: dir }), dir);
    const message = (id: string, role: string, summary = false) => ({
      event: { type: 'message.updated', properties: { info: { id, sessionID: SESSION, role, summary } } },
    });
    const text = (messageID: string, value: string, synthetic = false) => ({
      event: {
        type: 'message.part.updated',
        properties: {
          part: { id: `${messageID}-t`, type: 'text', sessionID: SESSION, messageID, text: value, synthetic },
        },
      },
    });
    for (const input of [
      message('msg_user', 'user'),
      text('msg_user', 'Add the retry policy'),
      message('msg_a1', 'assistant'),
      text('msg_a1', 'Adding'),
      text('msg_a1', 'Added the retry policy; the tests pass.'),
      text('msg_a1', '<system-reminder>not the agent</system-reminder>', true),
      { event: { type: 'session.status', properties: { sessionID: SESSION, status: { type: 'idle' } } } },
      message('msg_sum', 'assistant', true),
      text('msg_sum', 'Pending Tasks: document the policy'),
      { event: { type: 'session.compacted', properties: { sessionID: SESSION } } },
    ])
      await hooks.event(input);
    const sent = await waitForPayloads(dir, 2);
    const events = sent.map((payload) => opencodeAdapter.payloads.normalise(payload));
    assert.deepEqual(
      events.map((event) => [event?.kind, event?.message ?? event?.summary]),
      [
        ['stop', 'Added the retry policy; the tests pass.'],
        ['compacted', 'Pending Tasks: document the policy'],
      ],
    );
  });

  test('the session context reaches opencode: the shipped recorder’s output, added to the system lines', async () => {
    // packages/plugin/src/index.ts `Hooks["experimental.chat.system.transform"]`: (input: { sessionID?:
    // string; model: Model }, output: { system: string[] }), called before each model call.
    const ws = tempWorkspace('cd-opencode-context-');
    try {
      const context = '# Context Deck\n\n## Recent Changes\n- Modified src/a.ts (2 hours ago)\n';
      const contextFile = path.join(
        ws.home,
        'projects',
        identifyProject(ws.project).id,
        'session-context.md',
      );
      fs.mkdirSync(path.dirname(contextFile), { recursive: true });
      fs.writeFileSync(contextFile, context);
      const source = pluginSource({ node: process.execPath, hook: shipped('hook'), home: ws.home });
      const hooks = await startPlugin(source, tempDir(), ws.project);
      const created = (id: string, parentID?: string) => ({
        event: {
          type: 'session.created',
          properties: { info: { id, directory: ws.project, ...(parentID ? { parentID } : {}) } },
        },
      });
      const transform = async (sessionID: string | undefined) => {
        const output = { system: ['You are opencode.'] };
        await hooks['experimental.chat.system.transform']({ sessionID, model: { id: 'gpt-5' } }, output);
        return output.system;
      };
      await hooks.event(created(SESSION));
      await hooks.event(created(CHILD, SESSION));
      assert.deepEqual(await transform(SESSION), ['You are opencode.', context]);
      assert.deepEqual(await transform(SESSION), ['You are opencode.', context], 'every model call has it');
      assert.deepEqual(await transform(CHILD), ['You are opencode.'], 'a subagent starts from its task');
      assert.deepEqual(await transform(undefined), ['You are opencode.']);
    } finally {
      // The two sessions' recorders were started and not waited for.
      await waitForLoggedEvents(ws.home, 2);
      ws.cleanup();
    }
  });

  test('a call the user rejected, or a rule of theirs denied, never ran; an aborted one did', () => {
    const failed = PAYLOADS[4] as { properties: { part: { state: Record<string, unknown> } } };
    const withError = (error: string) => {
      const payload = structuredClone(failed);
      payload.properties.part.state = { ...payload.properties.part.state, error, metadata: {} };
      return opencodeAdapter.payloads.normalise(payload as never)?.tool?.outcome?.notRun;
    };
    assert.equal(withError('The user rejected permission to use this specific tool call.'), 'declined');
    assert.equal(
      withError(
        'The user rejected permission to use this specific tool call with the following feedback: use rg instead',
      ),
      'declined',
    );
    assert.equal(
      withError(
        'The user has specified a rule which prevents you from using this specific tool call. Relevant rules: ["rm *"]',
      ),
      'declined',
    );
    assert.equal(withError('Tool execution aborted'), undefined);
  });

  test('what the plugin recorded normalises to the right events', () => {
    const events = PAYLOADS.map((payload) => opencodeAdapter.payloads.normalise(payload));
    assert.deepEqual(
      events.map((event) => event?.kind),
      [
        'session-start',
        'prompt',
        'tool-end',
        'stop',
        'tool-failed',
        'compact',
        'tool-end',
        'session-start',
        'tool-end',
        'subagent-stop',
        'other',
        'session-end',
      ],
    );
    const [start, prompt, bash, , edit, compact, task, childStart, grep, childStop, , end] = events;
    assert.deepEqual(start, {
      agent: 'opencode',
      kind: 'session-start',
      name: 'session.created',
      sessionId: SESSION,
      cwd: '/work/proj',
      model: undefined,
      agentType: undefined,
      source: 'startup',
    });
    assert.equal(prompt?.prompt, '"run echo fixture please"');
    assert.equal(prompt?.agentType, 'build');
    assert.equal(prompt?.model, 'fake-model');
    assert.deepEqual(bash?.tool, {
      name: 'bash',
      kind: 'shell',
      useId: 'call_1',
      input: { command: 'echo fixture' },
      outcome: { failed: false, output: 'fixture\n', exitCode: 0, durationMs: 55 },
    });
    assert.deepEqual(edit?.tool?.input, {
      path: '/work/proj/README.md',
      edits: [{ before: 'fixture', after: 'fixtures' }],
    });
    assert.equal(edit?.tool?.outcome?.failed, true);
    assert.equal(edit?.tool?.outcome?.interrupted, true);
    assert.equal(edit?.tool?.outcome?.error, 'Tool execution aborted');
    assert.equal(compact?.trigger, 'auto');
    assert.deepEqual(task?.tool?.input, { prompt: 'Where are the tests?', subagentType: 'explore' });
    assert.equal(task?.tool?.kind, 'subagent');
    assert.equal(childStart?.sessionId, CHILD);
    assert.deepEqual(grep?.tool?.input, { query: 'describe\\(', path: '/work/proj/test' });
    assert.equal(grep?.tool?.kind, 'search');
    assert.equal(grep?.agentType, 'explore');
    assert.equal(childStop?.agentType, 'explore');
    assert.equal(end?.endReason, 'deleted');
  });

  test('the team plugin names no path of this machine and finds the recorder at run time', async (t) => {
    if (!findNodeOnPath()) return t.skip('no node on PATH');
    const source = pluginSource();
    assert.ok(!source.includes(os.homedir()));
    assert.ok(!source.includes(process.execPath));
    assert.match(source, /const RECORDER = undefined;/);
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'bin'));
    writeRecorder(path.join(dir, 'bin'));
    const saved = process.env.CONTEXT_DECK_HOME;
    process.env.CONTEXT_DECK_HOME = dir;
    try {
      const hooks = await (await loadPlugin(source, tempDir()))({ directory: '/work/proj' });
      await hooks.event({ event: { type: 'session.idle', properties: { sessionID: SESSION } } });
      const [payload] = await waitForPayloads(dir, 1);
      assert.equal(payload?.hook_event_name, 'Stop');
    } finally {
      if (saved === undefined) delete process.env.CONTEXT_DECK_HOME;
      else process.env.CONTEXT_DECK_HOME = saved;
    }
  });

  test('the plugin never throws into opencode, whatever it is given or whatever fails', async () => {
    const dir = tempDir();
    const missing = pluginSource({ node: path.join(dir, 'no-such-node'), hook: path.join(dir, 'hook.js') });
    const hooks = await (await loadPlugin(missing, dir))(undefined);
    const failures: unknown[] = [];
    const onError = (error: unknown) => failures.push(error);
    process.on('uncaughtException', onError);
    try {
      await hooks.event(undefined);
      await hooks.event({ event: null });
      await hooks.event({ event: { type: 'message.part.updated', properties: { part: null } } });
      await hooks.event({ event: { type: 'session.deleted', properties: {} } });
      await hooks['chat.message'](undefined, undefined);
      await hooks['chat.message']({ sessionID: 's' }, { parts: [{ type: 'text', text: 'hi' }] });
      await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 's' } } });
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off('uncaughtException', onError);
    }
    assert.deepEqual(failures, []);
  });
});

describe('opencode payloads', () => {
  test('what the plugin sent from a real opencode 1.18.33 run normalises to its session', () => {
    const real = fs
      .readFileSync(path.join(OPENCODE_FIXTURES, 'opencode-1.18.33.run.plugin-payloads.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Json);
    const events = real.map((payload) => opencodeAdapter.payloads.normalise(payload));
    assert.deepEqual(
      events.map((event) => [event?.kind, event?.sessionId, event?.cwd]),
      [
        ['session-start', 'ses_df7c3071bffelIBVjegbGGjumI', '/tmp/ocreal/proj'],
        ['prompt', 'ses_df7c3071bffelIBVjegbGGjumI', '/tmp/ocreal/proj'],
        ['tool-end', 'ses_df7c3071bffelIBVjegbGGjumI', '/tmp/ocreal/proj'],
        ['stop', 'ses_df7c3071bffelIBVjegbGGjumI', '/tmp/ocreal/proj'],
      ],
    );
    assert.equal(events[1]?.prompt, '"run echo fixture please"');
    assert.equal(events[1]?.agentType, 'build');
    assert.deepEqual(events[2]?.tool, {
      name: 'bash',
      kind: 'shell',
      useId: 'call_17',
      input: { command: 'echo fixture' },
      outcome: { failed: false, output: 'fixture\n', exitCode: 0, durationMs: 211 },
    });
  });

  test('a real run with a subagent: its session, prompt, tool call and end belong to the subagent', () => {
    const real = fs
      .readFileSync(path.join(OPENCODE_FIXTURES, 'opencode-1.18.33.run-task.plugin-payloads.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Json);
    const main = 'ses_df7c1dc32ffefHx7aVtHqO26q2';
    const child = 'ses_df7c1ccf2ffe9bJHpg3Qoh704g';
    const events = real.map((payload) => opencodeAdapter.payloads.normalise(payload));
    assert.deepEqual(
      events.map((event) => [event?.kind, event?.sessionId, event?.agentType, event?.tool?.name]),
      [
        ['session-start', main, undefined, undefined],
        ['prompt', main, 'build', undefined],
        ['session-start', child, 'general', undefined],
        ['prompt', child, 'general', undefined],
        ['tool-end', child, 'general', 'bash'],
        ['subagent-stop', child, 'general', undefined],
        ['tool-end', main, 'build', 'task'],
        ['stop', main, 'build', undefined],
      ],
    );
    assert.deepEqual(events[6]?.tool?.input, { prompt: 'Where are the tests?', subagentType: 'general' });
  });

  test('a real bash call that completed with exit 1 is a failed call, its exit code kept', () => {
    const real = fs
      .readFileSync(
        path.join(OPENCODE_FIXTURES, 'opencode-1.18.33.check-fails.plugin-payloads.jsonl'),
        'utf8',
      )
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Json);
    const calls = real
      .map((payload) => opencodeAdapter.payloads.normalise(payload))
      .filter((event) => event?.tool !== undefined);
    assert.deepEqual(
      calls.map((event) => [event?.kind, event?.tool?.name, event?.tool?.outcome?.exitCode]),
      [
        ['tool-end', 'bash', 0],
        ['tool-end', 'write', undefined],
        ['tool-failed', 'bash', 1],
        ['tool-end', 'write', undefined],
        ['tool-end', 'bash', 0],
      ],
    );
    assert.equal(calls[2]?.tool?.outcome?.failed, true);
  });

  test('our payloads are recognised for certain, Claude Code payloads not at all', () => {
    for (const payload of PAYLOADS) assert.equal(opencodeAdapter.payloads.recognise(payload), 2);
    for (const { event, payload } of allHookExamples()) {
      assert.equal(opencodeAdapter.payloads.recognise(payload), 0, event);
      assert.equal(opencodeAdapter.payloads.normalise(payload), undefined, event);
    }
    assert.equal(opencodeAdapter.payloads.recognise({ _cd: { agent: 'opencode' } }), 2);
  });

  test('events the adapter does not record normalise to nothing', () => {
    const running = {
      opencode_event: 'message.part.updated',
      hook_event_name: 'PostToolUse',
      properties: { part: { type: 'tool', tool: 'bash', state: { status: 'running', input: {} } } },
    };
    assert.equal(opencodeAdapter.payloads.normalise(running), undefined);
    assert.equal(opencodeAdapter.payloads.normalise({ opencode_event: 'file.edited' }), undefined);
  });
});

describe('opencode tools', () => {
  test('built-in tools map to kinds and their argument fields', () => {
    assert.deepEqual(toolCall('write', { filePath: '/p/a.ts', content: 'x' }).input, {
      path: '/p/a.ts',
      content: 'x',
    });
    assert.deepEqual(toolCall('read', { filePath: '/p/a.ts', offset: 1 }).input, { path: '/p/a.ts' });
    assert.deepEqual(toolCall('webfetch', { url: 'https://e.x', format: 'markdown' }), {
      name: 'webfetch',
      kind: 'fetch',
      input: { url: 'https://e.x', prompt: undefined },
    });
    assert.equal(toolCall('websearch', { query: 'q' }).kind, 'web-search');
    assert.deepEqual(
      toolCall('apply_patch', { patchText: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n' }).input,
      {
        path: 'src/a.ts',
      },
    );
    assert.deepEqual(
      toolCall('multiedit', { filePath: 'a', edits: [{ oldString: 'x', newString: 'y' }] }).input,
      {
        path: 'a',
        edits: [{ before: 'x', after: 'y' }],
      },
    );
    assert.equal(toolCall('todowrite', { todos: [] }).kind, 'other');
    const created = toolCall('write', {}, { status: 'completed', output: 'ok', metadata: { exists: false } });
    assert.equal(created.outcome?.created, true);
  });

  test('MCP tools are <server>_<tool>, sanitised as opencode does', () => {
    assert.equal(mcpToolName('chrome-devtools', 'take snapshot'), 'chrome-devtools_take_snapshot');
    assert.equal(opencodeAdapter.tools?.mcpToolName('my.server', 'list'), 'my_server_list');
    assert.deepEqual(toolCall('slack_post_message', {}).server, 'slack');
    assert.equal(toolCall('slack_post_message', {}).kind, 'mcp');
    assert.equal(mcpServerOf('my_db_query', ['my_db']), 'my_db');
    assert.equal(mcpServerOf('bash'), undefined);
  });

  test('agent names are kept as context selection matches them', () => {
    assert.equal(opencodeAgentType('build'), 'build');
    assert.equal(opencodeAgentType(' plan '), 'plan');
    assert.equal(opencodeAgentType('explore'), 'explore');
    assert.equal(opencodeAgentType(''), undefined);
    assert.equal(opencodeAgentType(undefined), undefined);
  });
});

function digest(file: string): string | undefined {
  return fs.existsSync(file)
    ? crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
    : undefined;
}

describe('opencode store in WAL mode', () => {
  /** Rows of `table` in a copy of the store made of `main` and `wal`, read as the import reads it. */
  async function count(main: Buffer, wal: Buffer | undefined, table: string): Promise<number> {
    const dir = tempDir();
    const file = path.join(dir, 'opencode.db');
    fs.writeFileSync(file, main);
    if (wal) fs.writeFileSync(`${file}-wal`, wal);
    const db = await SqliteFile.open(file);
    try {
      const rows: unknown[] = [];
      for await (const row of db.scan(table)) rows.push(row);
      return rows.length;
    } finally {
      await db.close();
    }
  }

  test('rows still in the -wal file are read, and reading writes nothing', async () => {
    const { file, db } = walDatabase(tempDir());
    try {
      db.exec(DUMP);
      assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the data sits in the WAL');
      const files = [file, `${file}-wal`, `${file}-shm`];
      const before = files.map(digest);
      const { items } = await readOpencodeStore(file);
      assert.equal(items.filter((item) => item.type === 'session').length, 1);
      assert.equal(await count(fs.readFileSync(file), fs.readFileSync(`${file}-wal`), 'part'), 7);
      assert.deepEqual(files.map(digest), before);
      // Without the WAL the main file has none of it.
      await assert.rejects(count(fs.readFileSync(file), undefined, 'session'), SqliteFileError);
    } finally {
      db.close();
    }
  });

  test('an uncommitted transaction, a torn frame and a bad checksum are left out', async () => {
    const dir = tempDir();
    const { file, db } = walDatabase(dir);
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    const frame = 24 + pageSize;
    let committed: Buffer;
    let main: Buffer;
    let full: Buffer;
    try {
      db.exec(DUMP);
      committed = fs.readFileSync(`${file}-wal`);
      // A second transaction large enough to span several frames.
      const insert = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (let i = 0; i < 40; i++) {
          const data = JSON.stringify({ type: 'text', text: `${i} `.repeat(400) });
          insert.run(
            `prt_extra${String(i).padStart(3, '0')}`,
            'msg_0f21b031b0014ZxYbhc4DxjZrb',
            SESSION,
            i,
            i,
            data,
          );
        }
      })();
      // Read while the connection is open: closing checkpoints the WAL into the main file and deletes it.
      main = fs.readFileSync(file);
      full = fs.readFileSync(`${file}-wal`);
    } finally {
      db.close();
    }
    assert.ok(full.length > committed.length + 2 * frame, 'the second transaction spans several frames');
    assert.equal(await count(main, full, 'part'), 47);
    // Only the first frames of the second transaction: not committed.
    assert.equal(await count(main, full.subarray(0, committed.length + frame), 'part'), 7);
    // A torn last frame: the second transaction's commit frame is incomplete.
    assert.equal(await count(main, full.subarray(0, full.length - 100), 'part'), 7);
    // A flipped byte in the commit frame's page breaks its checksum.
    const corrupt = Buffer.from(full);
    corrupt[full.length - 10] ^= 0xff;
    assert.equal(await count(main, corrupt, 'part'), 7);
    // A frame from another WAL generation (different salt) ends the log.
    const stale = Buffer.from(full);
    stale.writeUInt32BE((stale.readUInt32BE(committed.length + 8) + 1) >>> 0, committed.length + 8);
    assert.equal(await count(main, stale, 'part'), 7);
    // A WAL whose header checksum fails is ignored altogether: the main file alone has no tables.
    const badHeader = Buffer.from(full);
    badHeader[12] ^= 0xff;
    await assert.rejects(count(main, badHeader, 'part'), SqliteFileError);
  });
});

describe('opencode sessions', () => {
  const byType = (items: SessionItem[]) =>
    items.reduce<Record<string, number>>(
      (counts, item) => ({ ...counts, [item.type]: (counts[item.type] ?? 0) + 1 }),
      {},
    );

  function addSynthetic(db: BetterSqlite3.Database): void {
    const message = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
    const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)');
    const session = db.prepare(
      `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, agent, time_created, time_updated)
       VALUES (?, 'global', ?, ?, ?, ?, '1.18.33', ?, ?, ?)`,
    );
    // A compaction: the user message asking for it (CompactionPart), then the summary (AssistantMessage.summary).
    message.run(
      'msg_0f21b0700001SynthCompUser',
      SESSION,
      1790768260000,
      1790768260000,
      JSON.stringify({
        role: 'user',
        time: { created: 1790768260000 },
        agent: 'build',
        model: { providerID: 'fake', modelID: 'fake-model' },
      }),
    );
    part.run(
      'prt_0f21b0700001SynthCompPart',
      'msg_0f21b0700001SynthCompUser',
      SESSION,
      1790768260000,
      1790768260000,
      JSON.stringify({ type: 'compaction', auto: false }),
    );
    message.run(
      'msg_0f21b0710001SynthCompSumm',
      SESSION,
      1790768261000,
      1790768262000,
      JSON.stringify({
        parentID: 'msg_0f21b0700001SynthCompUser',
        role: 'assistant',
        mode: 'compaction',
        agent: 'compaction',
        summary: true,
        path: { cwd: '/work/proj', root: '/' },
        cost: 0,
        tokens: { input: 300, output: 40, reasoning: 0, cache: { read: 0, write: 0 } },
        modelID: 'fake-model',
        providerID: 'fake',
        time: { created: 1790768261000, completed: 1790768262000 },
        finish: 'stop',
      }),
    );
    // The summary's text part, as compaction.ts has the model write it into the summary message.
    part.run(
      'prt_0f21b0711001SynthCompText',
      'msg_0f21b0710001SynthCompSumm',
      SESSION,
      1790768261500,
      1790768261900,
      JSON.stringify({
        type: 'text',
        text: 'Ran `echo fixture` in /work/proj; it printed fixture. Nothing left to do.',
        time: { start: 1790768261500, end: 1790768261900 },
      }),
    );
    // A subagent session, with a tool call whose part row is damaged.
    session.run(
      CHILD,
      SESSION,
      'quiet-comet',
      '/work/proj',
      'Find the tests (@explore subagent)',
      'explore',
      1790768254100,
      1790768257000,
    );
    message.run(
      'msg_0f21b0620001SynthChildAsst',
      CHILD,
      1790768254200,
      1790768254400,
      JSON.stringify({
        parentID: 'msg_0f21b0615001SynthChildUser',
        role: 'assistant',
        mode: 'explore',
        agent: 'explore',
        path: { cwd: '/work/proj', root: '/' },
        cost: 0,
        tokens: { input: 900, output: 20, reasoning: 5, cache: { read: 100, write: 10 } },
        modelID: 'fake-model',
        providerID: 'fake',
        time: { created: 1790768254200, completed: 1790768254400 },
        finish: 'stop',
      }),
    );
    part.run(
      'prt_0f21b0630001SynthChildGrep',
      'msg_0f21b0620001SynthChildAsst',
      CHILD,
      1790768254300,
      1790768254350,
      JSON.stringify({
        type: 'tool',
        tool: 'grep',
        callID: 'call_4',
        state: {
          status: 'completed',
          input: { pattern: 'describe' },
          output: 'Found 1 match',
          title: 'describe',
          metadata: { matches: 1 },
          time: { start: 1790768254300, end: 1790768254350 },
        },
      }),
    );
    // The subagent's answer: its task's result in the parent, no report of the user's session.
    part.run(
      'prt_0f21b0635001SynthChildText',
      'msg_0f21b0620001SynthChildAsst',
      CHILD,
      1790768254355,
      1790768254358,
      JSON.stringify({ type: 'text', text: 'The tests are in test/unit/api.test.ts.' }),
    );
    part.run(
      'prt_0f21b0640001SynthBrokenRow',
      'msg_0f21b0620001SynthChildAsst',
      CHILD,
      1790768254360,
      1790768254360,
      '{"type":"tool",',
    );
    // Another project's session.
    session.run(
      'ses_0f21b0800001SynthElsewhere',
      null,
      'far-away',
      '/work/other',
      'Elsewhere',
      'build',
      1790768270000,
      1790768270000,
    );
    message.run(
      'msg_0f21b0800001SynthElseUser',
      'ses_0f21b0800001SynthElsewhere',
      1790768270000,
      1790768270000,
      JSON.stringify({
        role: 'user',
        time: { created: 1790768270000 },
        agent: 'build',
        model: { providerID: 'fake', modelID: 'fake-model' },
      }),
    );
    part.run(
      'prt_0f21b0800001SynthElseText',
      'msg_0f21b0800001SynthElseUser',
      'ses_0f21b0800001SynthElsewhere',
      1790768270000,
      1790768270000,
      JSON.stringify({ type: 'text', text: 'somewhere else' }),
    );
  }

  test('the window is the model’s own, from the catalogue opencode caches, and the fixed prompt apart', async () => {
    // packages/opencode/src/provider/models.ts: ModelsDev's cache, `<cache>/opencode/models.json` or
    // $OPENCODE_MODELS_PATH, is models.dev's api.json: providers by id, each with `models` by id and each
    // model's `limit: { context, output }`. An assistant message names its providerID and modelID.
    const dir = tempDir();
    const catalogue = path.join(dir, 'models.json');
    fs.writeFileSync(
      catalogue,
      JSON.stringify({
        fake: {
          id: 'fake',
          name: 'Fake',
          env: [],
          npm: '@ai-sdk/openai-compatible',
          models: {
            'fake-model': { id: 'fake-model', name: 'Fake', limit: { context: 400000, output: 128000 } },
          },
        },
      }),
    );
    const { file, db } = walDatabase(tempDir());
    const saved = process.env.OPENCODE_MODELS_PATH;
    try {
      db.exec(DUMP);
      process.env.OPENCODE_MODELS_PATH = catalogue;
      const { items } = await readOpencodeStore(file);
      assert.deepEqual(
        items.flatMap((item) => (item.type === 'usage' ? [item.contextWindow] : [])),
        [400000, 400000],
      );
      const reading = gaugeOfItems(file, items, 0);
      assert.equal(reading.window, 400000);
      // The store holds no system prompt: what the first call held besides the first prompt is the fixed part.
      assert.deepEqual(
        reading.breakdown.categories.map(({ name, tokens, measured }) => [name, tokens, measured]),
        [
          ['system_prompt', 128 - Math.ceil('"run echo fixture please"'.length / 4), false],
          ['messages', 156 - 128 + Math.ceil('"run echo fixture please"'.length / 4), false],
          // opencode compacts at the window less the output it may write (its cap, 32,000) and a 20,000 reserve.
          ['free_space', 400000 - 156 - 52000, true],
          ['autocompact_buffer', 52000, false],
        ],
      );
      process.env.OPENCODE_MODELS_PATH = path.join(dir, 'missing.json');
      const unknown = await readOpencodeStore(file);
      assert.ok(unknown.items.every((item) => item.type !== 'usage' || item.contextWindow === undefined));
    } finally {
      if (saved === undefined) delete process.env.OPENCODE_MODELS_PATH;
      else process.env.OPENCODE_MODELS_PATH = saved;
      db.close();
    }
  });

  test('forecasts to where opencode compacts: input limit, output cap, reserve, config', async () => {
    // packages/opencode/src/session/overflow.ts `usable`: the input limit less the reserve, else the window
    // less the output (at most 32,000) and the reserve; the reserve is `compaction.reserved`, else
    // min(20,000, output); `compaction.auto: false` never compacts.
    const dir = tempDir();
    const catalogue = path.join(dir, 'models.json');
    const writeLimit = (limit: object) =>
      fs.writeFileSync(
        catalogue,
        JSON.stringify({ fake: { id: 'fake', models: { 'fake-model': { id: 'fake-model', limit } } } }),
      );
    const config = path.join(dir, 'config', 'opencode');
    fs.mkdirSync(config, { recursive: true });
    const { file, db } = walDatabase(tempDir());
    const saved = { models: process.env.OPENCODE_MODELS_PATH, xdg: process.env.XDG_CONFIG_HOME };
    const compactAt = async () => {
      const { items } = await readOpencodeStore(file);
      return gaugeOfItems(file, items, 0, {
        compactAt: (window) => opencodeAdapter.contextLimits!.compactAt(window),
      }).breakdown.autocompactAt;
    };
    try {
      db.exec(DUMP);
      process.env.OPENCODE_MODELS_PATH = catalogue;
      process.env.XDG_CONFIG_HOME = path.join(dir, 'config');
      writeLimit({ context: 400000, input: 272000, output: 128000 });
      assert.equal(await compactAt(), 272000 - 20000);
      writeLimit({ context: 200000, output: 8192 });
      assert.equal(await compactAt(), 200000 - 8192 - 8192);
      fs.writeFileSync(
        path.join(config, 'opencode.jsonc'),
        '{ // mine\n "compaction": { "reserved": 5000 } }',
      );
      assert.equal(await compactAt(), 200000 - 8192 - 5000);
      fs.writeFileSync(path.join(config, 'opencode.jsonc'), '{ "compaction": { "auto": false } }');
      assert.equal(await compactAt(), 200000);
      // A provider of one's own declares its model's window in the config, which the catalogue cannot know:
      // as the real suite's opencode.json does (128,000), where the gauge said 200,000.
      fs.writeFileSync(
        path.join(config, 'opencode.jsonc'),
        '{ "provider": { "fake": { "models": { "fake-model": { "limit": { "context": 128000, "output": 8192 } } } } } }',
      );
      const declared = await readOpencodeStore(file);
      const reading = gaugeOfItems(file, declared.items, 0, {});
      assert.deepEqual(
        { window: reading.window, guessed: reading.windowGuessed },
        { window: 128000, guessed: false },
      );
      // A window the user set, the catalogue's limits aside: the output is taken at its cap.
      const { items } = await readOpencodeStore(file);
      const set = gaugeOfItems(file, items, 0, {
        window: 100000,
        compactAt: (window) => opencodeAdapter.contextLimits!.compactAt(window),
      });
      assert.equal(set.breakdown.autocompactAt, 100000 - 32000 - 20000);
    } finally {
      for (const [name, value] of [
        ['OPENCODE_MODELS_PATH', saved.models],
        ['XDG_CONFIG_HOME', saved.xdg],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      db.close();
    }
  });

  test('the real 1.18.33 store reads as a session, its prompt, its tool call and its usage', async () => {
    const { file, db } = walDatabase(tempDir());
    try {
      db.exec(DUMP);
      const { items, skipped } = await readOpencodeStore(file);
      assert.equal(skipped, 0);
      assert.deepEqual(byType(items), { session: 1, prompt: 1, tool: 1, usage: 2, report: 1 });
      assert.deepEqual(items[0], {
        type: 'session',
        sessionId: SESSION,
        at: 1790768250632,
        cwd: '/work/proj',
        model: 'fake-model',
        agentType: 'build',
        parentSessionId: undefined,
      });
      assert.deepEqual(items[1], {
        type: 'prompt',
        sessionId: SESSION,
        at: 1790768250670,
        key: 'msg_0f21aff2e001y84CAhBLtC5Dm9',
        text: '"run echo fixture please"',
      });
      const tool = items.find((item) => item.type === 'tool');
      assert.deepEqual(tool, {
        type: 'tool',
        sessionId: SESSION,
        at: 1790768251666,
        call: {
          name: 'bash',
          kind: 'shell',
          useId: 'call_1',
          input: { command: 'echo fixture' },
          outcome: { failed: false, output: 'fixture\n', exitCode: 0, durationMs: 55 },
        },
      });
      // As opencode's TUI counts: input + output + reasoning + cache read + cache write.
      assert.deepEqual(
        items.flatMap((item) => (item.type === 'usage' ? [[item.contextTokens, item.model, item.at]] : [])),
        [
          [128, 'fake-model', 1790768251673],
          [156, 'fake-model', 1790768251709],
        ],
      );
      // The last assistant text of the turn is the agent's report, at the time its message completed.
      assert.deepEqual(items.at(-1), {
        type: 'report',
        sessionId: SESSION,
        at: 1790768251709,
        text: 'The command printed fixture.',
      });
      // The adapter's reader gives the same.
      assert.deepEqual(await opencodeAdapter.sessions?.read(file), { items, skipped });
    } finally {
      db.close();
    }
  });

  test('compactions, subagent sessions, damaged rows and other projects', async () => {
    const { file, db } = walDatabase(tempDir());
    try {
      db.exec(DUMP);
      addSynthetic(db);
      const all = await readOpencodeStore(file);
      assert.equal(all.skipped, 1);
      assert.deepEqual(byType(all.items), {
        session: 3,
        prompt: 2,
        tool: 2,
        usage: 4,
        compact: 1,
        'compact-summary': 1,
        report: 1,
      });
      // The most recently active top-level session first, then subagents' sessions.
      assert.deepEqual(
        all.items.filter((item) => item.type === 'session').map((item) => item.sessionId),
        ['ses_0f21b0800001SynthElsewhere', SESSION, CHILD],
      );
      const compact = all.items.find((item) => item.type === 'compact');
      assert.deepEqual(compact, {
        type: 'compact',
        sessionId: SESSION,
        at: 1790768260000,
        trigger: 'manual',
      });
      // The agent's words: the summary message's text, and the last answer before it (the turn's report).
      assert.deepEqual(
        all.items.filter((item) => item.type === 'compact-summary' || item.type === 'report'),
        [
          {
            type: 'report',
            sessionId: SESSION,
            at: 1790768251709,
            text: 'The command printed fixture.',
          },
          {
            type: 'compact-summary',
            sessionId: SESSION,
            at: 1790768261000,
            text: 'Ran `echo fixture` in /work/proj; it printed fixture. Nothing left to do.',
          },
        ],
      );
      const child = all.items.find((item) => item.type === 'session' && item.sessionId === CHILD);
      assert.equal(child?.type === 'session' && child.parentSessionId, SESSION);
      assert.equal(child?.type === 'session' && child.agentType, 'explore');
      const childUsage = all.items.find((item) => item.type === 'usage' && item.sessionId === CHILD);
      assert.equal(childUsage?.type === 'usage' && childUsage.contextTokens, 900 + 20 + 5 + 100 + 10);

      const project = await readOpencodeStore(file, { projectRoot: '/work/proj' });
      assert.deepEqual(
        [...new Set(project.items.map((item) => item.sessionId))],
        [SESSION, CHILD],
        'the other project is left out; the top-level session comes first',
      );
    } finally {
      db.close();
    }
  });

  test('finds the databases in the data folder, or the JSON files of older versions', async () => {
    const data = tempDir();
    const env = { XDG_DATA_HOME: data, HOME: data };
    const dir = path.join(data, 'opencode');
    fs.mkdirSync(dir, { recursive: true });
    assert.deepEqual(findSessionFiles('/work/proj', env), []);

    // Pre-1.2 layout: storage/session/<project>/<session>.json, message/<session>/, part/<message>/.
    const storage = path.join(dir, 'storage');
    const write = (relative: string, value: unknown) => {
      fs.mkdirSync(path.dirname(path.join(storage, relative)), { recursive: true });
      fs.writeFileSync(path.join(storage, relative), JSON.stringify(value));
    };
    write('session/global/ses_old.json', {
      id: 'ses_old',
      projectID: 'global',
      directory: '/work/proj',
      title: 't',
      version: '0.15.0',
      time: { created: 1, updated: 2 },
    });
    write('session/global/ses_far.json', {
      id: 'ses_far',
      projectID: 'global',
      directory: '/elsewhere',
      title: 't',
      version: '0.15.0',
      time: { created: 1, updated: 2 },
    });
    write('message/ses_old/msg_1.json', {
      id: 'msg_1',
      sessionID: 'ses_old',
      role: 'user',
      time: { created: 3 },
    });
    write('part/msg_1/prt_1.json', {
      id: 'prt_1',
      sessionID: 'ses_old',
      messageID: 'msg_1',
      type: 'text',
      text: 'old prompt',
    });
    const [old] = findSessionFiles('/work/proj', env);
    assert.equal(old, path.join(storage, 'session', 'global', 'ses_old.json'));
    assert.ok(opencodeAdapter.sessions?.recognise(fs.readFileSync(old, 'utf8')));
    const read = await opencodeAdapter.sessions!.read(old);
    assert.deepEqual(byType(read.items), { session: 1, prompt: 1 });

    fs.writeFileSync(path.join(dir, 'opencode.db'), 'SQLite format 3\0');
    fs.writeFileSync(path.join(dir, 'opencode-local.db'), 'SQLite format 3\0');
    fs.writeFileSync(path.join(dir, 'opencode.db-wal'), '');
    assert.deepEqual(findSessionFiles('/work/proj', env).sort(), [
      path.join(dir, 'opencode-local.db'),
      path.join(dir, 'opencode.db'),
    ]);
    assert.ok(opencodeAdapter.sessions?.recognise('SQLite format 3\0'));
    assert.deepEqual(findSessionFiles('/work/proj', { ...env, OPENCODE_DB: 'opencode.db' }), [
      path.join(dir, 'opencode.db'),
    ]);
  });
});

describe('opencode MCP config', () => {
  test('servers from project and global files, with their lines, disabled state and redacted descriptions', () => {
    const root = tempDir();
    const home = tempDir();
    const env = { XDG_CONFIG_HOME: path.join(home, 'config') };
    fs.copyFileSync(
      path.join(OPENCODE_FIXTURES, 'opencode.0xC0D3D00D-opencode.config.excerpt.json'),
      path.join(root, 'opencode.json'),
    );
    fs.mkdirSync(path.join(home, 'config', 'opencode'), { recursive: true });
    fs.writeFileSync(
      path.join(home, 'config', 'opencode', 'opencode.jsonc'),
      `{
  // Everyone's tools
  "mcp": {
    "db": { "type": "local", "command": ["pg-mcp", "postgres://admin:hunter2@db.internal/app"], "enabled": true, },
  },
}
`,
    );
    const { servers, problems } = opencodeAdapter.tools!.servers(root, home, env);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      servers.map((server) => [server.name, server.scope, server.line, server.disabled]),
      [
        ['db', 'global', 4, false],
        ['atlassian-rovo', 'project', 4, true],
        ['beads', 'project', 11, true],
        ['chrome-devtools', 'project', 16, true],
        ['gitlab', 'project', 21, true],
        ['sauron', 'project', 26, false],
        ['slack', 'project', 31, false],
      ],
    );
    const described = Object.fromEntries(servers.map((server) => [server.name, server.description]));
    assert.equal(described['atlassian-rovo'], 'http: https://mcp.atlassian.com/v1/mcp');
    assert.equal(described['chrome-devtools'], 'stdio: npx -y chrome-devtools-mcp@latest');
    assert.ok(!described.db?.includes('hunter2'), described.db);
    assert.ok(opencodeAdapter.tools!.files(root, home, env).includes(path.join(root, 'opencode.json')));
  });

  test('a file that does not parse is a problem, not an exception', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'opencode.json'), '{ "mcp": { "x": ');
    const { servers, problems } = opencodeAdapter.tools!.servers(root, tempDir(), {});
    assert.deepEqual(servers, []);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].file, path.join(root, 'opencode.json'));
  });
});

describe('opencode connect', () => {
  const hooks = opencodeAdapter.hooks!;

  test('connect creates the plugin file, disconnect removes it: the folder is as it was', () => {
    const root = tempDir();
    const file = hooks.settingsPath('project', root, tempDir());
    assert.equal(file, path.join(root, '.opencode', 'plugins', PLUGIN_FILE_NAME));
    const connect = hooks.planConnect(file, undefined, PORTABLE_RECORDER_COMMAND);
    assert.equal(connect.before, undefined);
    assert.equal(connect.changes.length, 1);
    assert.ok(connect.after && isContextDeckPlugin(connect.after));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, connect.after);
    assert.ok(hooks.isConnected(file, fs.readFileSync(file, 'utf8')));
    assert.deepEqual(hooks.planConnect(file, connect.after, PORTABLE_RECORDER_COMMAND).changes, []);
    const disconnect = hooks.planDisconnect(file, fs.readFileSync(file, 'utf8'));
    assert.equal(disconnect.after, undefined);
    fs.rmSync(file);
    assert.ok(!fs.existsSync(file));
    assert.ok(!hooks.isConnected(file, undefined));
  });

  test("the team's project plugin stays portable even when given this machine's command", () => {
    const command = recorderCommand('local', { node: '/opt/node/bin/node' }, '/opt/cd-home', {});
    assert.ok(command.includes('/opt/node/bin/node'));
    const project = hooks.planConnect(
      path.join(tempDir(), '.opencode', 'plugins', PLUGIN_FILE_NAME),
      undefined,
      command,
    );
    assert.ok(!project.after?.includes('/opt/'));
    const home = tempDir();
    const user = opencodePluginPath('user', '/work/proj', home, { XDG_CONFIG_HOME: path.join(home, 'xdg') });
    assert.equal(user, path.join(home, 'xdg', 'opencode', 'plugins', PLUGIN_FILE_NAME));
    assert.equal(opencodeConfigDir(home, {}), path.join(home, '.config', 'opencode'));
    const mine = hooks.planConnect(user, undefined, command);
    assert.ok(mine.after?.includes('/opt/node/bin/node'));
    assert.ok(mine.after?.includes('/opt/cd-home'));
  });

  test('a file of that name that is not ours is never overwritten nor removed', () => {
    const file = path.join(tempDir(), '.opencode', 'plugins', PLUGIN_FILE_NAME);
    const foreign = 'export const Mine = async () => ({})\n';
    assert.throws(() => hooks.planConnect(file, foreign, PORTABLE_RECORDER_COMMAND), ForeignPluginError);
    assert.deepEqual(hooks.planDisconnect(file, foreign), {
      file,
      before: foreign,
      after: foreign,
      changes: [],
    });
    assert.ok(!hooks.isConnected(file, foreign));
  });

  test('commands name their runtime, script and home, or the portable recorder', () => {
    assert.equal(recorderFromCommand(PORTABLE_RECORDER_COMMAND), undefined);
    assert.deepEqual(
      recorderFromCommand(
        'ELECTRON_RUN_AS_NODE=1 "/Applications/Visual Studio Code.app/Electron" /h/bin/hook.js --home /h',
      ),
      {
        node: '/Applications/Visual Studio Code.app/Electron',
        hook: '/h/bin/hook.js',
        home: '/h',
        electronRunAsNode: true,
      },
    );
    assert.equal(recorderFromCommand('echo hi'), undefined);
  });
});
