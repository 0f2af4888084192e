import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { RECORDER_KEY, parseEventLine } from '../../src/engine/events/eventLine';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { LINE_CAP, MAX_DEPTH, MAX_VALUES, STRING_CAP, buildRecord } from '../../src/engine/log/hookRecord';
import { MAX_CONTEXT_CHARS } from '../../src/hook/sessionContextReader';
import { type Payload, allHookExamples, hookExample, tempWorkspace } from '../support/events';
import { tsNodeArgs } from '../support/processes';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the recorder from source in a child process with `input` on stdin. */
function runHook(
  home: string,
  input: string | Buffer | undefined,
  options: { env?: NodeJS.ProcessEnv; args?: string[]; keepStdinOpen?: boolean } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      tsNodeArgs('src/hook/main.ts', ...(options.args ?? ['--home', home])),
      {
        env: { ...process.env, CONTEXT_DECK_HOME: '', ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // A recorder that hangs fails its test (exit code null) instead of blocking the run.
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
    // The recorder may exit before reading everything (it never should, but a test must not die of EPIPE).
    child.stdin.on('error', () => undefined);
    if (input !== undefined) child.stdin.write(input);
    if (!options.keepStdinOpen) child.stdin.end();
  });
}

/** Run tasks with at most `limit` at a time (each recorder start under tsx costs a few hundred ms). */
async function pool<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  });
  await Promise.all(workers);
  return results;
}

function logFiles(home: string): string[] {
  const dir = path.join(home, 'events');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.jsonl'))
        .map((n) => path.join(dir, n))
    : [];
}

function logText(home: string): string {
  return logFiles(home)
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('');
}

function logLines(home: string): Payload[] {
  const text = logText(home);
  assert.ok(text === '' || text.endsWith('\n'), 'every line is complete');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const parsed = parseEventLine(line);
      assert.ok(parsed.ok, `line is a valid event object: ${line.slice(0, 200)}`);
      return parsed.payload;
    });
}

function cd(payload: Payload): Record<string, unknown> {
  return payload[RECORDER_KEY] as Record<string, unknown>;
}

async function ingest(home: string, folder: string) {
  const engine = await ProjectEngine.open({ home, folder, role: 'writer' });
  try {
    return await engine.ingest();
  } finally {
    await engine.close();
  }
}

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace('cd-recorder-');
});
afterEach(() => ws.cleanup());

