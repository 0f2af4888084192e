/**
 * Each agent end to end: its real (or documented) hook payloads through the real recorder process, then
 * ingest, then the rows, the memory and the per-agent counts a user sees.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { claudePayloads } from '../../src/engine/agents/claudeCode/payload';
import { codexAdapter } from '../../src/engine/agents/codex';
import { opencodeAdapter } from '../../src/engine/agents/opencode';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { sessionAgents } from '../../src/engine/memory/sessions';
import { discoverFromUse, rankTools } from '../../src/engine/registry';
import { importTranscripts } from '../../src/engine/transcripts/importTranscripts';
import { findActiveSession, sessionGauge } from '../../src/engine/live/activeSession';
import { SessionFileGauge } from '../../src/engine/live/sessionFileGauge';
import { FIXTURES_DIR, type Payload, tempWorkspace } from '../support/events';
import { tsNodeArgs } from '../support/processes';

interface Run {
  code: number | null;
  stdout: string;
}

function runRecorder(home: string, payload: Payload): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsNodeArgs('src/hook/main.ts', '--home', home), {
      env: { ...process.env, CONTEXT_DECK_HOME: '' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
    child.stdin.end(JSON.stringify(payload));
  });
}

function fixture(file: string): Payload {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, file), 'utf8')) as Payload;
}

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-agents-');
});
afterEach(() => ws.cleanup());

async function openEngine(now?: () => number) {
  return ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer', now });
}

describe("VS Code's agent", () => {
  /** One request of the Local agent, as the fixtures record it, in the order VS Code sends the hooks. */
  const REQUEST = [
    'SessionStart.json',
    'UserPromptSubmit.json',
    'PostToolUse.read_file.json',
    'PostToolUse.replace_string_in_file.json',
    'PostToolUse.create_file.json',
    'PostToolUse.run_in_terminal.json',
    'PostToolUse.fetch_webpage.json',
    'PostToolUse.mcp.json',
    'Stop.json',
  ].map((name) => fixture(`vscode/local/${name}`));

  test('its hook events become a session, a prompt, tool calls and memory, counted as VS Code agent', async () => {
    const events = REQUEST.map((payload) => ({ ...payload, cwd: ws.project }));
    // Each event reaches two copies of the hook (VS Code runs `.github/hooks/` and `.claude/settings.json`
    // alike, one after the other, without removing duplicates): it is recorded once.
    for (const payload of events) {
      const runs = await Promise.all([runRecorder(ws.home, payload), runRecorder(ws.home, payload)]);
      assert.deepEqual(
        runs.map((run) => run.code),
        [0, 0],
      );
    }
    const engine = await openEngine();
    try {
      const result = await engine.ingest();
      assert.equal(result.events, events.length, 'each event once, not once per hook file');
      const counts = engine.counts();
      assert.deepEqual(
        {
          sessions: counts.sessions,
          prompts: counts.prompts,
          toolCalls: counts.toolCalls,
          agents: counts.agents,
        },
        { sessions: 1, prompts: 1, toolCalls: 6, agents: { vscode: events.length } },
      );
      const texts = engine.store
        .all('SELECT text FROM observations ORDER BY seq')
        .map((row) => String(row.text));
      assert.ok(
        texts.some((text) => text.startsWith('Asked: Add a discount field')),
        texts.join('\n'),
      );
      assert.ok(
        texts.some((text) => /^Tests passed: npm test -- --grep cart/.test(text)),
        texts.join('\n'),
      );
      assert.ok(
        texts.some((text) => /^(Modified|Created) /.test(text)),
        texts.join('\n'),
      );
      const session = engine.store.get('SELECT id, agent FROM sessions');
      assert.equal(session?.agent, 'vscode');
      // The dashboard's memory rows name the agent of their session.
      assert.deepEqual(
        [...sessionAgents(engine.store, [String(session?.id), 'unknown'])],
        [[session?.id, 'vscode']],
      );
    } finally {
      await engine.close();
    }
  });
});

