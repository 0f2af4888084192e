/**
 * Cline CLI 3.0 (the SDK CLI, `cline "prompt"`), connected with `context-deck hooks install`, against the
 * scripted model: what Context Deck shows is held against what Cline itself wrote of the same run (its
 * session folder, `~/.cline/data/sessions/<id>/`).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { installedCli, makeSandbox, run, type Run, type Sandbox } from './sandbox';
import { FINAL_REPORT, sessionScript, startScriptedModel, type ScriptedModel } from './scriptedModel';
import { ingest, nextContext, toolRows, type Gauge, type Status } from './session';

const cli = installedCli('cline');
let model: ScriptedModel;
let box: Sandbox;
let first: Run;

function cline(prompt: string): Promise<Run> {
  return run(cli.bin, ['--json', prompt], {
    cwd: box.project,
    // Local: no hub daemon started in the background to run later sessions in (it would listen on a port).
    env: { ...box.env, CLINE_SESSION_BACKEND_MODE: 'local' },
  });
}

before(async () => {
  box = makeSandbox('cline');
  const written = new Map<string, string>();
  model = await startScriptedModel(
    sessionScript({
      list: () => ({ name: 'run_commands', input: { commands: ['ls'] } }),
      write: (file, content) => {
        const target = path.join(box.project, file);
        const old = written.get(target);
        written.set(target, content);
        return {
          name: 'editor',
          input:
            old === undefined
              ? { path: target, new_text: content }
              : { path: target, old_text: old, new_text: content },
        };
      },
      run: (command) => ({ name: 'run_commands', input: { commands: [command] } }),
    }),
    // Half of each request read from cache: Cline's inputTokens hold it, and it must count once.
    { cachedShare: 0.5 },
  );
  const auth = await run(
    cli.bin,
    ['auth', '-p', 'openai-compatible', '-b', `${model.url}/v1`, '-k', 'sk-scripted', '-m', 'scripted-model'],
    { cwd: box.project, env: box.env },
  );
  assert.equal(auth.code, 0, auth.stderr);
  const connect = await box.contextDeck(['hooks', 'install', '--agent', 'cline', '--scope', 'project']);
  assert.equal(connect.code, 0, connect.stderr);
  first = await cline('Make greet.sh print hello and its check pass');
  await ingest(box);
});

after(async () => {
  await model?.close();
  if (process.env.KEEP_SANDBOX) console.log('sandbox kept:', box?.root);
  else box?.remove();
});

test(`Cline ${cli.version}: the whole session ran against the scripted model`, () => {
  assert.equal(first.code, 0, first.stderr);
  assert.ok(first.stdout.includes(FINAL_REPORT));
  assert.deepEqual(model.unanswered, []);
});

/** What Cline itself wrote of the session: its manifest and messages (`~/.cline/data/sessions/<id>/`). */
function clineSession(): { id: string; messages: Array<Record<string, unknown>> } {
  const root = path.join(box.home, '.cline', 'data', 'sessions');
  const [id] = fs.readdirSync(root);
  const file = path.join(root, id, `${id}.messages.json`);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: Array<Record<string, unknown>> };
  return { id, messages: doc.messages };
}

test("the hooks and Cline's session folder: its prompt, five tool calls and the failed check", async () => {
  const imported = await box.contextDeck(['import-transcripts']);
  assert.equal(imported.code, 0, imported.stderr);
  const status = await box.contextDeckJson<Status>(['status']);
  const { messages } = clineSession();
  const uses = messages.flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((block) => block.type === 'tool_use') : [],
  );
  assert.equal(uses.length, 5);
  assert.equal(status.sessions, 1);
  // Cline 3.0 runs no UserPromptSubmit hook for the CLI's prompt: the prompt comes from its session file.
  assert.equal(status.prompts, 1);
  assert.equal(status.toolCalls, uses.length);
  assert.equal(status.toolFailures, 1);
  const run = (await toolRows(box)).find((row) => row.name === 'run_commands');
  assert.deepEqual({ uses: run?.usesTotal, failures: run?.failures }, { uses: 3, failures: 1 });
});

test("the gauge follows Cline's session: the last request's input (its cached half once) and output, of 128,000", async () => {
  const gauge = await box.contextDeckJson<Gauge>(['gauge']);
  const { id, messages } = clineSession();
  assert.equal(gauge.sessionId, id);
  const metrics = messages.filter((message) => message.metrics).at(-1)?.metrics as Record<string, number>;
  assert.ok(metrics.cacheReadTokens > 0, 'the scripted model reported cached tokens');
  assert.equal(gauge.tokens, metrics.inputTokens + metrics.outputTokens);
  // Cline's window for an OpenAI-compatible model its settings say nothing of.
  assert.equal(gauge.window, 128_000);
});

test('the next session is handed the first after its first tool call (Cline 3.0 drops what TaskStart prints)', async () => {
  const context = await nextContext(box);
  assert.match(context, /## Previous Session/);
  assert.ok(context.includes(FINAL_REPORT), context);
  const seen = model.requests.length;
  const second = await cline('Is greet.sh fixed?');
  assert.equal(second.code, 0, second.stderr);
  const handed = model.requests.slice(seen).filter((request) => request.tools.length > 0);
  assert.ok(handed.length > 0);
  // CLI 3.0.65 runs TaskStart detached and ignores what it prints, so the context comes with the first tool result.
  assert.ok(!handed[0].text.includes('Previous Session'), 'not at the start: Connect says so');
  assert.ok(
    handed.slice(1).some((request) => request.text.includes('Previous Session')),
    'after the first tool call',
  );
});