describe('recorder: documented hook payloads', () => {
  test('every docs example is recorded as sent, stamped, and ingested without rejects', async () => {
    const examples = allHookExamples();
    assert.ok(examples.length >= 20, `found ${examples.length} examples`);
    const sent = examples.map(({ event, payload }) => ({ event, payload: { ...payload, cwd: ws.project } }));
    const runs = await pool(sent, 6, ({ payload }) => runHook(ws.home, JSON.stringify(payload)));
    runs.forEach((run, i) => {
      assert.equal(run.code, 0, `${sent[i].event}: ${run.stderr}`);
      assert.equal(run.stdout, '', `${sent[i].event} prints nothing (no session context exists)`);
    });

    const files = logFiles(ws.home);
    assert.equal(files.length, 1);
    assert.match(path.basename(files[0]), /^\d{4}-\d{2}-\d{2}\.jsonl$/);
    const lines = logLines(ws.home);
    assert.equal(lines.length, examples.length);
    const byEvent = new Map(lines.map((line) => [line.hook_event_name as string, line]));
    for (const { event, payload } of sent) {
      const line = byEvent.get(event);
      assert.ok(line, `${event} recorded`);
      const { [RECORDER_KEY]: meta, ...rest } = line;
      assert.deepEqual(rest, payload, `${event}: the payload is kept exactly`);
      const fields = meta as Record<string, unknown>;
      assert.equal(fields.agent, 'claude-code');
      assert.equal(fields.v, JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
      assert.match(String(fields.ts), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(path.basename(files[0]), `${String(fields.ts).slice(0, 10)}.jsonl`);
      assert.deepEqual(
        Object.keys(fields).sort(),
        ['agent', 'ts', 'v'],
        `${event}: nothing redacted or capped`,
      );
    }

    const result = await ingest(ws.home, ws.project);
    assert.equal(result.rejected, 0);
    assert.equal(result.events, examples.length);
  });
});

describe('recorder: SessionStart context', () => {
  function writeContext(folder: string, text: string, name = 'session-context.md'): string {
    const file = path.join(ws.home, 'projects', identifyProject(folder).id, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  }

  test('prints the project context as hookSpecificOutput, found from a sub-folder', async () => {
    const context = '# Context Deck\n\n## Recent Changes\n- Modified src/a.ts "quoted" (2 hours ago)\n';
    writeContext(ws.project, context);
    const sub = path.join(ws.project, 'packages', 'web');
    fs.mkdirSync(sub, { recursive: true });
    const run = await runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: sub }));
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context },
    });
    assert.equal(logLines(ws.home).length, 1, 'the event is recorded too');
  });

  test('after a compaction, the continuation; without one, the context', async () => {
    writeContext(ws.project, 'the next session');
    const start = (source: string) =>
      runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: ws.project, source }));
    const told = async (source: string) =>
      JSON.parse((await start(source)).stdout).hookSpecificOutput.additionalContext;
    assert.equal(await told('compact'), 'the next session', 'an engine of before wrote no continuation');
    writeContext(ws.project, 'the session that continues', 'session-context-compact.md');
    assert.equal(await told('compact'), 'the session that continues');
    assert.equal(await told('startup'), 'the next session');
  });

  test('the walk up stops at a repository’s own folder', async () => {
    writeContext(ws.project, 'outer');
    const inner = path.join(ws.project, 'vendor', 'other-repo');
    fs.mkdirSync(path.join(inner, '.git'), { recursive: true });
    const run = await runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: inner }));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
  });

  test('the nearest project wins', async () => {
    const inner = path.join(ws.project, 'inner');
    fs.mkdirSync(inner);
    writeContext(ws.project, 'outer');
    writeContext(inner, 'inner');
    const run = await runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: inner }));
    assert.equal(JSON.parse(run.stdout).hookSpecificOutput.additionalContext, 'inner');
  });

  test(`caps the context at ${MAX_CONTEXT_CHARS} characters`, async () => {
    writeContext(ws.project, 'x'.repeat(12_000));
    const run = await runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: ws.project }));
    assert.equal(run.code, 0);
    assert.equal(JSON.parse(run.stdout).hookSpecificOutput.additionalContext, 'x'.repeat(MAX_CONTEXT_CHARS));
  });

  test('prints nothing without a context file, or for other events when one exists', async () => {
    const none = await runHook(ws.home, JSON.stringify({ ...hookExample('SessionStart'), cwd: ws.project }));
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    writeContext(ws.project, 'context');
    const other = await runHook(
      ws.home,
      JSON.stringify({ ...hookExample('UserPromptSubmit'), cwd: ws.project }),
    );
    assert.equal(other.stdout, '');
    assert.equal(logLines(ws.home).length, 2);
  });
});

