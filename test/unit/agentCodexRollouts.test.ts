/**
 * Codex rollouts other projects' fixtures found misread (issue 36): a subagent `spawn_agent` starts with
 * its parent's history, the first releases' rollouts, a rollout without its meta line; and where Codex
 * compacts.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type { SessionItem } from '../../src/engine/agents/adapter';
import { codexAdapter } from '../../src/engine/agents/codex';
import { codexCompactAt } from '../../src/engine/agents/codex/compactPoint';
import { codexSessions } from '../../src/engine/agents/codex/rolloutFiles';
import { sessionGauge, sessionOfFile } from '../../src/engine/live/activeSession';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { importTranscripts } from '../../src/engine/transcripts/importTranscripts';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';

const CODEX_DIR = path.join(FIXTURES_DIR, 'codex');
const PARENT = '019e1625-789d-76c0-80ab-3724b5ddb799';
const PARENT_ROLLOUT = path.join(CODEX_DIR, `rollout-2026-05-11T11-26-55-${PARENT}.excerpt.jsonl`);
const CHILD = '019e162b-45cd-7c21-b5e3-6d0a4f2c8e19';
const SUBAGENT_ROLLOUT = path.join(CODEX_DIR, `rollout-2026-05-11T11-33-15-${CHILD}.subagent.jsonl`);
const FIRST_RELEASE_ROLLOUT = path.join(
  CODEX_DIR,
  'rollout-2025-05-07T17-24-21-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl',
);
const PROJECT = '/Users/Sample_User/repos/codemie-ai/codemie-code';
const CHILD_TASK =
  'Find where the default context compaction threshold is read in src/agents/plugins and report the file and line.';

type Of<T extends SessionItem['type']> = Extract<SessionItem, { type: T }>;
function ofType<T extends SessionItem['type']>(items: SessionItem[], type: T): Array<Of<T>> {
  return items.filter((item): item is Of<T> => item.type === type);
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cd-codex-rollouts-'));
}

/** A Codex home with `text` as a rollout of 2026-05-11 named `name`. */
function codexHomeWith(name: string, text: string): { home: string; file: string } {
  const home = tempDir();
  const day = path.join(home, 'sessions', '2026', '05', '11');
  fs.mkdirSync(day, { recursive: true });
  const file = path.join(day, name);
  fs.writeFileSync(file, text);
  return { home, file };
}

/** The subagent's rollout with its parent's turn ids as older releases made them: UUIDv4, no time in them. */
function withParentTurnIdsV4(): string {
  return fs
    .readFileSync(SUBAGENT_ROLLOUT, 'utf8')
    .replaceAll('019e1625-d031-75e3-a85f-f143e43c0d84', '81d2f55b-894b-4d67-b75b-436ead477f65')
    .replaceAll('019e162b-0011-7240-abbc-f7b732e49728', 'c3a0e6f1-5b2d-4c8e-9f71-2d4b6a8e0c13');
}