describe('Claude Code', () => {
  const words = (engine: ProjectEngine) =>
    engine.store.all(
      "SELECT source, text FROM observations WHERE source IN ('report', 'compact-summary') ORDER BY source",
    );

  test("Stop's last assistant message is the report, PostCompact's summary the compaction summary", async () => {
    // The hooks reference's examples (docs-examples/README.md): Stop (2.1.47+) and PostCompact (2.1.76+).
    const stop = fixture('hooks/docs-examples/Stop.input.json');
    const compacted = fixture('hooks/docs-examples/PostCompact.input.json');
    const normalised = claudePayloads.normalise(stop);
    assert.deepEqual(
      [normalised?.kind, normalised?.message],
      ['stop', "I've completed the refactoring. Here's a summary..."],
    );
    const summary = claudePayloads.normalise(compacted);
    assert.deepEqual(
      [summary?.kind, summary?.trigger, summary?.summary],
      ['compacted', 'manual', 'Summary of the compacted conversation...'],
    );

    for (const payload of [compacted, stop])
      assert.equal((await runRecorder(ws.home, { ...payload, cwd: ws.project })).code, 0);
    const engine = await openEngine();
    try {
      await engine.ingest();
      assert.deepEqual(words(engine), [
        { source: 'compact-summary', text: 'Compaction summary: Summary of the compacted conversation...' },
        { source: 'report', text: "Reported: I've completed the refactoring. Here's a summary..." },
      ]);
    } finally {
      await engine.close();
    }
  });
});

describe('Codex CLI', () => {
  const ROLLOUT = 'codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl';
  const HOOKS = [
    'SessionStart',
    'UserPromptSubmit',
    'PostToolUse.Bash',
    'PostToolUse.apply_patch.update',
    'Stop',
  ];

  test('hook events and the rollout file give one session, each prompt and call once, failures from exit codes', async () => {
    for (const name of HOOKS) {
      const payload = { ...fixture(`codex/hook-payloads/${name}.input.json`), cwd: ws.project };
      assert.equal((await runRecorder(ws.home, payload)).code, 0);
    }
    const rollout = path.join(ws.home, 'rollout.jsonl');
    fs.copyFileSync(path.join(FIXTURES_DIR, ROLLOUT), rollout);
    const engine = await openEngine();
    try {
      await engine.ingest();
      const hooked = engine.counts();
      assert.deepEqual(hooked.agents, { codex: HOOKS.length });
      assert.equal(hooked.prompts, 1);
      assert.equal(engine.store.get('SELECT agent FROM sessions')?.agent, 'codex');

      const imported = await importTranscripts(engine, { paths: [rollout] });
      assert.equal(imported.files, 1, 'recognised as a Codex rollout by its content');
      const prompts = engine.store.all('SELECT text FROM prompts ORDER BY at').map((row) => String(row.text));
      assert.equal(
        prompts.filter((text) => text.startsWith("let's update the defailt context")).length,
        1,
        'the prompt the hook recorded is not added again by the rollout',
      );
      const calls = engine.store.get(
        `SELECT count(*) AS n, sum(success = 0) AS failed FROM tool_calls WHERE session_id = ?`,
        ['019e1625-789d-76c0-80ab-3724b5ddb799'],
      );
      assert.ok(Number(calls?.n) >= 16, `tool calls: ${String(calls?.n)}`);
      assert.equal(Number(calls?.failed), 2, 'the two commands that exited non-zero');
      assert.equal(engine.store.number('SELECT count(*) FROM sessions'), 1);

      const again = await importTranscripts(engine, { paths: [rollout], force: true });
      assert.deepEqual([again.toolCalls, again.prompts, again.sessions], [0, 0, 0], 'a re-read adds nothing');
      // Stop's `last_assistant_message` and each turn's `task_complete`: one report, the session's latest.
      assert.equal(engine.store.number("SELECT count(*) FROM observations WHERE source = 'report'"), 1);

      // The Tools section says which agent called each tool.
      discoverFromUse(engine);
      const bash = rankTools(engine).find((tool) => tool.name === 'Bash');
      assert.deepEqual(bash?.agents, ['codex']);
    } finally {
      await engine.close();
    }
  });

  test("a local compaction's summary and the turn's report are remembered from the rollout", async () => {
    const rollout = path.join(ws.home, 'rollout-compacted.jsonl');
    const line = (timestamp: string, type: string, payload: object) =>
      JSON.stringify({ timestamp, type, payload });
    const summary = 'Goal: retry on 503. Done: src/api.ts retries twice. Next: run the tests.';
    fs.writeFileSync(
      rollout,
      [
        line('2026-05-11T08:00:00.000Z', 'session_meta', { id: 'compacted-session', cwd: ws.project }),
        line('2026-05-11T08:00:01.000Z', 'event_msg', { type: 'task_started', turn_id: 't1' }),
        // codex-rs/core/src/compact.rs: SUMMARY_PREFIX, a newline, then the summary the model wrote.
        line('2026-05-11T08:00:02.000Z', 'compacted', {
          message: `Another language model started to solve this problem and produced a summary of its thinking process.\n${summary}`,
        }),
        line('2026-05-11T08:00:03.000Z', 'event_msg', {
          type: 'task_complete',
          turn_id: 't1',
          last_agent_message: 'Retries are in and the tests pass.',
        }),
      ].join('\n') + '\n',
    );
    const engine = await openEngine();
    try {
      await importTranscripts(engine, { paths: [rollout] });
      assert.deepEqual(
        engine.store.all(
          "SELECT source, text FROM observations WHERE source IN ('report', 'compact-summary') ORDER BY at",
        ),
        [
          { source: 'compact-summary', text: `Compaction summary: ${summary}` },
          { source: 'report', text: 'Reported: Retries are in and the tests pass.' },
        ],
      );
    } finally {
      await engine.close();
    }
  });

  test('a rollout of a session folded as old history, read again whole, adds nothing twice', async () => {
    const rollout = path.join(ws.home, 'rollout.jsonl');
    fs.copyFileSync(path.join(FIXTURES_DIR, ROLLOUT), rollout);
    let now = Date.now();
    const engine = await openEngine(() => now);
    try {
      await importTranscripts(engine, { paths: [rollout] });
      discoverFromUse(engine);
      now = engine.store.number('SELECT max(at) FROM tool_calls') + 60 * 86_400_000;
      assert.ok((await engine.foldOldHistory(30)) > 0);
      const folded = { ...engine.counts(), dbBytes: 0 };
      assert.ok(folded.toolCalls >= 16);
      assert.equal(engine.store.number('SELECT count(*) FROM tool_calls'), 0, 'the calls are folded');

      const again = await importTranscripts(engine, { paths: [rollout], force: true });
      assert.deepEqual([again.toolCalls, again.prompts], [0, 0], 'a re-read adds nothing');
      assert.deepEqual({ ...engine.counts(), dbBytes: 0 }, folded);
      assert.equal(engine.store.number("SELECT count(*) FROM observations WHERE source != 'digest'"), 0);
    } finally {
      await engine.close();
    }
  });

  test('the gauge reads the context size and window the rollout records', async () => {
    const file = path.join(FIXTURES_DIR, ROLLOUT);
    const gauge = new SessionFileGauge(file, { ...codexAdapter, sessions: codexAdapter.sessions! });
    assert.equal(await gauge.refresh(), true);
    const reading = gauge.reading();
    assert.equal(reading.window, 258_400, "the rollout's model_context_window");
    assert.equal(reading.sessionId, '019e1625-789d-76c0-80ab-3724b5ddb799');
    assert.ok(reading.tokens > 10_000 && reading.tokens < reading.window, `tokens: ${reading.tokens}`);
    assert.equal(reading.percent, Math.round((reading.tokens / reading.window) * 1000) / 10);
    assert.ok(reading.trend.length >= 10, 'a point per turn');
    assert.equal(await gauge.refresh(), false, 'an unchanged file is not read again');
  });
});

