/**
 * Claude Code's own CLI (`claude -p`), connected with `context-deck hooks install`, against the scripted model:
 * what Context Deck shows is held against what Claude Code reports of the same run (its JSON result).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { installedCli, makeSandbox, run, type Run, type Sandbox } from './sandbox';
import { FINAL_REPORT, sessionScript, startScriptedModel, type ScriptedModel } from './scriptedModel';
import { ingest, nextContext, toolRows, type Gauge, type Status } from './session';

interface ClaudeResult {
  readonly session_id: string;
  readonly result: string;
  readonly modelUsage: Readonly<Record<string, { readonly contextWindow: number }>>;
}

const cli = installedCli('claude-code');
let model: ScriptedModel;
let box: Sandbox;
let first: ClaudeResult;

function claude(prompt: string): Promise<Run> {
  return run(cli.bin, ['-p', prompt, '--output-format', 'json', '--dangerously-skip-permissions'], {
    cwd: box.project,
    env: {
      ...box.env,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'sk-scripted',
      // Claude Code refuses to skip permissions as root unless told it runs in a sandbox, which it does here.
      IS_SANDBOX: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
  });
}

function parseResult(result: Run): ClaudeResult {
  assert.equal(result.code, 0, `claude -p exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as ClaudeResult;
}

before(async () => {
  model = await startScriptedModel(
    sessionScript({
      list: () => ({ name: 'Bash', input: { command: 'ls' } }),
      write: (file, content) => ({ name: 'Write', input: { file_path: file, content } }),
      run: (command) => ({ name: 'Bash', input: { command } }),
    }),
  );
  box = makeSandbox('claude-code');
  const connect = await box.contextDeck(['hooks', 'install', '--agent', 'claude-code', '--scope', 'project']);
  assert.equal(connect.code, 0, connect.stderr);
  first = parseResult(await claude('Make greet.sh print hello and its check pass'));
  await ingest(box);
});

after(async () => {
  await model?.close();
  box?.remove();
});

test(`Claude Code ${cli.version}: the whole session ran against the scripted model`, () => {
  assert.equal(first.result, FINAL_REPORT);
  assert.deepEqual(model.unanswered, []);
});

test('the hooks recorded the session: its prompt, five tool calls and the failed check', async () => {
  const status = await box.contextDeckJson<Status>(['status']);
  assert.equal(status.sessions, 1);
  assert.equal(status.prompts, 1);
  assert.equal(status.toolCalls, 5);
  assert.equal(status.toolFailures, 1);
  const bash = (await toolRows(box)).find((row) => row.name === 'Bash');
  assert.deepEqual({ uses: bash?.usesTotal, failures: bash?.failures }, { uses: 3, failures: 1 });
});

test("the gauge's window is the one Claude Code reports for its model; its tokens are the last request's input", async () => {
  const gauge = await box.contextDeckJson<Gauge>(['gauge']);
  assert.equal(gauge.sessionId, first.session_id);
  const [modelName, usage] = Object.entries(first.modelUsage)[0];
  assert.equal(gauge.model, modelName);
  assert.equal(gauge.window, usage.contextWindow);
  assert.equal(gauge.windowGuessed, false);
  // The context is what the last request sent (input plus cache, none here), as the usage Claude Code recorded.
  const last = model.requests.filter((request) => request.tools.length > 0).at(-1);
  assert.ok(last);
  assert.equal(gauge.tokens, last.usage.input);
});

test('the next session is handed the first: its ask and its final report, through the SessionStart hook', async () => {
  const context = await nextContext(box);
  assert.match(context, /## Previous Session/);
  assert.ok(context.includes(FINAL_REPORT), context);
  assert.ok(context.endsWith('\n'), 'the context printed ends with a newline');
  const seen = model.requests.length;
  parseResult(await claude('Is greet.sh fixed?'));
  const handed = model.requests.slice(seen).find((request) => request.tools.length > 0);
  assert.ok(handed?.text.includes('Previous Session'), 'the second session was sent the first one');
  // Claude Code records that context three times (two hook attachments, a request blob): it fills the window once.
  const gauge = await box.contextDeckJson<Gauge & { breakdown: { items: Array<{ kind: string }> } }>([
    'gauge',
  ]);
  assert.equal(gauge.breakdown.items.filter((item) => item.kind === 'hook_context').length, 1);
});

test('the hook commands Connect wrote are one short line each (Claude Code prints them at /compact)', () => {
  const settings = JSON.parse(
    fs.readFileSync(path.join(box.project, '.claude', 'settings.json'), 'utf8'),
  ) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
  };
  const commands = Object.values(settings.hooks).flatMap((groups) => groups.flatMap((group) => group.hooks));
  assert.ok(commands.length >= 5);
  for (const { command } of commands) assert.ok(command.length <= 160, command);
});