describe('recorder: hostile input', () => {
  const cases: Array<{ name: string; input: string | Buffer | undefined; error: RegExp }> = [
    { name: 'empty stdin', input: undefined, error: /empty input/ },
    { name: 'whitespace', input: ' \n\t', error: /empty input/ },
    { name: 'not JSON', input: 'hello {not json', error: /^not JSON/ },
    { name: 'truncated JSON', input: '{"hook_event_name": "Stop", "cwd": ', error: /^not JSON/ },
    { name: 'a JSON array', input: '[{"hook_event_name":"Stop"}]', error: /not a JSON object but an array/ },
    { name: 'a JSON number', input: '42', error: /not a JSON object but a number/ },
    { name: 'JSON null', input: 'null', error: /not a JSON object but null/ },
    {
      name: 'binary',
      input: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)),
      error: /^not JSON/,
    },
  ];

  test('each is recorded as exactly one valid, ingestible line; exit 0; silent stdout', async () => {
    const runs = await pool(cases, 4, async (c) => {
      const { home, cleanup } = tempWorkspace('cd-hostile-');
      try {
        const run = await runHook(home, c.input);
        return { run, lines: logLines(home), text: logText(home), home, cleanup };
      } catch (error) {
        cleanup();
        throw error;
      }
    });
    try {
      for (const [i, c] of cases.entries()) {
        const { run, lines, text, home } = runs[i];
        assert.equal(run.code, 0, `${c.name}: ${run.stderr}`);
        assert.equal(run.stdout, '', c.name);
        assert.equal(lines.length, 1, `${c.name}: one line`);
        assert.equal(text.split('\n').length, 2, `${c.name}: a single newline`);
        const meta = cd(lines[0]);
        assert.match(String(meta.error), c.error, c.name);
        assert.equal(meta.inputBytes, c.input === undefined ? 0 : Buffer.byteLength(c.input));
        assert.equal(typeof meta.ts, 'string');
        if (c.input !== undefined && String(c.input).trim() !== '') {
          assert.equal(typeof meta.unparsed, 'string', `${c.name}: the input is kept`);
          assert.ok(String(meta.unparsed).length <= 4096 + 64);
        }
        assert.ok(isUtf8(fs.readFileSync(logFiles(home)[0])), `${c.name}: the line is valid UTF-8`);
        const result = await ingest(home, ws.project);
        // A payload no project can be told from is shown as rejected, with why; nothing at all is nothing.
        const empty = String(meta.error) === 'empty input';
        assert.equal(result.rejected, empty ? 0 : 1, `${c.name}: rejected`);
        assert.equal(result.foreign, empty ? 1 : 0, `${c.name}: not lost as another project's`);
      }
    } finally {
      for (const r of runs) r.cleanup();
    }
  });

  test('a 5 MB tool_response is capped with its original size noted, and ingested', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const payload = {
      ...hookExample('PostToolUse'),
      cwd: ws.project,
      tool_name: 'Bash',
      tool_input: { command: 'cat big.log' },
      tool_response: { stdout: big, stderr: '', interrupted: false },
    };
    const whole = { ...payload, tool_use_id: 'toolu_whole', tool_response: big };
    const runs = await Promise.all([
      runHook(ws.home, JSON.stringify(payload)),
      runHook(ws.home, JSON.stringify(whole)),
    ]);
    for (const run of runs) {
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, '');
    }
    const text = logText(ws.home);
    const lines = logLines(ws.home);
    assert.equal(lines.length, 2);
    for (const line of text.split('\n').filter(Boolean)) assert.ok(Buffer.byteLength(line) <= LINE_CAP);
    const nested = lines.find((l) => l.tool_use_id === (payload as Payload).tool_use_id)!;
    const stdout = (nested.tool_response as Record<string, unknown>).stdout as string;
    assert.ok(stdout.startsWith('x'.repeat(STRING_CAP)));
    assert.match(stdout, /…\[truncated: 5242880 bytes in all\]$/);
    assert.equal((nested.tool_response as Record<string, unknown>).interrupted, false, 'siblings kept');
    assert.deepEqual(cd(nested).capped, [
      { path: 'tool_response.stdout', bytes: 5242880, kept: STRING_CAP, reason: 'length' },
    ]);
    const flat = lines.find((l) => l.tool_use_id === 'toolu_whole')!;
    assert.deepEqual(cd(flat).capped, [
      { path: 'tool_response', bytes: 5242880, kept: STRING_CAP, reason: 'length' },
    ]);

    const result = await ingest(ws.home, ws.project);
    assert.equal(result.rejected, 0);
    assert.equal(result.events, 2);
  });

  test('30 MB of `{}`: exit 0 within a 256 MB heap, and a capped marker instead of the payload', async () => {
    const input = `{"hook_event_name":"PostToolUse","cwd":${JSON.stringify(ws.project)},"tool_response":[${'{},'.repeat(10_000_000)}{}]}`;
    const run = await runHook(ws.home, input, {
      env: { NODE_OPTIONS: '--max-old-space-size=256', CONTEXT_DECK_HOOK_STDIN_TIMEOUT_MS: '60000' },
    });
    assert.equal(run.code, 0, run.stderr.slice(0, 300));
    const lines = logLines(ws.home);
    assert.equal(lines.length, 1);
    assert.match(String(cd(lines[0]).error), new RegExp(`more than ${MAX_VALUES} JSON values: not parsed`));
    assert.equal(cd(lines[0]).inputBytes, Buffer.byteLength(input));
    assert.ok(Buffer.byteLength(logText(ws.home)) <= LINE_CAP);
  });

  test('stdin that stays open: a whole payload is recorded at once (exit 0); with none, what arrived is recorded when the wait runs out', async () => {
    const started = Date.now();
    const whole = runHook(ws.home, JSON.stringify({ ...hookExample('Stop'), cwd: ws.project }), {
      keepStdinOpen: true,
      env: { CONTEXT_DECK_HOOK_STDIN_TIMEOUT_MS: '60000' },
    });
    const nothing = runHook(ws.home, undefined, {
      keepStdinOpen: true,
      env: { CONTEXT_DECK_HOOK_STDIN_TIMEOUT_MS: '400' },
    });
    const [stop, empty] = await Promise.all([whole, nothing]);
    assert.ok(Date.now() - started < 15_000, 'neither waits for the agent to close stdin');
    assert.equal(stop.code, 0, stop.stderr);
    // A read is still waiting on stdin, so Node could not exit: the recorder ends itself, and says why.
    assert.equal(empty.signal, 'SIGKILL');
    assert.match(empty.stderr, /stdin was still open after 400 ms: recorded what had arrived/);
    const lines = logLines(ws.home);
    assert.equal(lines.length, 2);
    const stopLine = lines.find((l) => l.hook_event_name === 'Stop');
    assert.ok(stopLine, 'the whole payload is recorded though stdin stayed open');
    assert.equal(cd(stopLine).timedOut, undefined);
    const emptyLine = lines.find((l) => l.hook_event_name === undefined)!;
    assert.equal(cd(emptyLine).timedOut, true);
    assert.match(String(cd(emptyLine).error), /empty input/);
  });

  test('stdin that stays open after part of a payload: the part is kept, marked as cut short', async () => {
    const text = JSON.stringify({ ...hookExample('Stop'), cwd: ws.project });
    const run = await runHook(ws.home, text.slice(0, 60), {
      keepStdinOpen: true,
      env: { CONTEXT_DECK_HOOK_STDIN_TIMEOUT_MS: '400' },
    });
    assert.equal(run.signal, 'SIGKILL');
    const [line] = logLines(ws.home);
    assert.equal(cd(line).timedOut, true);
    assert.match(String(cd(line).error), /not JSON/);
    assert.equal(cd(line).unparsed, text.slice(0, 60));
  });

  test('an unwritable home: nothing on stdout, exit 0', async () => {
    const file = path.join(ws.home, 'not-a-dir');
    fs.writeFileSync(file, '');
    const run = await runHook(file, JSON.stringify(hookExample('PostToolUse')));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /context-deck hook:/);
  });
});

