/**
 * The hooks agents wait on: each agent's hook command, as Connect writes it, run the way the agent runs it
 * (`sh -c` in the project folder, the payload on stdin), spools the payload; the next ingest redacts it into
 * the event log and removes it, exactly once, whatever stops a drain halfway: a crash, a full disk, other
 * drains at the same moment.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { writeHookOutputs } from '../../src/engine/context/hookOutput';
import { STALE_MS, drainSpool } from '../../src/engine/log/spool';
import { recorderFromCommand } from '../../src/engine/agents/recorderCommand';
import { SPOOL_SCRIPT, SPOOL_SCRIPT_NAME, spoolCommandFor } from '../../src/engine/agents/spoolCommand';
import { hookOutputFile } from '../../src/engine/kernel/paths';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { useBundle } from '../support/bundle';
import { type HookAgent, hookCommand } from '../support/hookCommands';
import { appendSession, savedEvents, useShippedBundle } from '../support/shipped';
import { hookEvent, tempWorkspace } from '../support/events';
import { until } from '../support/childRun';
import { PLACEMENTS, SECRETS, leakedParts, recordLine } from '../support/secretCorpus';

type Agent = HookAgent;
type Payload = Record<string, unknown>;

const hasPrlimit = spawnSync('prlimit', ['--version']).status === 0;
const drainer = useBundle({ spoolDrainer: 'test/support/spoolDrainer.ts' });
const shipped = useShippedBundle();

let ws: ReturnType<typeof tempWorkspace>;
let events: string;

beforeEach(() => {
  ws = tempWorkspace('cd-spool-');
  events = path.join(ws.home, 'events');
  // Installed: the hooks record only where the recorder has its stable copy.
  fs.mkdirSync(path.join(ws.home, 'bin'), { mode: 0o700 });
  fs.writeFileSync(path.join(ws.home, 'bin', 'hook.js'), '// the recorder\n', { mode: 0o600 });
  fs.writeFileSync(path.join(ws.home, 'bin', SPOOL_SCRIPT_NAME), SPOOL_SCRIPT, { mode: 0o600 });
});
afterEach(() => ws.cleanup());

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a hook command as the agent does: `sh -c` in the project folder, the payload on stdin. */
function runHook(command: string, payload: string, cwd = ws.project): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], {
      cwd,
      env: { PATH: process.env.PATH, HOME: path.dirname(ws.home), CONTEXT_DECK_HOME: ws.home },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    // A hook that does nothing does not read its input either.
    child.stdin.on('error', () => undefined);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(payload);
  });
}

async function spool(agent: Agent, payloads: Payload[]): Promise<void> {
  const command = hookCommand(agent, 'PostToolUse');
  // Ten at a time, as an agent's parallel tool calls would.
  for (let i = 0; i < payloads.length; i += 10) {
    const runs = await Promise.all(payloads.slice(i, i + 10).map((p) => runHook(command, JSON.stringify(p))));
    for (const run of runs) assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', '']);
  }
}

function toolEvent(id: string): Payload {
  return hookEvent('PostToolUse', { session_id: 'spooled', cwd: ws.project, tool_use_id: id });
}

/** The lines of the event log, parsed where whole. */
function logLines(): Payload[] {
  return fs
    .readdirSync(events)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => fs.readFileSync(path.join(events, name), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Payload];
      } catch {
        return [];
      }
    });
}

const toolIds = () => logLines().map((line) => line.tool_use_id);
/** What the events folder holds besides log files: spool files and claims. */
const spooled = () => fs.readdirSync(events).filter((name) => !name.endsWith('.jsonl'));

function filesUnder(dir: string): Array<{ file: string; stat: fs.Stats }> {
  return fs.readdirSync(dir, { recursive: true }).map((name) => {
    const file = path.join(dir, String(name));
    return { file, stat: fs.lstatSync(file) };
  });
}

