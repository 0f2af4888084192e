import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import {
  type RankOptions,
  type RankedTool,
  type ToolScope,
  applyScan,
  discoverFromUse,
  planProjectServerEnabled,
  rankTools,
  rankToolsInSteps,
  scanConfigs,
  writeProjectServerEnabled,
} from '../../src/engine/registry';
import {
  serverSwitches,
  toggleConfirmation,
  withConfigSwitches,
} from '../../src/engine/registry/serverToggle';
import { readAdviceState, withDisabledServers } from '../../src/engine/pruning/adviceState';
import { adviseSession } from '../../src/engine/pruning/sessionAdvice';
import { ContextGauge } from '../../src/engine/live';
import { FIXTURES_DIR, appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { promptLine, toolTurnLines, writeTranscript } from '../support/transcripts';
import { claudeCodeAdapter } from '../../src/engine/agents/claudeCode';
import { importTranscripts } from '../../src/engine/transcripts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Real .mcp.json with two servers: tidewave (http) and chrome-devtools (stdio). */
const SPOTTER_MCP = path.join(FIXTURES_DIR, 'mcp/claude-code-dot-mcp.marot-spotter.json');

let ws: ReturnType<typeof tempWorkspace>;
let userHome: string;
let engine: ProjectEngine;

beforeEach(async () => {
  ws = tempWorkspace('cd-registry-');
  userHome = path.join(path.dirname(ws.project), 'user');
  fs.mkdirSync(userHome);
  fs.copyFileSync(SPOTTER_MCP, path.join(ws.project, '.mcp.json'));
  engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
});
afterEach(async () => {
  await engine.close();
  ws.cleanup();
});

function scan(scopes?: ToolScope[]) {
  return scanConfigs({ projectRoot: ws.project, userHome, scopes });
}

function rescan(at = NOW, scopes?: ToolScope[]) {
  return applyScan(engine, scan(scopes), at);
}

/** Edit a JSON config file the way a user would: take a server out, or put one back. */
function editServers(file: string, edit: (servers: Record<string, unknown>) => void): void {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown> };
  edit(json.mcpServers);
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

let useId = 0;
/** A recorded tool call (hook-recorded unless `transcript`), straight into tool_calls. */
function call(tool: string, at: number, options: { error?: string; transcript?: boolean } = {}): void {
  engine.store.run(
    `INSERT INTO tool_calls (event_id, tool_use_id, session_id, tool_name, success, error, at)
     VALUES (?, ?, 's1', ?, ?, ?, ?)`,
    [
      options.transcript ? null : 1,
      `toolu_${useId++}`,
      tool,
      options.error === undefined ? 1 : 0,
      options.error ?? null,
      at,
    ],
  );
}

function calls(tool: string, count: number, lastAt: number, stepMs = 1000): void {
  for (let i = count - 1; i >= 0; i--) call(tool, lastAt - i * stepMs);
}

function rows(): Array<{ name: string; scope: string; status: string; status_reason: string | null }> {
  return engine.store.all(
    'SELECT name, scope, status, status_reason FROM tool_registry ORDER BY name, scope',
  ) as never;
}

function statusOf(name: string, scope?: ToolScope): { status: string; reason: string | null } {
  const row = rows().find((r) => r.name === name && (scope === undefined || r.scope === scope));
  assert.ok(row, `${name} is registered`);
  return { status: row.status, reason: row.status_reason };
}

function rank(options: RankOptions = {}): RankedTool[] {
  return rankTools(engine, { now: NOW, ...options });
}

function find(list: RankedTool[], name: string): RankedTool {
  const found = list.flatMap((tool) => [tool, ...(tool.children ?? [])]).find((tool) => tool.name === name);
  assert.ok(found, `${name} is ranked`);
  return found;
}

const names = (list: RankedTool[]) => list.map((tool) => tool.name);

describe('staleness (seed 002)', () => {
  test('a server removed from .mcp.json goes stale with its tools, and both come back when it reappears', () => {
    rescan(NOW - DAY);
    calls('mcp__tidewave__project_eval', 3, NOW - DAY);
    discoverFromUse(engine);
    const registered = rows().length;

    const mcpJson = path.join(ws.project, '.mcp.json');
    const original = fs.readFileSync(mcpJson, 'utf8');
    editServers(mcpJson, (servers) => delete servers.tidewave);
    const removed = rescan();
    assert.deepEqual(removed.staled.sort(), ['mcp__tidewave__*', 'mcp__tidewave__project_eval']);
    assert.deepEqual(statusOf('mcp__tidewave__*'), { status: 'stale', reason: 'removed from .mcp.json' });
    assert.deepEqual(statusOf('mcp__tidewave__project_eval'), {
      status: 'stale',
      reason: 'server tidewave removed from .mcp.json',
    });
    assert.equal(statusOf('mcp__chrome-devtools__*').status, 'active');
    assert.equal(rows().length, registered, 'tools are never deleted');

    fs.writeFileSync(mcpJson, original);
    const back = rescan();
    assert.deepEqual(back.restored.sort(), ['mcp__tidewave__*', 'mcp__tidewave__project_eval']);
    assert.deepEqual(statusOf('mcp__tidewave__*'), { status: 'active', reason: null });
    assert.deepEqual(statusOf('mcp__tidewave__project_eval'), { status: 'active', reason: null });
    assert.equal(rows().length, registered);
  });

  test('scope matching: a project scan never stales global tools, and a global scan never stales project ones', () => {
    const claudeJson = path.join(userHome, '.claude.json');
    fs.writeFileSync(claudeJson, JSON.stringify({ mcpServers: { memory: { command: 'npx' } } }));
    rescan();
    fs.rmSync(claudeJson);
    fs.rmSync(path.join(ws.project, '.mcp.json'));

    rescan(NOW, ['project']);
    assert.equal(statusOf('mcp__memory__*', 'global').status, 'active', 'global tool left alone');
    assert.equal(statusOf('mcp__tidewave__*', 'project').status, 'stale');

    fs.copyFileSync(SPOTTER_MCP, path.join(ws.project, '.mcp.json'));
    rescan(NOW, ['project']);
    fs.rmSync(path.join(ws.project, '.mcp.json'));
    rescan(NOW, ['global']);
    assert.equal(statusOf('mcp__memory__*', 'global').status, 'stale');
    assert.equal(statusOf('mcp__tidewave__*', 'project').status, 'active', 'project tool left alone');
  });

  test('a server still declared in another scope keeps its tools active', () => {
    fs.writeFileSync(
      path.join(userHome, '.claude.json'),
      JSON.stringify({ mcpServers: { tidewave: { type: 'http', url: 'http://localhost/mcp' } } }),
    );
    rescan();
    calls('mcp__tidewave__get_logs', 2, NOW);
    discoverFromUse(engine);
    editServers(path.join(ws.project, '.mcp.json'), (servers) => delete servers.tidewave);
    rescan();
    assert.equal(statusOf('mcp__tidewave__*', 'project').status, 'stale');
    assert.equal(statusOf('mcp__tidewave__*', 'global').status, 'active');
    assert.equal(statusOf('mcp__tidewave__get_logs').status, 'active');
  });

  test('a file that fails to parse is not a removal: its tools keep their state', () => {
    rescan();
    const mcpJson = path.join(ws.project, '.mcp.json');
    fs.writeFileSync(mcpJson, fs.readFileSync(mcpJson, 'utf8').replace('"tidewave": {', '"tidewave" {'));
    const broken = scan();
    assert.deepEqual(
      broken.problems.map((problem) => problem.file),
      [mcpJson],
    );
    assert.match(broken.problems[0].message, /not valid JSON: ColonExpected at line 3, column 16/);
    assert.deepEqual(applyScan(engine, broken, NOW).staled, []);
    assert.equal(statusOf('mcp__tidewave__*').status, 'active');
    assert.equal(statusOf('mcp__chrome-devtools__*').status, 'active');
  });

  test('a broken list of installed plugins keeps every plugin tool as it was', () => {
    const plugins = path.join(userHome, '.claude', 'plugins');
    const install = path.join(plugins, 'cache', 'market', 'hookify', '0.1.0');
    fs.mkdirSync(path.join(install, 'commands'), { recursive: true });
    fs.writeFileSync(path.join(install, 'commands', 'list.md'), '---\ndescription: List rules\n---\n');
    const registry = path.join(plugins, 'installed_plugins.json');
    fs.writeFileSync(
      registry,
      JSON.stringify({
        version: 2,
        plugins: { 'hookify@market': [{ scope: 'user', installPath: install }] },
      }),
    );
    rescan();
    assert.equal(statusOf('/hookify:list', 'plugin').status, 'active');
    fs.writeFileSync(registry, '{"version": 2, "plugins": {');
    assert.deepEqual(rescan().staled, []);
    assert.equal(statusOf('/hookify:list', 'plugin').status, 'active');
    fs.writeFileSync(registry, JSON.stringify({ version: 2, plugins: {} }));
    assert.deepEqual(rescan().staled.sort(), ['/hookify:list', 'hookify']);
  });

  test('tools discovered from use are never made stale by a scan', async () => {
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 'h1',
        cwd: ws.project,
        startAt: NOW - HOUR,
        tools: [{ tool: 'Bash' }, { tool: 'mcp__notion__search' }],
      }),
    );
    rescan();
    await engine.ingest();
    const found = discoverFromUse(engine);
    assert.deepEqual(found.added.sort(), ['Bash', 'mcp__notion__search']);
    fs.rmSync(path.join(ws.project, '.mcp.json'));
    assert.deepEqual(rescan().staled.sort(), ['mcp__chrome-devtools__*', 'mcp__tidewave__*']);
    assert.equal(statusOf('Bash').status, 'active');
    assert.equal(statusOf('mcp__notion__search').status, 'active');
    const origins = engine.store.all(
      `SELECT name, origin, type, server FROM tool_registry WHERE origin != 'config'`,
    );
    assert.deepEqual(
      origins.map((row) => ({ ...row })),
      [
        { name: 'Bash', origin: 'hook', type: 'builtin', server: null },
        { name: 'mcp__notion__search', origin: 'hook', type: 'mcp_tool', server: 'notion' },
      ],
    );
  });

  // Its speed (under 50 ms) is measured by `npm run bench` (registry), not asserted here.
  test('a scan that finds nothing to change asks for no save (a save copies the whole database out)', () => {
    let saveRequests = 0;
    const writer = { store: engine.store, role: engine.role, noteExternalChange: () => saveRequests++ };
    fs.rmSync(path.join(ws.project, '.mcp.json'));
    applyScan(writer, scan(), NOW);
    assert.equal(saveRequests, 0, 'no tools declared, none known: nothing changed');
    fs.copyFileSync(SPOTTER_MCP, path.join(ws.project, '.mcp.json'));
    assert.ok(applyScan(writer, scan(), NOW).added.length > 0);
    assert.equal(saveRequests, 1, 'new tools are saved');
  });

  test('the staleness pass of a 1,000-tool registry stales and restores 100 tools each way', () => {
    const commands = path.join(ws.project, '.claude', 'commands');
    fs.mkdirSync(commands, { recursive: true });
    for (let i = 0; i < 998; i++) fs.writeFileSync(path.join(commands, `c${i}.md`), `# command ${i}\n`);
    const full = scan();
    const fewer = { ...full, entries: full.entries.slice(100) };
    applyScan(engine, full, NOW - DAY);
    // Alternately 100 tools go stale and come back.
    for (let i = 0; i < 4; i++) {
      const applied = applyScan(engine, i % 2 ? full : fewer, NOW + i);
      assert.equal(i % 2 ? applied.restored.length : applied.staled.length, 100);
    }
  });
});