describe('recorder: concurrency and location', () => {
  test('20 recorders at once append 20 complete lines', async () => {
    const padding = 'p'.repeat(60_000);
    const ids = Array.from({ length: 20 }, (_, i) => `toolu_${i}`);
    const runs = await Promise.all(
      ids.map((id) =>
        runHook(
          ws.home,
          JSON.stringify({
            ...hookExample('PostToolUse'),
            cwd: ws.project,
            tool_use_id: id,
            tool_response: padding,
          }),
        ),
      ),
    );
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const lines = logLines(ws.home);
    assert.equal(lines.length, 20);
    assert.deepEqual(lines.map((l) => l.tool_use_id).sort(), [...ids].sort());
    for (const line of lines) assert.equal(line.tool_response, padding);
    const result = await ingest(ws.home, ws.project);
    assert.deepEqual({ events: result.events, rejected: result.rejected }, { events: 20, rejected: 0 });
  });

  test('--home wins over CONTEXT_DECK_HOME, which is used without it', async () => {
    const envHome = path.join(ws.home, 'from-env');
    const argHome = path.join(ws.home, 'from-arg');
    const payload = JSON.stringify(hookExample('Stop'));
    await runHook(argHome, payload, { env: { CONTEXT_DECK_HOME: envHome } });
    assert.equal(logLines(argHome).length, 1);
    assert.equal(logFiles(envHome).length, 0);
    await runHook(argHome, payload, { env: { CONTEXT_DECK_HOME: envHome }, args: [] });
    assert.equal(logLines(envHome).length, 1);
    await runHook(argHome, payload, { args: [`--home=${argHome}`, '--agent', 'opencode'] });
    const lines = logLines(argHome);
    assert.equal(lines.length, 2);
    assert.equal(cd(lines[1]).agent, 'opencode');
  });
});