describe('the spooling hooks', () => {
  test('secrets spooled by every agent’s hooks are in no file under the home once ingested; every file is private', async () => {
    // The secrets the node recorder redacts today (the corpus test lists the rest): the bar is no worse.
    const place = PLACEMENTS[0];
    const secrets = SECRETS.filter(
      (s) => leakedParts(recordLine(place.payload(s.text, true)), s.parts).length === 0,
    );
    assert.ok(secrets.length > 20, `${secrets.length} secrets`);
    const agents: Agent[] = ['claude-code', 'codex', 'vscode'];
    writeHookOutputs(ws.home, [ws.project], '# Context\n- a remembered change');
    for (const agent of agents) {
      const start = await runHook(
        hookCommand(agent, 'SessionStart'),
        JSON.stringify(hookEvent('SessionStart', { session_id: `start-${agent}`, cwd: ws.project })),
      );
      assert.equal(start.status, 0);
      assert.match(
        (JSON.parse(start.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
          .additionalContext,
        /a remembered change/,
        `${agent} prints the session context at SessionStart`,
      );
      await spool(
        agent,
        secrets.map((s, i) => ({
          ...place.payload(s.text, true),
          cwd: ws.project,
          tool_use_id: `${agent}-${i}`,
        })),
      );
    }
    // A payload far over a pipe's atomic write and over the line cap, with secrets at both ends.
    const wide = secrets.map((s) => s.text).join('\n');
    const big = {
      ...PLACEMENTS[1].payload(`${wide}\n${'x'.repeat(3 * 1024 * 1024)}\n${wide}`, true),
      cwd: ws.project,
      tool_use_id: 'big',
    };
    await spool('codex', [big]);
    const waiting = filesUnder(events);
    assert.ok(waiting.length > secrets.length * agents.length, 'spooled until the next ingest');
    for (const { file, stat } of waiting)
      assert.equal(stat.mode & 0o777, 0o600, `${file} private from the start`);

    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project });
    try {
      await engine.ingest();
      assert.equal(engine.counts().events, (secrets.length + 1) * agents.length + 1);
    } finally {
      await engine.close();
    }
    assert.deepEqual(spooled(), [], 'every spool file removed');
    const capped = logLines().find((line) => line.tool_use_id === 'big')?._cd as Payload | undefined;
    assert.ok(Array.isArray(capped?.capped), 'the oversized payload is capped, as the node recorder caps it');
    for (const { file, stat } of filesUnder(ws.home)) {
      if (stat.isDirectory()) {
        assert.equal(stat.mode & 0o777, 0o700, file);
        continue;
      }
      assert.equal(stat.mode & 0o777, 0o600, file);
      const text = fs.readFileSync(file, 'latin1');
      // Parts of a few characters (a port, a year) also occur by chance in spool names, pids and times.
      for (const secret of secrets) {
        const parts = secret.parts.filter((part) => part.length >= 8);
        assert.deepEqual(leakedParts(text, parts), [], `${secret.kind} in ${file}`);
      }
    }
  });

  test('every hook command Connect writes is one short line (agents print it: Claude Code at each /compact)', () => {
    const events: Record<Agent, string[]> = {
      'claude-code': ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'SessionEnd'],
      codex: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop'],
      vscode: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop'],
      cline: ['TaskStart', 'UserPromptSubmit', 'PostToolUse', 'TaskComplete'],
    };
    for (const [agent, names] of Object.entries(events) as Array<[Agent, string[]]>) {
      for (const event of names) {
        const command = hookCommand(agent, event);
        assert.ok(
          !command.includes('\n') && command.length <= 160,
          `${agent} ${event}: ${command.length} characters: ${command}`,
        );
      }
    }
  });

  test('where Context Deck is not installed the hook does nothing: exit 0, silent, no file', async () => {
    fs.rmSync(path.join(ws.home, 'bin'), { recursive: true });
    // Half-uninstalled, the script without its recorder: still nothing.
    fs.mkdirSync(path.join(ws.home, 'bin'), { mode: 0o700 });
    fs.writeFileSync(path.join(ws.home, 'bin', SPOOL_SCRIPT_NAME), SPOOL_SCRIPT, { mode: 0o600 });
    for (const agent of ['claude-code', 'codex', 'vscode'] as const) {
      for (const event of ['SessionStart', 'PostToolUse']) {
        const run = await runHook(hookCommand(agent, event), JSON.stringify(toolEvent('t')));
        assert.deepEqual([run.status, run.stdout, run.stderr], [0, '', '']);
      }
    }
    assert.deepEqual(fs.readdirSync(ws.home), ['bin']);
  });

  test('a batch of payloads all still being written asks for no other pass at once', () => {
    // Otherwise ingest would list and skip the same files, turn after turn, until they are whole.
    fs.mkdirSync(events, { mode: 0o700 });
    for (const n of [0, 1, 2])
      fs.writeFileSync(path.join(events, `99999999-${n}.spool`), '{"hook_event_name": "Post', {
        mode: 0o600,
      });
    assert.deepEqual(drainSpool(ws.home, { limit: 2 }), { logged: 0, dropped: 0, waiting: 2, more: false });
  });

  test('a drain takes the spool in the order it was written; a payload still being written waits', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    for (const id of ids) await spool('claude-code', [toolEvent(id)]);
    const partial = path.join(events, '99999999-0.spool');
    fs.writeFileSync(partial, '{"hook_event_name": "PostToolUse", "tool_respon', { mode: 0o600 });
    assert.deepEqual(drainSpool(ws.home), { logged: ids.length, dropped: 0, waiting: 1, more: false });
    assert.deepEqual(toolIds(), ids);
    assert.deepEqual(spooled(), [path.basename(partial)]);
    // Never finished (its hook was killed): recorded as what it is once no hook can still be writing it.
    const later = drainSpool(ws.home, { now: Date.now() + STALE_MS + 1000 });
    assert.deepEqual(later, { logged: 1, dropped: 0, waiting: 0, more: false });
    assert.match(String((logLines().at(-1)?._cd as Payload).error), /^not JSON/);
    assert.deepEqual(spooled(), []);
  });

  test('SessionStart in a sub-folder prints its project’s context; a nested project without one prints nothing', async () => {
    const nested = path.join(ws.project, 'packages', 'app');
    const deeper = path.join(nested, 'src');
    fs.mkdirSync(deeper, { recursive: true });
    writeHookOutputs(ws.home, [ws.project], '- the outer project');
    const command = hookCommand('codex', 'SessionStart');
    const start = JSON.stringify(hookEvent('SessionStart', { cwd: ws.project }));
    const printed = async (cwd: string) => (await runHook(command, start, cwd)).stdout;
    assert.match(await printed(deeper), /the outer project/);
    writeHookOutputs(ws.home, [nested], '');
    assert.equal(await printed(deeper), '');
    assert.match(await printed(ws.project), /the outer project/);
  });

  test('SessionStart after a compaction prints the continuation; any other start, or none written, the context', async () => {
    writeHookOutputs(ws.home, [ws.project], '- the next session', '- the session that continues');
    const command = hookCommand('claude-code', 'SessionStart');
    const printed = async (source: string) =>
      (await runHook(command, JSON.stringify(hookEvent('SessionStart', { cwd: ws.project, source })))).stdout;
    assert.match(await printed('compact'), /the session that continues/);
    assert.doesNotMatch(await printed('compact'), /the next session/);
    for (const source of ['startup', 'resume', 'clear'])
      assert.match(await printed(source), /the next session/);
    // Written by an earlier version: no continuation beside the context.
    fs.rmSync(hookOutputFile(ws.home, ws.project, process.platform, 'hook-output-compact.json'));
    assert.match(await printed('compact'), /the next session/);
  });

  test('a spool file dated in the future is logged as of now, in today’s log file, even cut short', async () => {
    fs.mkdirSync(events, { recursive: true, mode: 0o700 });
    const future = new Date('2099-01-01T00:00:00Z');
    const whole = path.join(events, '99999942-0.spool');
    const cut = path.join(events, '99999942-1.spool');
    fs.writeFileSync(whole, JSON.stringify(toolEvent('from-the-future')), { mode: 0o600 });
    fs.writeFileSync(cut, '{"hook_event_name":"PostToolUse","cwd":', { mode: 0o600 });
    for (const file of [whole, cut]) fs.utimesSync(file, future, future);
    const now = Date.parse('2026-11-28T12:00:00Z');
    const drained = drainSpool(ws.home, { now });
    assert.equal(drained.logged, 2, 'neither waits for 2099');
    assert.deepEqual(
      fs.readdirSync(events).filter((name) => name.endsWith('.jsonl')),
      ['2026-11-28.jsonl'],
    );
    assert.ok(toolIds().includes('from-the-future'));
    assert.deepEqual(spooled(), []);
  });

  test('SessionStart stops at a repository’s own folder: a separate repository inside a project is not it', async () => {
    const inner = path.join(ws.project, 'vendor', 'other-repo');
    fs.mkdirSync(path.join(inner, '.git'), { recursive: true });
    fs.mkdirSync(path.join(inner, 'src'));
    writeHookOutputs(ws.home, [ws.project], '- the outer project');
    const command = hookCommand('claude-code', 'SessionStart');
    const printed = async (cwd: string) =>
      (await runHook(command, JSON.stringify(hookEvent('SessionStart', { cwd })), cwd)).stdout;
    assert.equal(await printed(path.join(inner, 'src')), '');
    assert.match(await printed(path.join(ws.project, 'vendor')), /the outer project/);
  });

  test('a home whose path holds the text CONTEXT_DECK_HOME is that home, not the portable one', () => {
    const home = path.join(path.dirname(ws.home), 'CONTEXT_DECK_HOME-home');
    fs.mkdirSync(path.join(home, 'bin'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(home, 'bin', 'hook.js'), '// the recorder\n', { mode: 0o600 });
    fs.writeFileSync(path.join(home, 'bin', SPOOL_SCRIPT_NAME), SPOOL_SCRIPT, { mode: 0o600 });
    const node = `node ${path.join(home, 'bin', 'hook.js')} --home ${home}`;
    const command = spoolCommandFor(node, false, 'linux');
    assert.deepEqual(recorderFromCommand(node)?.home, home);
    // Run as the agent runs it, with neither CONTEXT_DECK_HOME nor a ~/.context-deck: it spools into `home`.
    const run = spawnSync('/bin/sh', ['-c', command], {
      input: JSON.stringify(toolEvent('odd-home')),
      env: { PATH: process.env.PATH, HOME: path.join(path.dirname(ws.home), 'nobody') },
    });
    assert.equal(run.status, 0);
    assert.equal(
      fs.readdirSync(path.join(home, 'events')).filter((name) => name.endsWith('.spool')).length,
      1,
    );
  });

  test('a payload still being written that ends in } is read once, not at every pass, until it changes', () => {
    fs.mkdirSync(events, { recursive: true, mode: 0o700 });
    const file = path.join(events, '99999943-0.spool');
    fs.writeFileSync(file, '{"hook_event_name":"PostToolUse","tool_input":{}', { mode: 0o600 });
    const claimed: string[] = [];
    const pass = () => drainSpool(ws.home, { steps: { claimed: (name) => claimed.push(name) } });
    for (let i = 0; i < 5; i++) assert.deepEqual(pass(), { logged: 0, dropped: 0, waiting: 1, more: false });
    assert.deepEqual(claimed, ['99999943-0.spool'], 'taken and put back once, not at every pass');
    // The hook writes the rest: the next pass takes it whole.
    fs.appendFileSync(file, ',"session_id":"s","tool_use_id":"written-late"}');
    assert.equal(pass().logged, 1);
    assert.ok(toolIds().includes('written-late'));
  });

  test('a payload whose hook is still writing it is never taken, however long ago it last changed', async () => {
    // An agent that stalls while it pipes the payload: `cat` holds the file open and writes the rest later.
    const child = spawn('/bin/sh', ['-c', hookCommand('claude-code', 'PostToolUse')], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: path.dirname(ws.home), CONTEXT_DECK_HOME: ws.home },
    });
    const exited = new Promise((resolve) => child.on('close', resolve));
    try {
      const payload = JSON.stringify(toolEvent('written-after-a-stall'));
      child.stdin.write(payload.slice(0, 40));
      await until(() => {
        const names = fs.existsSync(events) ? spooled() : [];
        return names.length === 1 && fs.statSync(path.join(events, names[0])).size === 40;
      }, 'the first bytes');
      const file = path.join(events, spooled()[0]);
      const longAgo = new Date(Date.now() - STALE_MS - 60_000);
      fs.utimesSync(file, longAgo, longAgo);
      assert.deepEqual(drainSpool(ws.home), { logged: 0, dropped: 0, waiting: 1, more: false });
      assert.deepEqual(spooled(), [path.basename(file)], 'left where its hook writes it');
      child.stdin.end(payload.slice(40));
      await exited;
      assert.equal(drainSpool(ws.home).logged, 1);
      assert.deepEqual(
        toolIds(),
        ['written-after-a-stall'],
        'whole: nothing written after the stall is lost',
      );
    } finally {
      child.kill();
    }
  });

  test('payloads no one can read, and spool names that are no file, are rejected lines with their reasons', async () => {
    fs.mkdirSync(events, { recursive: true, mode: 0o700 });
    const cut = path.join(events, '99999944-0.spool');
    fs.writeFileSync(cut, '{"hook_event_name":"PostToolUse","cwd":', { mode: 0o600 });
    const old = new Date(Date.now() - STALE_MS - 60_000);
    fs.utimesSync(cut, old, old);
    assert.equal(spawnSync('mkfifo', [path.join(events, '99999944-1.spool')]).status, 0);
    fs.mkdirSync(path.join(events, '99999944-2.spool'));
    drainSpool(ws.home);
    // Set aside: no later pass lists them again.
    assert.deepEqual(spooled().sort(), ['99999944-1.spool.not-a-file', '99999944-2.spool.not-a-file']);
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      const ingested = await engine.ingest();
      assert.equal(ingested.foreign, 0, 'none is lost as another project’s');
      const reasons = engine.rejects().map((reject) => reject.reason);
      assert.equal(reasons.length, 3, reasons.join('\n'));
      assert.ok(
        reasons.some((reason) => /could not read this payload: not JSON/.test(reason)),
        reasons.join('\n'),
      );
      assert.ok(reasons.some((reason) => /99999944-1\.spool is a named pipe/.test(reason)));
      assert.ok(reasons.some((reason) => /99999944-2\.spool is a folder/.test(reason)));
    } finally {
      await engine.close();
    }
  });

  test('on Windows the hook output sits where Git Bash finds it from its working folder (/c/Users/…)', () => {
    assert.equal(
      hookOutputFile('/h', 'C:\\Users\\dev\\shop', 'win32'),
      path.join('/h', 'session-start', 'c', 'Users', 'dev', 'shop', 'hook-output.json'),
    );
  });

  test('VS Code running the hook of two hook files: the event is logged once', async () => {
    const command = hookCommand('vscode', 'PostToolUse');
    const event = JSON.stringify({
      ...(JSON.parse(
        fs.readFileSync('test/fixtures/vscode/local/PostToolUse.run_in_terminal.json', 'utf8'),
      ) as Payload),
      cwd: ws.project,
    });
    for (let copy = 0; copy < 2; copy++) assert.equal((await runHook(command, event)).status, 0);
    assert.deepEqual(drainSpool(ws.home), { logged: 1, dropped: 1, waiting: 0, more: false });
    assert.equal(logLines().length, 1);
  });
});

