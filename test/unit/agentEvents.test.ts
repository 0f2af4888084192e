/**
 * Each agent end to end: its real (or documented) hook payloads through the real recorder process, then
 * ingest, then the rows, the memory and the per-agent counts a user sees.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine/projectEngine';
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

async function openEngine() {
  return ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
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
      const texts = engine.db
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
      const session = engine.db.get('SELECT agent, model FROM sessions');
      assert.equal(session?.agent, 'vscode');
    } finally {
      await engine.close();
    }
  });
});