describe('opencode', () => {
  function pluginPayloads(name: string): Payload[] {
    return fs
      .readFileSync(path.join(FIXTURES_DIR, 'opencode', name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Payload);
  }

  test("the plugin's events (a session that ran a subagent) become sessions, prompts and tool calls", async () => {
    const events = pluginPayloads('opencode-1.18.33.run-task.plugin-payloads.jsonl').map((payload) => ({
      ...payload,
      cwd: ws.project,
    }));
    for (const payload of events) assert.equal((await runRecorder(ws.home, payload)).code, 0);
    const engine = await openEngine();
    try {
      await engine.ingest();
      const counts = engine.counts();
      assert.deepEqual(
        {
          sessions: counts.sessions,
          prompts: counts.prompts,
          toolCalls: counts.toolCalls,
          agents: counts.agents,
        },
        { sessions: 2, prompts: 2, toolCalls: 2, agents: { opencode: events.length } },
      );
      const tools = engine.store
        .all('SELECT tool_name FROM tool_calls ORDER BY at')
        .map((row) => row.tool_name);
      assert.deepEqual(tools, ['bash', 'task']);
      const texts = engine.store.all('SELECT text, agent_type FROM observations ORDER BY seq');
      assert.ok(
        texts.some((row) => row.agent_type === 'general'),
        'the subagent is remembered as its own agent type',
      );
    } finally {
      await engine.close();
    }
  });

  test("its session store (SQLite) imports the project's sessions and feeds the gauge", async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    const dump = fs.readFileSync(
      path.join(FIXTURES_DIR, 'opencode/opencode-1.18.33.lazyagents.excerpt.sql'),
      'utf8',
    );
    db.exec(dump.replaceAll('/work/proj', ws.project));
    const store = path.join(ws.home, 'opencode.db');
    fs.writeFileSync(store, db.export());
    db.close();

    const engine = await openEngine();
    try {
      const imported = await importTranscripts(engine, { paths: [store] });
      assert.equal(imported.files, 1, 'recognised as an opencode store by its content');
      assert.ok(imported.sessions >= 1 && imported.prompts >= 1, JSON.stringify(imported));
      assert.equal(engine.store.get('SELECT agent FROM sessions')?.agent, 'opencode');
      // The turn's last assistant text is the agent's report.
      assert.deepEqual(engine.store.all("SELECT text FROM observations WHERE source = 'report'"), [
        { text: 'Reported: The command printed fixture.' },
      ]);
    } finally {
      await engine.close();
    }

    const gauge = new SessionFileGauge(
      store,
      { ...opencodeAdapter, sessions: opencodeAdapter.sessions! },
      { projectRoot: ws.project },
    );
    assert.equal(await gauge.refresh(), true);
    const reading = gauge.reading();
    assert.ok(reading.tokens > 0, `tokens: ${reading.tokens}`);
    assert.equal(reading.model, 'fake-model');
  });
});