describe('a drain stopped halfway', () => {
  /** Run one drain in its own process; with `crashAt`, it dies by SIGKILL there. */
  function drainIn(crashAt?: string, startAt = 0): Promise<{ signal: string | null; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [
        drainer('spoolDrainer'),
        ws.home,
        String(startAt),
        crashAt ?? '',
      ]);
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (_status, signal) => resolve({ signal, stdout }));
    });
  }

  for (const crashAt of ['claimed', 'checked', 'appended']) {
    test(`a drain killed once its file is ${crashAt}: the next drain logs every payload exactly once`, async () => {
      const ids = ['one', 'two', 'three'];
      // A VS Code event too: its duplicate claim, taken before the append, must not cost it after a crash.
      const vscode = {
        ...(JSON.parse(
          fs.readFileSync('test/fixtures/vscode/local/PostToolUse.run_in_terminal.json', 'utf8'),
        ) as Payload),
        cwd: ws.project,
        tool_use_id: 'vscode',
      };
      assert.equal((await runHook(hookCommand('vscode', 'PostToolUse'), JSON.stringify(vscode))).status, 0);
      await spool('codex', ids.map(toolEvent));
      const crashed = await drainIn(crashAt);
      assert.equal(crashed.signal, 'SIGKILL');
      drainSpool(ws.home);
      assert.deepEqual(toolIds().sort(), ['vscode', ...ids].sort());
      assert.deepEqual(spooled(), []);
    });
  }

  test('drains at the same moment (windows, the CLI) log each payload exactly once', async () => {
    const count = 300;
    await spool(
      'claude-code',
      Array.from({ length: count }, (_, i) => toolEvent(`t${i}`)),
    );
    const startAt = Date.now() + 1500;
    const results = await Promise.all(Array.from({ length: 6 }, () => drainIn(undefined, startAt)));
    const logged = results.map((r) => (JSON.parse(r.stdout) as { logged: number }).logged);
    assert.equal(
      logged.reduce((a, b) => a + b, 0),
      count,
    );
    const ids = toolIds();
    assert.equal(ids.length, count);
    assert.equal(new Set(ids).size, count);
    assert.deepEqual(spooled(), []);
  });

  test(
    'a full disk: the payload that did not fit stays spooled, and the next ingest logs it once',
    { skip: hasPrlimit ? false : 'needs prlimit (util-linux)' },
    async () => {
      const seeded = appendSession(ws.home, ws.project, 'before');
      const ids = ['p1', 'p2', 'p3'];
      await spool('claude-code', ids.map(toolEvent));
      const ingest = (roomBytes?: number) => {
        const cli = [process.execPath, shipped('cli'), 'ingest', '--home', ws.home, '--project', ws.project];
        const [command, ...args] =
          roomBytes === undefined ? cli : ['prlimit', `--fsize=${roomBytes}:unlimited`, ...cli];
        return spawnSync(command, args, { encoding: 'utf8' });
      };
      // Today's log file (the seeded session is in an old day's) has room for part of one line.
      ingest(200);
      assert.equal(spooled().length, ids.length, 'nothing taken from the spool that is not logged');
      const roomy = ingest();
      assert.equal(roomy.status, 0, roomy.stderr);
      assert.deepEqual(
        toolIds()
          .filter((id) => ids.includes(String(id)))
          .sort(),
        ids,
      );
      assert.deepEqual(spooled(), []);
      assert.equal(await savedEvents(ws.home, ws.project), seeded + ids.length);
    },
  );
});