describe('discovery from use and failure demotion (seed 002)', () => {
  test('registers tools seen in calls, links MCP and plugin MCP tools to their server, and is incremental', () => {
    call('Read', NOW - 3 * HOUR);
    call('mcp__plugin_db-tools_database-tools__query', NOW - 2 * HOUR, { transcript: true });
    call('mcp__tidewave__project_eval', NOW - HOUR);
    rescan();
    const first = discoverFromUse(engine);
    assert.equal(first.calls, 3);
    const registered = engine.store.all(
      `SELECT name, type, scope, origin, server, usage_count FROM tool_registry WHERE origin != 'config' ORDER BY name`,
    );
    assert.deepEqual(
      registered.map((row) => ({ ...row })),
      [
        { name: 'Read', type: 'builtin', scope: 'global', origin: 'hook', server: null, usage_count: 1 },
        {
          name: 'mcp__plugin_db-tools_database-tools__query',
          type: 'mcp_tool',
          scope: 'plugin',
          origin: 'transcript',
          server: 'plugin_db-tools_database-tools',
          usage_count: 1,
        },
        {
          name: 'mcp__tidewave__project_eval',
          type: 'mcp_tool',
          scope: 'project',
          origin: 'hook',
          server: 'tidewave',
          usage_count: 1,
        },
      ],
    );
    assert.equal(discoverFromUse(engine).calls, 0, 'nothing new, nothing read');
    call('Read', NOW);
    const second = discoverFromUse(engine);
    assert.deepEqual(second, { calls: 1, added: [], demoted: [], recovered: [], more: false });
    assert.equal(find(rank({}), 'Read').usesTotal, 2);
  });

  test('read in slices (a catch-up lets the host run between them), calls make the same registry as one pass', async () => {
    const script = () => {
      calls('Read', 7, NOW - 50_000);
      call('Bash', NOW - 40_000, { error: 'Exit code 1' });
      call('mcp__tidewave__project_eval', NOW - 39_000, { transcript: true });
      call('Bash', NOW - 38_000, { error: 'Exit code 2' });
      call('Bash', NOW - 37_000, { error: 'Exit code 3' });
      calls('Edit', 4, NOW - 30_000);
      call('Bash', NOW - 20_000);
    };
    script();
    const sliced = { calls: 0, added: [] as string[], passes: 0 };
    for (let more = true; more;) {
      const slice = discoverFromUse(engine, 3);
      sliced.calls += slice.calls;
      sliced.added.push(...slice.added);
      sliced.passes++;
      more = slice.more;
    }
    const other = tempWorkspace('cd-registry-whole-');
    const whole = await ProjectEngine.open({ home: other.home, folder: other.project, role: 'writer' });
    const registry = (of: ProjectEngine) =>
      of.store.all(
        `SELECT name, type, scope, origin, status, usage_count, failure_count, last_used_at, window_calls,
           window_failures, last5_failures, last_error FROM tool_registry ORDER BY name`,
      );
    try {
      const saved = engine;
      engine = whole;
      script();
      engine = saved;
      const once = discoverFromUse(whole);
      assert.equal(sliced.passes, 6);
      assert.deepEqual(
        { calls: sliced.calls, added: sliced.added.sort() },
        { calls: once.calls, added: once.added.sort() },
      );
      assert.deepEqual(registry(engine), registry(whole));
      assert.equal(statusOf('Bash').status, 'active', 'the last call, a success, decides');
    } finally {
      await whole.close();
      other.cleanup();
    }
  });

  test('3 failures among the last 5 calls demote a tool with its last error; a success restores it', () => {
    call('Bash', NOW - 6000);
    call('Bash', NOW - 5000);
    call('Bash', NOW - 4000, { error: 'Exit code 1' });
    call('Bash', NOW - 3000, { error: 'Exit code 2' });
    assert.deepEqual(discoverFromUse(engine).demoted, [], '2 of 5 is not enough');
    call('Bash', NOW - 2000, { error: `Exit code 127\n${'command not found '.repeat(30)}` });
    assert.deepEqual(discoverFromUse(engine).demoted, ['Bash']);
    const demoted = statusOf('Bash');
    assert.equal(demoted.status, 'demoted');
    assert.ok(demoted.reason!.startsWith('Exit code 127 command not found'));
    assert.ok(demoted.reason!.length <= 200, 'the reason is clipped');
    assert.equal(find(rank(), 'Bash').statusReason, demoted.reason);

    call('Bash', NOW - 1000);
    assert.deepEqual(discoverFromUse(engine).recovered, ['Bash']);
    assert.deepEqual(statusOf('Bash'), { status: 'active', reason: null });
  });

  test('calls that never ran (cancelled as a call beside them failed, declined by the user) are no uses and no failures', async () => {
    const cancelled = '<tool_use_error>Sibling tool call errored</tool_use_error>';
    const declined =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
    const tool = 'mcp__notion__search';
    // Counted as failures, three of the last five would demote it, through the hooks as through an import.
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 'hooked',
        cwd: ws.project,
        startAt: NOW - 2 * HOUR,
        tools: [{ tool }, { tool, error: cancelled }, { tool, error: declined }, { tool, error: cancelled }],
      }),
    );
    await engine.ingest();
    const transcript = path.join(ws.home, 'imported.jsonl');
    const turn = (at: number, result: string) => ({
      tool,
      input: { query: 'roadmap' },
      result,
      error: true,
      resultChars: result.length,
      tokens: 1000,
      at,
    });
    writeTranscript(
      transcript,
      toolTurnLines({
        sessionId: 'imported',
        cwd: ws.project,
        turns: [
          turn(NOW - HOUR, cancelled),
          turn(NOW - HOUR + 5000, declined),
          turn(NOW - HOUR + 9000, cancelled),
        ],
      }),
    );
    const imported = await importTranscripts(engine, { paths: [transcript] });
    assert.deepEqual([imported.toolCalls, imported.failures], [0, 0]);
    discoverFromUse(engine);
    assert.deepEqual(
      {
        ...engine.store.get('SELECT status, usage_count, failure_count FROM tool_registry WHERE name = ?', [
          tool,
        ]),
      },
      { status: 'active', usage_count: 1, failure_count: 0 },
    );
  });

  test('a stale tool stays stale whatever its calls do, until its server is declared again', () => {
    rescan();
    calls('mcp__tidewave__get_logs', 1, NOW - 10_000);
    discoverFromUse(engine);
    editServers(path.join(ws.project, '.mcp.json'), (servers) => delete servers.tidewave);
    rescan();
    for (let i = 0; i < 3; i++)
      call('mcp__tidewave__get_logs', NOW - 5000 + i, { error: 'connection refused' });
    discoverFromUse(engine);
    assert.equal(statusOf('mcp__tidewave__get_logs').status, 'stale');
    fs.copyFileSync(SPOTTER_MCP, path.join(ws.project, '.mcp.json'));
    rescan();
    // Back from stale, its own last calls say it is failing.
    assert.deepEqual(statusOf('mcp__tidewave__get_logs'), {
      status: 'demoted',
      reason: 'connection refused',
    });
  });

  test('the success rate covers the last 50 calls; failures count every one', () => {
    for (let i = 0; i < 10; i++) call('Grep', NOW - 100 * HOUR + i, { error: 'bad regex' });
    calls('Grep', 50, NOW - HOUR);
    discoverFromUse(engine);
    const grep = find(rank(), 'Grep');
    assert.equal(grep.successRate, 1);
    assert.equal(grep.failures, 10);
    assert.equal(grep.usesTotal, 60);
    assert.equal(grep.lastUsedAt, NOW - HOUR);
  });
});