describe('recorder: secrets', () => {
  test('secrets never reach the event log', async () => {
    const mk = (prefix: string, n: number) =>
      prefix + 'Q7x' + Array.from({ length: n - 3 }, (_, i) => 'aB3dE5gH7jK9mN1pQ2'[i % 18]).join('');
    const secrets = {
      anthropic: mk('sk-ant-api03-', 90),
      github: mk('ghp_', 36),
      aws: 'AKIA' + 'Q7XZ3V5B7N9M2K4L',
      slack: 'xoxb-1234567890-' + mk('', 24),
      password: 'hunter2-correct-horse',
      fieldToken: 'field-token-value-123',
      privateNote: 'do not store this note',
      dbPassword: 'dbpw-s3cr3t',
    };
    const payload = {
      ...hookExample('PostToolUse'),
      cwd: ws.project,
      tool_name: 'Bash',
      tool_input: {
        command: `ANTHROPIC_API_KEY=${secrets.anthropic} curl -H "Authorization: token ${secrets.github}" x`,
        env: { api_token: secrets.fieldToken },
      },
      tool_response: {
        stdout: `aws ${secrets.aws}\nSLACK=${secrets.slack}\npassword: ${secrets.password}\npostgres://app:${secrets.dbPassword}@db/x`,
        stderr: `<private>${secrets.privateNote}</private>`,
      },
    };
    const prompt = {
      ...hookExample('UserPromptSubmit'),
      cwd: ws.project,
      prompt: `use ${secrets.github} please`,
    };
    const garbage = `not json ${secrets.anthropic} ${secrets.aws}`;
    const runs = await Promise.all([
      runHook(ws.home, JSON.stringify(payload)),
      runHook(ws.home, JSON.stringify(prompt)),
      runHook(ws.home, garbage),
    ]);
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    const text = logText(ws.home);
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!text.includes(secret), `${name} leaked into the event log`);
    }
    const lines = logLines(ws.home);
    const post = lines.find((l) => l.hook_event_name === 'PostToolUse')!;
    assert.equal(cd(post).redactions, 8);
    assert.match(text, /postgres:\/\/app:\[REDACTED:connection-string\]@db\/x/);
    assert.equal(cd(lines.find((l) => l.hook_event_name === 'UserPromptSubmit')!).redactions, 1);
    assert.equal(cd(lines.find((l) => l.hook_event_name === undefined)!).redactions, 2);
  });
});

