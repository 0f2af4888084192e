import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { appendEvents, hookEvent, sessionEvents, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...argv, '--home', ws.home, '--project', ws.project], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('session-start context of a project', () => {
  test('ingest writes session-context.md from the memory and the registry; context --json reports it', async () => {
    const now = Date.now();
    const file = (name: string) => path.join(ws.project, 'src', name);
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: 'earlier',
        cwd: ws.project,
        startAt: now - 3 * 3_600_000,
        prompts: ['Add a retry policy to the API client'],
        tools: [
          { tool: 'Write', input: { file_path: file('retry.ts'), content: 'export const retries = 3;\n' } },
          {
            tool: 'Edit',
            input: {
              file_path: file('api.ts'),
              old_string: 'fetch(url)',
              new_string: 'withRetry(() => fetch(url))',
            },
          },
          { tool: 'Write', input: { file_path: file('gone.ts'), content: 'export {};\n' } },
          { tool: 'mcp__github__search_issues', input: { q: 'retry' } },
        ],
      }),
    );
    // As the project is now: retry.ts as the session left it, api.ts edited since, gone.ts deleted.
    fs.mkdirSync(path.join(ws.project, 'src'));
    for (const name of ['retry.ts', 'api.ts']) fs.writeFileSync(file(name), '');
    const sessionStart = new Date(now - 3 * 3_600_000);
    fs.utimesSync(file('retry.ts'), sessionStart, sessionStart);
    // A later session that only started and stopped has nothing to summarise: the one before is shown.
    appendEvents(ws.home, sessionEvents({ sessionId: 'empty', cwd: ws.project, startAt: now - 3_600_000 }));
    appendEvents(ws.home, [
      hookEvent('UserPromptSubmit', {
        session_id: 'now',
        cwd: ws.project,
        prompt: 'We decided to keep retries at three',
        at: now - 60_000,
      }),
    ]);
    fs.writeFileSync(
      path.join(ws.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }),
    );
    assert.equal((await cli('scan')).code, 0);
    const ingest = await cli('ingest');
    assert.equal(ingest.code, 0, ingest.stderr);

    const contextFile = path.join(ws.home, 'projects', identifyProject(ws.project).id, 'session-context.md');
    const text = fs.readFileSync(contextFile, 'utf8');
    assert.match(text, /^\[Context Deck - Session Context\]/);
    assert.match(
      text,
      /## Previous Session\nSession ended .*\nAsked: \[user\] Add a retry policy to the API client/,
    );
    assert.match(
      text,
      /## Recent Changes\n(- .*\n)*- \[tool\] "Created src\/retry\.ts \(1 line\)" \(\d+ hours? ago\)/,
    );
    assert.match(text, /- \[tool\] "Modified src\/api\.ts: .*\(changed since \d\d:\d\d UTC\)"/);
    // A file deleted since is never presented as current: the story says so, the recent changes leave it out.
    assert.match(text, /Changed: \[tool\] .*"src\/gone\.ts \(new\), deleted since"/);
    assert.equal(text.match(/gone\.ts/g)?.length, 1, text);
    assert.match(text, /## Available Tools\n- MCP: github \(project, 1x\)/);
    assert.ok(text.length <= 6000);

    const context = await cli('context', '--json');
    assert.equal(context.code, 0, context.stderr);
    const json = JSON.parse(context.stdout);
    assert.equal(json.text, text, 'the file holds exactly what the next session receives');
    assert.equal(json.chars, text.length);
    assert.ok(json.toolsChars > 0 && json.toolsChars <= 500);
    assert.deepEqual(json.sections.map((section: { title: string }) => section.title).slice(0, 2), [
      'Previous Session',
      'Recent Changes',
    ]);
    assert.equal((await cli('context', '--mode', 'reckless')).code, 2);
  });

  test('a project with no memory starts with a short welcome', async () => {
    const context = await cli('context', '--json');
    assert.equal(context.code, 0, context.stderr);
    assert.match(JSON.parse(context.stdout).text, /No memory for this project yet/);
  });
});