describe('ranking (seeds 000 and 002)', () => {
  test("a tool is credited to the agent whose adapter read its config, not guessed from the file's name", () => {
    // opencode reads a config anywhere $OPENCODE_CONFIG says; Cursor's file is read by no agent we record.
    const custom = path.join(path.dirname(ws.project), 'team-settings.json');
    fs.writeFileSync(
      custom,
      JSON.stringify({ mcp: { linear: { type: 'remote', url: 'https://mcp.linear.app/sse' } } }),
    );
    fs.mkdirSync(path.join(ws.project, '.cursor'));
    fs.writeFileSync(
      path.join(ws.project, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { figma: { command: 'npx', args: ['figma-mcp'] } } }),
    );
    const saved = process.env.OPENCODE_CONFIG;
    process.env.OPENCODE_CONFIG = custom;
    try {
      rescan();
    } finally {
      if (saved === undefined) delete process.env.OPENCODE_CONFIG;
      else process.env.OPENCODE_CONFIG = saved;
    }
    const agentsOf = (name: string) => find(rank(), name).agents;
    assert.deepEqual(agentsOf('linear_*'), ['opencode']);
    assert.deepEqual(agentsOf('mcp__figma__*'), []);
    assert.deepEqual(agentsOf('mcp__tidewave__*'), ['claude-code']);
  });

  /**
   * Bash 6 calls (last 1 h ago), Read 2 (2 days), tidewave's tools 3 + 2 (last 1 day), Grep 4 (10 days
   * ago: in the recent-200 window but not in the last 7 days), chrome-devtools never used.
   */
  function usage(): void {
    rescan();
    for (let i = 0; i < 6; i++) call('Bash', NOW - (6 - i) * HOUR);
    calls('Read', 2, NOW - 2 * DAY);
    calls('mcp__tidewave__project_eval', 3, NOW - 3 * DAY);
    calls('mcp__tidewave__get_logs', 2, NOW - DAY);
    calls('Grep', 4, NOW - 10 * DAY);
    discoverFromUse(engine);
  }

  test('frequency-share: share of the most recent 200 calls; servers sum their tools; unused in 7 days last', () => {
    usage();
    const ranked = rank({ strategy: 'frequency-share' });
    assert.deepEqual(names(ranked), ['Bash', 'mcp__tidewave__*', 'Read', 'Grep', 'mcp__chrome-devtools__*']);
    const total = 6 + 2 + 3 + 2 + 4;
    assert.equal(find(ranked, 'Bash').score, 6 / total);
    assert.equal(find(ranked, 'mcp__tidewave__*').score, 5 / total);
    assert.equal(find(ranked, 'Read').score, 2 / total);
    assert.equal(find(ranked, 'Grep').score, 4 / total, 'a higher share, but no use in 7 days');
    assert.equal(find(ranked, 'mcp__chrome-devtools__*').score, 0);
    assert.deepEqual(find(ranked, 'mcp__tidewave__*').scoreParts, {
      strategy: 'frequency-share',
      recentUses: 5,
      recentCalls: total,
      share: 5 / total,
      statusFactor: 1,
      unseenFactor: 1,
    });
  });

  test('in steps (as the extension host ranks), the same list, with the thread let go after each query', async () => {
    usage();
    for (const strategy of ['frequency-share', 'decay'] as const) {
      let pauses = 0;
      let typed = 0;
      const ranked = await rankToolsInSteps(engine, { strategy, now: NOW }, async () => {
        pauses++;
        // A key press queued now runs before the next query.
        setImmediate(() => typed++);
        await new Promise<void>((resolve) => setImmediate(resolve));
      });
      assert.deepEqual(ranked, rank({ strategy }));
      assert.equal(pauses, 3, 'one pause after each of the three queries');
      assert.equal(typed, 3);
    }
  });

  test('decay: 0.7 x uses in 7 days / max + 0.3 x exp(-0.693 x ageDays / 7)', () => {
    usage();
    const ranked = rank({ strategy: 'decay' });
    assert.deepEqual(names(ranked), ['Bash', 'mcp__tidewave__*', 'Read', 'Grep', 'mcp__chrome-devtools__*']);
    const max = 6;
    const expected = (uses: number, ageDays: number) =>
      0.7 * (uses / max) + 0.3 * Math.exp((-0.693 * ageDays) / 7);
    assert.ok(Math.abs(find(ranked, 'Bash').score - expected(6, 1 / 24)) < 1e-12);
    assert.ok(Math.abs(find(ranked, 'mcp__tidewave__*').score - expected(5, 1)) < 1e-12);
    assert.ok(Math.abs(find(ranked, 'Read').score - expected(2, 2)) < 1e-12);
    assert.equal(find(ranked, 'Grep').score, 0, 'no use in 7 days, no score');
    const server = find(ranked, 'mcp__tidewave__*');
    assert.deepEqual(
      { ...server.scoreParts, recency: undefined },
      {
        strategy: 'decay',
        uses7d: 5,
        maxUses7d: 6,
        frequency: 5 / 6,
        ageDays: 1,
        recency: undefined,
        statusFactor: 1,
        unseenFactor: 1,
      },
    );
  });

  test('an MCP server aggregates its tools: uses, last use, failures, success rate; its tools are its children', () => {
    usage();
    call('mcp__tidewave__get_logs', NOW - HOUR, { error: 'timeout' });
    discoverFromUse(engine);
    const server = find(rank(), 'mcp__tidewave__*');
    assert.equal(server.uses7d, 6);
    assert.equal(server.usesTotal, 6);
    assert.equal(server.failures, 1);
    assert.equal(server.successRate, 5 / 6);
    assert.equal(server.lastUsedAt, NOW - HOUR);
    assert.deepEqual(names(server.children!), ['mcp__tidewave__get_logs', 'mcp__tidewave__project_eval']);
    assert.equal(
      rank().filter((tool) => tool.name.startsWith('mcp__tidewave__get')).length,
      0,
      'not listed twice',
    );
  });

  test('a VS Code call of an MCP tool counts for its .vscode/mcp.json server, named as VS Code names it', () => {
    // VS Code names server `github`'s tool `search_issues` `mcp_github_search_issues` (McpPrefixGenerator).
    fs.mkdirSync(path.join(ws.project, '.vscode'));
    fs.writeFileSync(
      path.join(ws.project, '.vscode', 'mcp.json'),
      '{\n  "servers": {\n    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }\n  }\n}\n',
    );
    rescan();
    call('mcp_github_search_issues', NOW - 2 * HOUR);
    call('mcp_github_get_issue', NOW - HOUR, { error: 'not found' });
    discoverFromUse(engine);
    const server = find(rank(), 'mcp_github_*');
    assert.equal(server.usesTotal, 2);
    assert.equal(server.failures, 1);
    assert.deepEqual(names(server.children!), ['mcp_github_get_issue', 'mcp_github_search_issues']);
    assert.equal(
      rank().filter((tool) => tool.name === 'mcp_github_search_issues').length,
      0,
      'not a tool apart',
    );
  });

  test('ties are broken by lifetime use', () => {
    calls('Grep', 3, NOW - 10 * DAY);
    calls('Glob', 1, NOW - 12 * DAY);
    calls('Bash', 250, NOW - HOUR, 10);
    discoverFromUse(engine);
    const ranked = rank();
    assert.deepEqual(names(ranked), ['Bash', 'Grep', 'Glob']);
    assert.equal(find(ranked, 'Grep').score, 0);
    assert.equal(find(ranked, 'Glob').score, 0);
  });

  test('stale and demoted tools score x0.25 and list after active ones, active -> stale -> demoted', () => {
    usage();
    for (let i = 0; i < 3; i++) call('Read', NOW - 60_000 + i, { error: 'EACCES' });
    discoverFromUse(engine);
    editServers(path.join(ws.project, '.mcp.json'), (servers) => delete servers.tidewave);
    rescan();
    const ranked = rank();
    assert.deepEqual(names(ranked), ['Bash', 'Grep', 'mcp__chrome-devtools__*', 'mcp__tidewave__*', 'Read']);
    assert.deepEqual(
      ranked.map((tool) => tool.status),
      ['active', 'active', 'active', 'stale', 'demoted'],
    );
    const total = 6 + 5 + 5 + 4;
    assert.equal(find(ranked, 'mcp__tidewave__*').score, (5 / total) * 0.25);
    assert.equal(find(ranked, 'Read').score, (5 / total) * 0.25);
    assert.equal(find(ranked, 'Read').scoreParts.statusFactor, 0.25);
    assert.equal(find(ranked, 'mcp__tidewave__get_logs').status, 'stale');
  });

  test('unseen for 30+ days (max of last use or discovery, and last confirmation) halves the score', () => {
    call('WebFetch', NOW - 31 * DAY);
    call('Bash', NOW - HOUR);
    discoverFromUse(engine);
    rescan(NOW - 40 * DAY);
    let ranked = rank();
    assert.equal(find(ranked, 'WebFetch').score, 0.5 * 0.5);
    assert.equal(find(ranked, 'WebFetch').unseenDays, 31);
    assert.equal(find(ranked, 'Bash').score, 0.5);
    assert.equal(find(ranked, 'mcp__tidewave__*').scoreParts.unseenFactor, 0.5, 'last confirmed 40 days ago');
    rescan(NOW - DAY);
    ranked = rank();
    assert.equal(
      find(ranked, 'mcp__tidewave__*').scoreParts.unseenFactor,
      1,
      'confirmed by a scan yesterday',
    );
    assert.equal(find(ranked, 'mcp__tidewave__*').status, 'active', 'age is a penalty, not a status');
  });

  test('built-ins can be hidden; a query keeps matching tools and servers with their matching tools', () => {
    usage();
    assert.deepEqual(names(rank({ hideBuiltins: true })), ['mcp__tidewave__*', 'mcp__chrome-devtools__*']);
    const logs = rank({ query: 'LOGS' });
    assert.deepEqual(names(logs), ['mcp__tidewave__*']);
    assert.deepEqual(names(logs[0].children!), ['mcp__tidewave__get_logs']);
    assert.equal(rank({ query: 'tidewave' })[0].children!.length, 2);
    assert.deepEqual(
      names(rank({ query: 'headless' })),
      ['mcp__chrome-devtools__*'],
      'descriptions match too',
    );
  });

  test('ranks 2,000 tools, a server with its 1,000 tools as children', () => {
    const commands = path.join(ws.project, '.claude', 'commands');
    fs.mkdirSync(commands, { recursive: true });
    for (let i = 0; i < 1000; i++) fs.writeFileSync(path.join(commands, `c${i}.md`), `# command ${i}\n`);
    rescan();
    for (let i = 0; i < 1000; i++) call(`mcp__tidewave__tool${i}`, NOW - i * 1000);
    discoverFromUse(engine);
    const ranked = rank();
    assert.equal(find(ranked, 'mcp__tidewave__*').children!.length, 1000);
  });
});

