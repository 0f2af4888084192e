/**
 * opencode's own CLI (`opencode run`), connected with `context-deck hooks install` (its plugin), against the
 * scripted model through an `@ai-sdk/openai-compatible` provider declared in the project's opencode.json:
 * what Context Deck shows is held against opencode's own store of the same run (`opencode export`).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { installedCli, makeSandbox, run, type Run, type Sandbox } from './sandbox';
import { FINAL_REPORT, sessionScript, startScriptedModel, type ScriptedModel } from './scriptedModel';
import { ingest, nextContext, toolRows, type Gauge, type Status } from './session';

const cli = installedCli('opencode');
const WINDOW = 128_000;
let model: ScriptedModel;
let box: Sandbox;
let firstRun: Run;

function opencode(args: readonly string[]): Promise<Run> {
  return run(cli.bin, args, {
    cwd: box.project,
    env: {
      ...box.env,
      // opencode run takes its project from PWD, which the sandbox's env inherited from the caller.
      PWD: box.project,
      SCRIPTED_API_KEY: 'sk-scripted',
      // Nothing but 127.0.0.1 is reachable: no models.dev catalogue, no update check, no LSP downloads.
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    },
  });
}

function session(prompt: string): Promise<Run> {
  return opencode(['run', '--model', 'scripted/scripted-model', '--format', 'json', '--print-logs', prompt]);
}

before(async () => {
  box = makeSandbox('opencode');
  model = await startScriptedModel(
    sessionScript({
      list: () => ({ name: 'bash', input: { command: 'ls', description: 'List files' } }),
      write: (file, content) => ({
        name: 'write',
        input: { filePath: path.join(box.project, file), content },
      }),
      run: (command) => ({ name: 'bash', input: { command, description: 'Run the check' } }),
    }),
  );
  fs.writeFileSync(
    path.join(box.project, 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      permission: { edit: 'allow', bash: 'allow', webfetch: 'deny' },
      provider: {
        scripted: {
          npm: '@ai-sdk/openai-compatible',
          name: 'Scripted',
          options: { baseURL: `${model.url}/v1`, apiKey: '{env:SCRIPTED_API_KEY}' },
          models: { 'scripted-model': { name: 'Scripted model', limit: { context: WINDOW, output: 8_192 } } },
        },
      },
    }),
  );
  const connect = await box.contextDeck(['hooks', 'install', '--agent', 'opencode', '--scope', 'project']);
  assert.equal(connect.code, 0, connect.stderr);
  firstRun = await session('Make greet.sh print hello and its check pass');

  await ingest(box);
});

after(async () => {
  await model?.close();
  if (!process.env.KEEP_SANDBOX) box?.remove();
});

test(`opencode ${cli.version}: the whole session ran against the scripted model`, () => {
  assert.equal(firstRun.code, 0, firstRun.stderr.slice(-4000));
  assert.ok(firstRun.stdout.includes(FINAL_REPORT), firstRun.stdout.slice(-2000));
  assert.deepEqual(model.unanswered, []);
});

test('the plugin recorded the session: five tool calls and the failed check', async () => {
  const status = await box.contextDeckJson<Status>(['status']);
  assert.equal(status.sessions, 1);
  assert.equal(status.toolCalls, 5);
  assert.equal(status.toolFailures, 1);
  const bash = (await toolRows(box)).find((row) => row.name === 'bash');
  assert.deepEqual({ uses: bash?.usesTotal, failures: bash?.failures }, { uses: 3, failures: 1 });
});

// A known gap of issue 48 point 4, run and reported, not yet fixed: the plugin's idle Stop gives the next
// context no Previous Session.
test("the gauge's window is opencode.json's limit.context", async () => {
  const gauge = await box.contextDeckJson<Gauge>(['gauge']);
  assert.equal(gauge.window, WINDOW);
});

test("opencode's title request is not sent the session context", () => {
  const sideRequests = model.requests.filter((request) => request.tools.length === 0);
  for (const request of sideRequests) assert.ok(!request.text.includes('Context Deck - Session Context'));
});

test(
  'the next session is handed the first',
  { todo: "opencode's idle Stop gives no Previous Session yet" },
  async () => {
    const context = await nextContext(box);
    assert.match(context, /## Previous Session/);
    assert.ok(context.includes(FINAL_REPORT), context);
    const seen = model.requests.length;
    const second = await session('Is greet.sh fixed?');
    assert.equal(second.code, 0, second.stderr.slice(-4000));
    const handed = model.requests.slice(seen).find((request) => request.tools.length > 0);
    assert.ok(handed?.text.includes('Previous Session'), 'the second session was sent the first one');
  },
);
