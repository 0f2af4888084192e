/**
 * Tool registry speed: the staleness pass (applyScan) over 1,000 config tools against its 50 ms budget,
 * the config scan that feeds it, incremental discovery after an ingest, and ranking 2,000 tools over a
 * project with 100,000 tool calls.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ProjectEngine } from '../src/engine/project/projectEngine';
import { applyScan, discoverFromUse, rankTools, scanConfigs } from '../src/engine/registry';
import { type BenchSection, median, percentile, round } from './report';

const CONFIG_TOOLS = 1000;
const USED_TOOLS = 1000;
const CALLS = 100_000;
const RUNS = 21;
const STALENESS_BUDGET_MS = 50;

function stats(times: number[]): { median: number; p95: number } {
  return { median: round(median(times), 2), p95: round(percentile(times, 95), 2) };
}

function timed(work: () => void): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** 1,000 config tools: 900 slash commands and 100 MCP servers, as files on disk. */
function writeConfig(project: string): void {
  const commands = path.join(project, '.claude', 'commands');
  fs.mkdirSync(commands, { recursive: true });
  for (let i = 0; i < CONFIG_TOOLS - 100; i++)
    fs.writeFileSync(
      path.join(commands, `command-${i}.md`),
      `---\ndescription: Command ${i}\n---\nDo ${i}.\n`,
    );
  const servers = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`server-${i}`, { command: 'npx', args: ['-y', `server-${i}`] }]),
  );
  fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2));
}

/** 100,000 calls over 1,000 MCP tools of those servers and a few built-ins, 5% failures, over 60 days. */
function insertCalls(engine: ProjectEngine, now: number, from: number, count: number): void {
  const builtins = ['Read', 'Edit', 'Bash', 'Grep', 'Glob'];
  engine.store.transaction(() => {
    for (let i = from; i < from + count; i++) {
      const tool = i % 3 === 0 ? builtins[i % 5] : `mcp__server-${i % 100}__tool-${i % USED_TOOLS}`;
      engine.store.run(
        'INSERT INTO tool_calls (event_id, tool_use_id, session_id, tool_name, success, error, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [
          i,
          `toolu_${i}`,
          `s${i >> 6}`,
          tool,
          i % 20 === 7 ? 0 : 1,
          i % 20 === 7 ? 'failed' : null,
          now - (CALLS - i) * 50_000,
        ],
      );
    }
  });
}

export async function benchRegistry(): Promise<BenchSection> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-registry-'));
  const project = path.join(root, 'project');
  const userHome = path.join(root, 'user');
  fs.mkdirSync(userHome, { recursive: true });
  writeConfig(project);
  const engine = await ProjectEngine.open({ home: path.join(root, 'home'), folder: project, role: 'writer' });
  try {
    const now = Date.now();
    const scanTimes: number[] = [];
    let scan = scanConfigs({ projectRoot: project, userHome });
    for (let i = 0; i < 5; i++)
      scanTimes.push(timed(() => (scan = scanConfigs({ projectRoot: project, userHome }))));
    if (scan.entries.length !== CONFIG_TOOLS) throw new Error(`scanned ${scan.entries.length} tools`);

    const firstInsert = applyScan(engine, scan, now - 1000).ms;
    // 100 tools disappear (10 of them servers, whose used tools cascade), then come back, alternately.
    const fewer = { ...scan, entries: scan.entries.filter((_, i) => i % 10 !== 0) };
    insertCalls(engine, now, 0, CALLS);
    discoverFromUse(engine);
    const passes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const applied = applyScan(engine, i % 2 ? scan : fewer, now + i);
      if ((i % 2 ? applied.restored : applied.staled).length < 100) throw new Error('the diff missed tools');
      passes.push(applied.ms);
    }
    const rescans = Array.from({ length: RUNS }, (_, i) => applyScan(engine, scan, now + RUNS + i).ms);

    const discovery: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      insertCalls(engine, now, CALLS + i * 50, 50);
      discovery.push(timed(() => discoverFromUse(engine)));
    }

    const tools = engine.store.number('SELECT count(*) FROM tool_registry');
    const ranking = { 'frequency-share': [] as number[], decay: [] as number[] };
    for (let i = 0; i < RUNS; i++)
      for (const strategy of ['frequency-share', 'decay'] as const)
        ranking[strategy].push(timed(() => rankTools(engine, { strategy, now })));

    const staleness = stats(passes);
    const rows: BenchSection['rows'] = [
      ['config scan (files read)', CONFIG_TOOLS, ...Object.values(stats(scanTimes))],
      ['first scan into an empty registry', CONFIG_TOOLS, round(firstInsert, 2), '-'],
      ['staleness pass: 100 removed / restored', CONFIG_TOOLS, staleness.median, staleness.p95],
      ['rescan, nothing changed', CONFIG_TOOLS, ...Object.values(stats(rescans))],
      ['discoverFromUse after 50 new calls', tools, ...Object.values(stats(discovery))],
      ['rankTools frequency-share', tools, ...Object.values(stats(ranking['frequency-share']))],
      ['rankTools decay', tools, ...Object.values(stats(ranking.decay))],
    ];
    return {
      title: `Tool registry (${CALLS.toLocaleString('en-US')} tool calls, ${tools.toLocaleString('en-US')} tools)`,
      columns: ['measure', 'tools', 'median ms', 'p95 ms'],
      rows,
      results: {
        tools,
        calls: CALLS,
        scanMs: stats(scanTimes),
        firstScanMs: round(firstInsert, 2),
        stalenessMs: staleness,
        rescanMs: stats(rescans),
        discoveryMs: stats(discovery),
        rankMs: { 'frequency-share': stats(ranking['frequency-share']), decay: stats(ranking.decay) },
      },
      targets: [
        `staleness pass with ${CONFIG_TOOLS.toLocaleString('en-US')} tools: median ${staleness.median} ms, p95 ${staleness.p95} ms (target < ${STALENESS_BUDGET_MS} ms): ${staleness.p95 < STALENESS_BUDGET_MS ? 'met' : 'MISSED'}`,
      ],
    };
  } finally {
    await engine.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}