describe("VS Code's agent transcript", () => {
  test('the gauge follows a session whose transcript records usage, never one whose transcript does not', async () => {
    const claudeDir = path.join(ws.home, 'no-claude');
    const withUsage = path.join(ws.home, 'usage.jsonl');
    const without = path.join(ws.home, 'hooks.jsonl');
    fs.copyFileSync(path.join(FIXTURES_DIR, 'vscode/transcripts/usage-session.jsonl'), withUsage);
    fs.copyFileSync(path.join(FIXTURES_DIR, 'vscode/transcripts/hooks-session.jsonl'), without);
    const engine = await openEngine();
    try {
      for (const [sessionId, transcript] of [
        ['measured', withUsage],
        ['unmeasured', without],
      ]) {
        for (const name of ['SessionStart.json', 'UserPromptSubmit.json']) {
          const payload = { ...fixture(`vscode/local/${name}`), session_id: sessionId, cwd: ws.project };
          const run = await runRecorder(ws.home, {
            ...payload,
            transcript_path: transcript,
            timestamp: new Date().toISOString(),
          });
          assert.equal(run.code, 0);
        }
        await engine.ingest();
        const active = findActiveSession(engine.store, ws.project, { transcriptsDir: claudeDir });
        if (transcript === without) {
          // No usage recorded: no gauge of it (rather than one at 0%); the newest session that says stays.
          assert.equal(active?.sessionId, 'measured');
          assert.equal(sessionGauge({ agent: 'vscode', file: without, sessionId: 'unmeasured' }), undefined);
          continue;
        }
        assert.deepEqual(active, { agent: 'vscode', file: withUsage, sessionId: 'measured' });
        const gauge = sessionGauge(active!);
        assert.ok(gauge);
        await gauge.refresh();
        const reading = gauge.reading();
        // The last assistant.usage line: 21,900 prompt tokens (cached included) and the 85-token reply.
        assert.equal(reading.tokens, 21_985);
        assert.deepEqual(
          reading.trend.map((point) => point.tokens),
          [18_370, 21_740, 21_985],
        );
        assert.equal(reading.model, 'claude-sonnet-4.5');
      }
    } finally {
      await engine.close();
    }
  });

  test('its transcript imports the session; calls the hooks also recorded are counted once', async () => {
    const transcript = path.join(ws.home, 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d.jsonl');
    fs.copyFileSync(path.join(FIXTURES_DIR, 'vscode/transcripts/hooks-session.jsonl'), transcript);
    // The hooks recorded one of its calls first, with the id suffix VS Code adds for hooks.
    const hooked = {
      ...fixture('vscode/local/PostToolUse.read_file.json'),
      session_id: 'b3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      tool_use_id: 'call_read_1__vscode-1774706567925',
      cwd: ws.project,
    };
    assert.equal((await runRecorder(ws.home, hooked)).code, 0);
    const engine = await openEngine();
    try {
      await engine.ingest();
      const imported = await importTranscripts(engine, { paths: [transcript] });
      assert.equal(imported.files, 1, 'recognised as a VS Code transcript by its content');
      assert.deepEqual([imported.prompts, imported.toolCalls, imported.failures], [2, 4, 1]);
      assert.equal(engine.counts().toolCalls, 5, 'the call both recorded is one call');
      assert.equal(engine.store.get('SELECT agent FROM sessions')?.agent, 'vscode');
    } finally {
      await engine.close();
    }
  });
});