describe('context-deck scan and tools', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      [...argv, '--home', ws.home, '--project', ws.project, '--user-home', userHome],
      {
        stdout: (text) => out.push(text),
        stderr: (text) => err.push(text),
      },
    );
    return { code, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  test('scan applies the config and reports problems; tools --json lists the ranked registry', async () => {
    await engine.close();
    fs.mkdirSync(path.join(ws.project, '.vscode'));
    fs.writeFileSync(path.join(ws.project, '.vscode', 'mcp.json'), '{ "servers": { "a": { "command": "x" } ');
    const scanned = await cli('scan', '--json');
    assert.equal(scanned.code, 0, scanned.stderr);
    const result = JSON.parse(scanned.stdout);
    assert.equal(result.applied, true);
    assert.deepEqual(result.byType, { mcp_server: 2 });
    assert.deepEqual(result.added.sort(), ['mcp__chrome-devtools__*', 'mcp__tidewave__*']);
    assert.equal(result.problems.length, 1);
    assert.equal(result.problems[0].file, path.join(ws.project, '.vscode', 'mcp.json'));

    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 'c1',
        cwd: ws.project,
        startAt: Date.now() - 60_000,
        tools: [
          { tool: 'Read' },
          { tool: 'mcp__tidewave__project_eval' },
          { tool: 'mcp__tidewave__get_logs' },
        ],
      }),
    );
    const tools = await cli('tools', '--json');
    assert.equal(tools.code, 0, tools.stderr);
    const list = JSON.parse(tools.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(
      list.map((tool) => tool.name),
      [
        'mcp__tidewave__*',
        'mcp__tidewave__get_logs',
        'mcp__tidewave__project_eval',
        'mcp__chrome-devtools__*',
      ],
      'ingested, discovered, ranked; built-ins hidden; a server is followed by its tools',
    );
    for (const field of [
      'name',
      'type',
      'scope',
      'server',
      'status',
      'statusReason',
      'score',
      'uses7d',
      'usesTotal',
      'failures',
      'successRate',
      'lastUsedAt',
    ])
      assert.ok(field in list[0], `has ${field}`);
    assert.equal(list[0].uses7d, 2);

    const all = JSON.parse((await cli('tools', '--json', '--all', '--strategy', 'decay')).stdout) as Array<{
      name: string;
    }>;
    assert.ok(all.some((tool) => tool.name === 'Read'));
    const table = await cli('tools');
    assert.match(table.stdout, /^status\s+name\s+type/);
    assert.equal((await cli('tools', '--strategy', 'newest')).code, 2);
  });

  test('when another process writes the project, tools shows the registry as that process saved it', async () => {
    rescan();
    await engine.save();
    const text = await cli('scan');
    assert.match(text.stdout, /registry: not updated/);
    const tools = await cli('tools', '--json');
    assert.equal(tools.code, 0);
    assert.match(tools.stderr, /another process writes this project/);
    assert.equal((JSON.parse(tools.stdout) as unknown[]).length, 2);
  });
});