/** What the subagent reads as its own when `text` is its rollout: its prompts, and its token readings. */
async function ownPromptsAndReadings(text: string): Promise<[string[], number]> {
  const { home, file } = codexHomeWith(path.basename(SUBAGENT_ROLLOUT), text);
  try {
    const { items } = await codexSessions.read(file);
    return [ofType(items, 'prompt').map((prompt) => prompt.text), ofType(items, 'usage').length];
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe('a subagent spawn_agent starts with its parent’s history', () => {
  test('imported alone, it is its parent’s subagent with its own task, calls and token readings only', async () => {
    const { items, skipped } = await codexSessions.read(SUBAGENT_ROLLOUT);
    assert.equal(skipped, 0);
    const sessions = ofType(items, 'session');
    assert.deepEqual(
      sessions.map((session) => [session.sessionId, session.parentSessionId, session.agentType, session.cwd]),
      [[CHILD, PARENT, 'subagent', PROJECT]],
    );
    assert.ok(items.every((item) => item.sessionId === CHILD));
    // The parent's two prompts and four token readings are in the file, copied: none is the child's.
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      [CHILD_TASK],
    );
    assert.deepEqual(
      ofType(items, 'usage').map((usage) => usage.contextTokens),
      [31336, 31446],
    );
    assert.deepEqual(
      ofType(items, 'tool').map((tool) => [tool.call.useId, tool.call.input.command]),
      [['call_sub_rg1', "rg -n 'threshold' src/agents/plugins"]],
    );
    assert.equal(ofType(items, 'report').length, 1);
    assert.equal(ofType(items, 'report')[0].text.slice(0, 42), 'The default threshold is set in `src/agent');
  });

  test('the live gauge on it shows the subagent’s context, not its parent’s readings', async () => {
    const gauge = sessionGauge(sessionOfFile(SUBAGENT_ROLLOUT));
    assert.ok(gauge?.agent === 'codex');
    await gauge.refresh();
    const { sessionId, trend } = gauge.reading();
    assert.deepEqual([sessionId, trend.map((point) => point.tokens)], [CHILD, [31336, 31446]]);
  });

  test('a parent whose turn ids carry no time (older releases): its turns are told by their start', async () => {
    // Turn ids before UUIDv7 sort anyhow against the child's; `task_started.started_at` says when they began.
    assert.deepEqual(await ownPromptsAndReadings(withParentTurnIdsV4()), [[CHILD_TASK], 2]);
  });

  test('releases whose turns tell no time: the copy ends at the output Codex made up for the spawn call', async () => {
    // codex-rs/core/src/agent/control.rs (before spawn.rs): the copy closed with a `function_call_output`
    // of the parent's spawn call, FORKED_SPAWN_AGENT_OUTPUT_MESSAGE.
    const lines = withParentTurnIdsV4()
      .replaceAll('019e162b-45cd-70a3-8c6e-1f7b2d9a4c05', '5e0b9c2a-7d41-4f86-a3c9-0b1e6d2f8a47')
      .replace(/"started_at":\d+,/g, '')
      .trimEnd()
      .split('\n');
    const own = lines.findIndex((raw) => raw.includes('"task_started"') && raw.includes('5e0b9c2a'));
    const spawnOutput = JSON.stringify({
      timestamp: '2026-05-11T08:33:15.216Z',
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: 'call_spawn_1',
        output:
          'You are the newly spawned agent. The prior conversation history was forked from your parent agent. ' +
          'Treat the next user message as your new task, and use the forked history only as background context.',
      },
    });
    lines.splice(own, 0, spawnOutput);
    assert.deepEqual(await ownPromptsAndReadings(lines.join('\n')), [[CHILD_TASK], 2]);
  });

  test('spawned without its parent’s history: still the parent’s subagent, with its role', async () => {
    const [first, ...rest] = fs.readFileSync(SUBAGENT_ROLLOUT, 'utf8').trimEnd().split('\n');
    const line = JSON.parse(first) as { payload: Record<string, unknown> };
    delete line.payload.forked_from_id;
    const source = line.payload.source as { subagent: { thread_spawn: Record<string, unknown> } };
    source.subagent.thread_spawn.agent_role = 'explorer';
    const own = rest.slice(
      rest.findIndex((raw) => raw.includes('"task_started"') && raw.includes(CHILD.slice(0, 13))),
    );
    const { home, file } = codexHomeWith(
      path.basename(SUBAGENT_ROLLOUT),
      [JSON.stringify(line), ...own].join('\n'),
    );
    const { items } = await codexSessions.read(file);
    const [session] = ofType(items, 'session');
    assert.deepEqual([session.parentSessionId, session.agentType], [PARENT, 'explorer']);
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      [CHILD_TASK],
    );
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('read with its parent, it claims none of the parent’s prompts or calls', async () => {
    const parent = (await codexSessions.read(PARENT_ROLLOUT)).items;
    const child = (await codexSessions.read(SUBAGENT_ROLLOUT)).items;
    const keys = (items: SessionItem[]) =>
      items.flatMap((item) =>
        item.type === 'prompt' ? [item.key] : item.type === 'tool' ? [item.call.useId] : [],
      );
    const parentKeys = new Set(keys(parent));
    assert.ok(keys(child).every((key) => !parentKeys.has(key)));
    assert.equal(ofType(parent, 'prompt').length, 2);
  });
});

describe('the first releases’ rollouts and rollouts without a meta line', () => {
  test('a first line of only {id, timestamp}: read as Codex’s, with its prompt and its failing command', async () => {
    assert.equal(sessionOfFile(FIRST_RELEASE_ROLLOUT).agent, 'codex');
    const { items, skipped } = await codexSessions.read(FIRST_RELEASE_ROLLOUT);
    assert.equal(skipped, 0);
    const [session] = ofType(items, 'session');
    assert.equal(session.sessionId, '5973b6c0-94b8-487b-a530-2aeb6098ae0e');
    assert.equal(session.at, Date.parse('2025-05-07T17:24:21.483Z'));
    assert.deepEqual(
      ofType(items, 'prompt').map((prompt) => prompt.text),
      ['why does npm test fail on a clean checkout?'],
    );
    const [call] = ofType(items, 'tool');
    assert.deepEqual(
      [call.call.input.command, call.call.outcome?.failed, call.call.outcome?.exitCode],
      ["bash -lc 'npm test'", true, 1],
    );
    // It records no token count: no gauge, said as such rather than 0%.
    assert.equal(sessionGauge(sessionOfFile(FIRST_RELEASE_ROLLOUT)), undefined);
  });

  test('such a rollout names no folder: no project’s search lists it (it is imported by name)', () => {
    const { home } = codexHomeWith(
      path.basename(FIRST_RELEASE_ROLLOUT),
      fs.readFileSync(FIRST_RELEASE_ROLLOUT, 'utf8'),
    );
    assert.deepEqual(codexSessions.find('/', { CODEX_HOME: home }), []);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('without its session_meta line: named after its file, in the folder its turn context says', async () => {
    // codex-rs/rollout metadata.rs `builder_from_items`: no SessionMeta, the id and time from the file name.
    const [, ...rest] = fs.readFileSync(PARENT_ROLLOUT, 'utf8').trimEnd().split('\n');
    const { home, file } = codexHomeWith(
      `rollout-2026-05-11T11-26-55-${PARENT}.jsonl`,
      rest.join('\n') + '\n',
    );
    assert.equal(sessionOfFile(file).agent, 'codex');
    assert.deepEqual(codexSessions.find(PROJECT, { CODEX_HOME: home }), [file]);
    const { items } = await codexSessions.read(file);
    const [session] = ofType(items, 'session');
    assert.deepEqual([session.sessionId, session.cwd, session.model], [PARENT, PROJECT, 'gpt-5.5']);
    assert.equal(ofType(items, 'prompt').length, 2);
    assert.equal(ofType(items, 'usage').length, 13);

    // Named so that no id is in it, which session it is cannot be told: said so, not read as "unknown".
    const renamed = path.join(path.dirname(file), 'session.jsonl');
    fs.renameSync(file, renamed);
    await assert.rejects(codexSessions.read(renamed), /no session_meta line.*no id in the file name/);
    fs.rmSync(home, { recursive: true, force: true });
  });
});

describe('imported by name into a project', () => {
  test('the subagent, its parent’s first release, and a rollout that cannot say whose it is', async () => {
    const ws = tempWorkspace('cd-codex-rollouts-');
    const nameless = path.join(ws.home, 'session.jsonl');
    fs.writeFileSync(nameless, fs.readFileSync(PARENT_ROLLOUT, 'utf8').split('\n').slice(1).join('\n'));
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      const imported = await importTranscripts(engine, {
        paths: [SUBAGENT_ROLLOUT, FIRST_RELEASE_ROLLOUT, nameless],
      });
      assert.equal(imported.files, 2);
      assert.equal(imported.problems.length, 1);
      assert.match(imported.problems[0], /session\.jsonl: cannot be read \(no session_meta line/);
      const prompts = engine.store.all('SELECT session_id, text FROM prompts ORDER BY at');
      assert.deepEqual(
        prompts.map((row) => [String(row.session_id), String(row.text)]),
        [
          ['5973b6c0-94b8-487b-a530-2aeb6098ae0e', 'why does npm test fail on a clean checkout?'],
          [CHILD, CHILD_TASK],
        ],
      );
    } finally {
      await engine.close();
      ws.cleanup();
    }
  });
});

describe('where Codex compacts', () => {
  const WINDOW = 258400; // gpt-5.5's 272,000 at Codex's 95% (the fixtures' `model_context_window`)

  const homes: string[] = [];
  after(() => homes.forEach((home) => fs.rmSync(home, { recursive: true, force: true })));

  function withConfig(text: string | undefined): NodeJS.ProcessEnv {
    const home = tempDir();
    homes.push(home);
    if (text !== undefined) fs.writeFileSync(path.join(home, 'config.toml'), text);
    return { CODEX_HOME: home };
  }

  test('at 90% of the whole window by default, declared by the adapter', () => {
    assert.equal(codexCompactAt(WINDOW, withConfig(undefined)), 244800);
    const saved = process.env.CODEX_HOME;
    process.env.CODEX_HOME = withConfig(undefined).CODEX_HOME;
    try {
      assert.equal(codexAdapter.contextLimits?.compactAt(WINDOW, 'gpt-5.5'), 244800);
    } finally {
      if (saved === undefined) delete process.env.CODEX_HOME;
      else process.env.CODEX_HOME = saved;
    }
  });

  test('at model_auto_compact_token_limit when that is lower; a higher, zero or odd one changes nothing', () => {
    assert.equal(codexCompactAt(WINDOW, withConfig('model_auto_compact_token_limit = 200000\n')), 200000);
    for (const value of ['300000', '0', '-5', '"200000"'])
      assert.equal(
        codexCompactAt(WINDOW, withConfig(`model_auto_compact_token_limit = ${value}\n`)),
        244800,
        value,
      );
    assert.equal(codexCompactAt(WINDOW, withConfig('model_auto_compact_token_limit = [')), 244800);
  });

  test('a config.toml that is a FIFO or a link to /dev/zero is not waited on: the default stands', () => {
    const fifo = withConfig(undefined);
    assert.equal(spawnSync('mkfifo', [path.join(fifo.CODEX_HOME!, 'config.toml')]).status, 0);
    assert.equal(codexCompactAt(WINDOW, fifo), 244800);
    const zero = withConfig(undefined);
    fs.symlinkSync('/dev/zero', path.join(zero.CODEX_HOME!, 'config.toml'));
    assert.equal(codexCompactAt(WINDOW, zero), 244800);
  });
});