describe('buildRecord (in process)', () => {
  const base = { receivedAt: new Date('2026-01-02T03:04:05.678Z'), agent: 'claude-code', version: '9.9.9' };
  const build = (value: unknown) => {
    const data = Buffer.from(JSON.stringify(value));
    return buildRecord({ ...base, data, totalBytes: data.length });
  };

  test('a line over the cap is cut largest field first, identifying fields kept', () => {
    const payload = {
      hook_event_name: 'PostToolUse',
      session_id: 's',
      cwd: '/w',
      tool_name: 'Write',
      tool_use_id: 't',
      tool_input: { file_path: '/w/a.ts', content: 'c'.repeat(60_000) },
      tool_response: {
        originalFile: 'o'.repeat(60_000),
        structuredPatch: Array.from({ length: 400 }, (_, i) => ({ line: i, text: 'p'.repeat(500) })),
      },
      notes: 'n'.repeat(60_000),
    };
    const record = build(payload);
    assert.ok(record.line.endsWith('\n'));
    assert.ok(Buffer.byteLength(record.line) - 1 <= LINE_CAP, `line of ${record.line.length}`);
    const parsed = JSON.parse(record.line) as Payload;
    for (const key of ['hook_event_name', 'session_id', 'cwd', 'tool_name', 'tool_use_id'] as const) {
      assert.equal(parsed[key], payload[key]);
    }
    assert.equal(record.event, 'PostToolUse');
    const capped = cd(parsed).capped as Array<{ path: string; reason: string; bytes: number }>;
    assert.ok(capped.length >= 1);
    assert.ok(capped.every((c) => c.reason === 'line'));
    assert.equal(capped[0].path, 'tool_response.structuredPatch', 'the largest field is cut first');
    assert.equal(typeof (parsed.tool_response as Payload).structuredPatch, 'string');
    assert.equal((parsed.tool_input as Payload).file_path, '/w/a.ts');
  });

  test('thousands of small fields: the line keeps the cap and what identifies the event', () => {
    const identifying = { hook_event_name: 'PostToolUse', session_id: 's', cwd: '/w', tool_name: 'Bash' };
    const fields = (count: number) => {
      const payload: Payload = { ...identifying };
      for (let i = 0; i < count; i++) payload[`f${i}`] = i;
      return payload;
    };
    const parsable = build(fields(150_000));
    assert.ok(Buffer.byteLength(parsable.line) - 1 <= LINE_CAP, `line of ${parsable.line.length}`);
    const kept = JSON.parse(parsable.line) as Payload;
    assert.deepEqual({ ...kept, _cd: undefined }, { ...identifying, _cd: undefined });
    assert.match(String(cd(kept).error), /line cap: only its identifying fields are kept/);
    assert.deepEqual([parsable.event, parsable.cwd], ['PostToolUse', '/w'], 'still routed to its project');

    const million = build(fields(1_000_000));
    assert.ok(Buffer.byteLength(million.line) - 1 <= LINE_CAP, `line of ${million.line.length}`);
    assert.match(String(cd(JSON.parse(million.line) as Payload).error), /JSON values: not parsed/);
  });

  test('nesting deeper than the bound becomes text; the line stays ingestible', () => {
    // Built as text: JSON.stringify itself would overflow the stack at this depth.
    const data = Buffer.from(
      `{"hook_event_name":"Stop","cwd":"/w","deep":${'['.repeat(5000)}"leaf"${']'.repeat(5000)}}`,
    );
    const record = buildRecord({ ...base, data, totalBytes: data.length });
    const parsed = parseEventLine(record.line.trimEnd());
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    const capped = cd(parsed.payload).capped as Array<{ reason: string }>;
    assert.equal(capped[0].reason, 'nesting');
    assert.ok(MAX_DEPTH < 256);
    assert.equal(capped.length, 1);
    const kept = (parsed.payload as Record<string, unknown>).deep;
    let node: unknown = kept;
    for (let i = 0; i < MAX_DEPTH - 1; i++) node = (node as unknown[])[0];
    assert.equal(typeof node, 'string');
    assert.ok((node as string).startsWith('[[[['), 'the rest is kept as JSON text');
  });

  test('a payload with its own _cd key gets ours, and says so', () => {
    const record = build({ hook_event_name: 'Stop', _cd: { ts: 'forged' } });
    const meta = cd(JSON.parse(record.line) as Payload);
    assert.equal(meta.ts, '2026-01-02T03:04:05.678Z');
    assert.equal(meta.reservedKeyReplaced, true);
  });

  test('input over the size limit is not parsed but noted', () => {
    const data = Buffer.from('{"a":1}');
    const record = buildRecord({ ...base, data, totalBytes: 40 * 1024 * 1024 });
    const meta = cd(JSON.parse(record.line) as Payload);
    assert.match(String(meta.error), /over the 32 MiB limit/);
    assert.equal(meta.inputBytes, 40 * 1024 * 1024);
  });

  test('the error note never quotes the input', () => {
    const secret = 'sk-ant-api03-' + 'aB3dE5gH7jK9mN1pQ2'.repeat(5);
    const data = Buffer.from(`${secret} tail`);
    const meta = cd(JSON.parse(buildRecord({ ...base, data, totalBytes: data.length }).line) as Payload);
    assert.ok(!String(meta.error).includes('sk-ant'), String(meta.error));
    assert.ok(!JSON.stringify(meta).includes(secret.slice(10)));
  });
});