describe('disabling a server from another window of the project', () => {
  const MIN = 60_000;

  /** A session at 85% full that called tidewave once, long ago, unrelated to the last prompt. */
  async function sessionReading(now: number) {
    const file = path.join(ws.home, 'session.jsonl');
    const base = { sessionId: 'follower', cwd: ws.project };
    writeTranscript(file, [
      promptLine({ ...base, text: 'Look at the deploy', at: now - 200 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          {
            tool: 'mcp__tidewave__project_eval',
            input: { code: 'Application.started_applications()' },
            resultChars: 12_000,
            tokens: 100_000,
            at: now - 180 * MIN,
          },
        ],
      }),
      promptLine({ ...base, text: 'Fix the checkout totals in cart.ts', at: now - 30 * MIN }),
      ...toolTurnLines({
        ...base,
        turns: [
          {
            tool: 'Read',
            input: { file_path: path.join(ws.project, 'cart.ts') },
            resultChars: 6_000,
            tokens: 170_000,
            at: now - 2 * MIN,
          },
        ],
      }),
    ]);
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    return gauge.reading();
  }

  test('the follower shows the server disabled at once, and its advice no longer offers it', async () => {
    rescan(Date.now());
    await engine.save();
    const follower = await ProjectEngine.open({ home: ws.home, folder: ws.project });
    try {
      assert.equal(follower.role, 'reader');
      const now = Date.now();
      const reading = await sessionReading(now);
      // What the follower's dashboard shows: its Tools section, and the advice built from the same ranking.
      const followerView = () => {
        const tools = withConfigSwitches(rankTools(follower, { hideBuiltins: true }), scan());
        const servers = serverSwitches(tools);
        const advice = adviseSession(reading, {
          now,
          servers: servers.enabled,
          state: withDisabledServers(readAdviceState(ws.home, follower.identity.id), servers.disabled),
        });
        return {
          disabled: find(tools, 'mcp__tidewave__*').disabled,
          advised: advice.recommendations.map((rec) => rec.itemId),
        };
      };
      const before = followerView();
      assert.equal(before.disabled, false);
      assert.ok(before.advised.includes('mcp_server:tidewave'), before.advised.join());

      const plan = planProjectServerEnabled({
        projectRoot: ws.project,
        userHome,
        server: 'tidewave',
        enabled: false,
      });
      assert.ok(plan.supported);
      writeProjectServerEnabled(plan, ws.home);

      const after = followerView();
      assert.equal(after.disabled, true, 'the Tools row shows it disabled');
      assert.ok(!after.advised.includes('mcp_server:tidewave'), after.advised.join());
      assert.ok(after.advised.includes('mcp_server:chrome-devtools'), 'the other server is still offered');
      assert.equal(
        find(rankTools(follower), 'mcp__tidewave__*').disabled,
        false,
        'the writer has not rescanned and saved yet',
      );
    } finally {
      await follower.close();
    }
  });

  test('a disable is confirmed with the exact change; its Undo reverts without asking again', () => {
    const toggle = (enabled: boolean) => {
      const plan = planProjectServerEnabled({
        projectRoot: ws.project,
        userHome,
        server: 'tidewave',
        enabled,
      });
      assert.ok(plan.supported);
      return plan;
    };
    const disable = toggle(false);
    const asked = toggleConfirmation(disable, 'user', 'spotter', ws.home);
    assert.equal(asked?.message, 'Disable the MCP server "tidewave" for spotter?');
    assert.match(asked.detail, /Add "tidewave" to disabledMcpjsonServers in \.claude\/settings\.local\.json/);
    writeProjectServerEnabled(disable, ws.home);

    const undo = toggle(true);
    assert.equal(toggleConfirmation(undo, 'undo', 'spotter', ws.home), undefined);
    assert.equal(
      toggleConfirmation(undo, 'user', 'spotter', ws.home)?.button,
      'Enable',
      'Re-enable in Tools still asks',
    );
    writeProjectServerEnabled(undo, ws.home);
    assert.equal(scan().entries.find((entry) => entry.name === 'mcp__tidewave__*')?.disabled, false);
  });
});
