/**
 * The packaged VSIX in a real VS Code (code-server) driven by headless Chromium: the dashboard shows the
 * counts of a seeded event log, follows new events live, and explains rejected lines.
 * Screenshots: test-output/e2e/dashboard/.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Frame } from 'playwright-core';
import { DEMO_SESSION, demoEvents, writeDemo } from '../support/demoWorkspace';
import { FIXTURES_DIR, type Payload, appendEvents, sessionEvents } from '../support/events';
import { REPO_ROOT } from '../support/processes';
import { expectedPercent, transcriptLines, transcriptPath, writeTranscript } from '../support/transcripts';
import { type Workbench, extensionOutput, launchWorkbench } from '../support/workbench';

const SCREENSHOTS = path.join(REPO_ROOT, 'test-output', 'e2e', 'dashboard');
const VSIX = path.join(REPO_ROOT, 'dist', 'context-deck.vsix');

/** What the dashboard should show, computed from the raw events rather than by the engine. */
function expectedCounts(events: Payload[]) {
  const kind = (event: Payload) => event.hook_event_name;
  const tools = events.filter(
    (event) => kind(event) === 'PostToolUse' || kind(event) === 'PostToolUseFailure',
  );
  return {
    events: events.length,
    sessions: new Set(events.map((event) => event.session_id)).size,
    toolCalls: tools.length,
    toolFailures: tools.filter((event) => kind(event) === 'PostToolUseFailure').length,
    prompts: events.filter((event) => kind(event) === 'UserPromptSubmit').length,
  };
}

async function countText(frame: Frame, name: string): Promise<string> {
  return (await frame.textContent(`[data-testid="count-${name}"]`))?.trim() ?? '';
}

async function waitForCounts(
  frame: Frame,
  expected: Record<string, number>,
  timeoutMs = 30_000,
): Promise<void> {
  const started = Date.now();
  let seen: Record<string, string> = {};
  while (Date.now() - started < timeoutMs) {
    seen = {};
    for (const name of Object.keys(expected)) seen[name] = await countText(frame, name);
    if (Object.entries(expected).every(([name, value]) => seen[name] === value.toLocaleString('en-US')))
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`dashboard counts ${JSON.stringify(seen)} never became ${JSON.stringify(expected)}`);
}

describe('dashboard in a real VS Code', () => {
  let root: string;
  let workbench: Workbench;
  let home: string;
  let project: string;
  let claudeDir: string;
  let seeded: Payload[];
  /** Every event appended to the log so far, valid or not counted by kind. */
  let recorded: Payload[];

  before(async () => {
    assert.ok(fs.existsSync(VSIX), `the packaged extension exists (${VSIX}); run npm run package`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-e2e-'));
    const now = Date.now();
    ({ home, project, claudeDir } = writeDemo(root, { now }));
    seeded = demoEvents(project, { now });
    recorded = [...seeded];
    fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
    workbench = await launchWorkbench({
      vsix: VSIX,
      workspace: project,
      env: { CONTEXT_DECK_HOME: home, CLAUDE_CONFIG_DIR: claudeDir },
      screenshotsDir: SCREENSHOTS,
    });
  });

  after(async () => {
    await workbench?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  test('shows the ingested counts of the event log', async () => {
    await workbench.openContainer('Context Deck');
    // Away from the activity bar, whose tooltip would cover the view in screenshots.
    await workbench.page.mouse.move(900, 500);
    const frame = await workbench.webviewFrame('[data-testid="count-events"]', 60_000);
    await waitForCounts(frame, { ...expectedCounts(seeded), rejected: 1 });
    await workbench.screenshot('01-ingested');
  });

  test('updates live when the agent appends events, without a reload', async () => {
    const frame = await workbench.webviewFrame('[data-testid="count-events"]');
    const more = sessionEvents({
      sessionId: 'live-session',
      cwd: project,
      startAt: Date.now(),
      prompts: ['live prompt'],
      tools: [{ tool: 'Read' }, { tool: 'Bash', error: 'Exit code 1' }, { tool: 'Edit' }],
    });
    appendEvents(home, more, 'live.jsonl');
    recorded.push(...more);
    await waitForCounts(frame, { ...expectedCounts(recorded), rejected: 1 });
    await workbench.screenshot('02-live-update');
  });

  test('megabytes of new activity are read in the catch-up process, and the counts follow', async () => {
    const frame = await workbench.webviewFrame('[data-testid="count-events"]');
    const backlog = sessionEvents({
      sessionId: 'backlog-live',
      cwd: project,
      startAt: Date.now(),
      prompts: Array.from({ length: 40 }, (_, i) => `backlog prompt ${i}`),
      tools: Array.from({ length: 4000 }, (_, i) => ({ tool: i % 3 ? 'Read' : 'Grep' })),
    });
    const file = appendEvents(home, backlog, 'backlog.jsonl');
    assert.ok(fs.statSync(file).size > 1024 * 1024, 'a backlog above the catch-up threshold (1 MiB)');
    recorded.push(...backlog);
    await waitForCounts(frame, { ...expectedCounts(recorded), rejected: 1 }, 60_000);
    // The counts show from the child's progress; its end (fold, save, exit, read back) is logged a moment later.
    const readInChild = /ingest .* events, .* in the catch-up process \(peak RSS \d+(\.\d)? MB\)/;
    for (let waited = 0; !readInChild.test(extensionOutput(workbench)) && waited < 30_000; waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    assert.match(extensionOutput(workbench), readInChild);
    // The packaged warm-up worker compiled sql.js's first statements before the host ran them.
    assert.match(extensionOutput(workbench), /sql\.js's code compiled on a warm-up worker in \d+ ms/);
  });

  test('Connect Claude Code from the dashboard shows the change, then writes the settings file', async () => {
    const frame = await workbench.webviewFrame('[data-testid="connect-agent"]');
    await frame.click('[data-testid="connect-agent"]');
    const page = workbench.page;
    const agent = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Claude Code' });
    await agent.first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('03-connect-agents');
    await agent.first().click();
    const scope = page.locator('.quick-input-widget .monaco-list-row', {
      hasText: 'This project, for the whole team',
    });
    await scope.waitFor({ timeout: 15_000 });
    await scope.click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    assert.match((await dialog.innerText()) ?? '', /add a Context Deck hook for SessionStart/);
    await workbench.screenshot('03-connect-confirm');
    await dialog
      .locator('a.monaco-button, button', { hasText: /^Connect$/ })
      .first()
      .click();

    const settingsFile = path.join(project, '.claude', 'settings.json');
    const deadline = Date.now() + 15_000;
    while (!fs.existsSync(settingsFile) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as {
      hooks: Record<string, unknown[]>;
    };
    assert.deepEqual(Object.keys(settings.hooks).sort(), [
      'PostCompact',
      'PostToolUse',
      'PostToolUseFailure',
      'PreCompact',
      'SessionEnd',
      'SessionStart',
      'Stop',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
    assert.ok(fs.existsSync(path.join(home, 'bin', 'hook.js')), 'the recorder has its stable copy');
    await frame.waitForSelector('[data-testid="connection-status"] .connected', { timeout: 15_000 });
    await workbench.screenshot('04-connected');
  });

  test('the context card shows what fills the window; a click opens the file read or the tool output', async () => {
    const frame = await workbench.webviewFrame('[data-testid="breakdown"]');
    await frame.waitForSelector('[data-testid="breakdown-bar"] rect');
    const categories = await frame
      .locator('[data-testid="breakdown-category"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')));
    assert.deepEqual(
      categories.filter((name) => ['messages', 'free_space', 'autocompact_buffer'].includes(name ?? '')),
      ['messages', 'free_space', 'autocompact_buffer'],
      'the conversation, the room left and the buffer are named, as text beside the bar',
    );
    // The demo's largest item is its first test run's log, then the big file it read.
    const items = frame.locator('[data-testid="breakdown-item"]');
    assert.match(await items.nth(0).innerText(), /^\$ npm test · Bash\s+\d+k\s+\d+%$/);
    assert.match(await items.nth(1).innerText(), /^src\/legacyReport\.ts · Read/);
    await workbench.screenshot('05-breakdown');

    await items.nth(1).locator('button').click();
    const tab = (name: string) => workbench.page.locator('.tabs-container .tab', { hasText: name });
    await tab('legacyReport.ts').waitFor({ timeout: 15_000 });
    await items.nth(0).locator('button').click();
    await tab('Bash result').waitFor({ timeout: 15_000 });
    const editor = workbench.page.locator('.editor-instance .view-lines').first();
    await editor.locator('text=> npm test').first().waitFor({ timeout: 15_000 });
    await workbench.screenshot('06-tool-output-opened');
  });

  test('the context gauge shows the live session’s usage and follows it as the transcript grows', async () => {
    const transcript = transcriptPath(claudeDir, project, DEMO_SESSION);
    const frame = await workbench.webviewFrame('[data-testid="gauge-percent"]');
    const statusItem = workbench.page.locator('.statusbar-item', { hasText: /ctx \d+%/ });
    const waitForPercent = async (expected: number) => {
      const deadline = Date.now() + 15_000;
      let shown = '';
      while (Date.now() < deadline) {
        shown = (await frame.textContent('[data-testid="gauge-percent"]'))?.trim() ?? '';
        const status =
          (await statusItem
            .first()
            .textContent()
            .catch(() => '')) ?? '';
        if (shown === `${expected}%` && status.includes(`ctx ${Math.round(expected)}%`)) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      assert.fail(`gauge shows ${shown}, expected ${expected}%`);
    };
    const before = expectedPercent(transcript);
    assert.equal(before, 72);
    await waitForPercent(before);
    await workbench.screenshot('07-gauge');

    // The next response: 85% of the window; a subagent's (sidechain) line must not move the gauge.
    writeTranscript(transcript, [
      ...transcriptLines({
        sessionId: DEMO_SESSION,
        cwd: project,
        startAt: Date.now(),
        turns: [{ input: 2_000, cacheRead: 168_000 }],
      }),
      ...transcriptLines({
        sessionId: `${DEMO_SESSION}-sub`,
        cwd: project,
        startAt: Date.now(),
        turns: [{ input: 9_000, sidechain: true }],
      }),
    ]);
    await waitForPercent(expectedPercent(transcript));
    assert.equal(expectedPercent(transcript), 85);
    await workbench.screenshot('08-gauge-85');
  });

  test('the rejected count explains why a line was rejected', async () => {
    const frame = await workbench.webviewFrame('[data-testid="count-rejected"]');
    await frame.click('[data-testid="count-rejected"]');
    await frame.waitForSelector('[data-testid="reject-reason"]', { timeout: 15_000 });
    const reason = await frame.textContent('[data-testid="reject-reason"]');
    assert.match(reason ?? '', /not JSON/);
    await workbench.screenshot('09-rejects');
  });

  test('Profile the Extension Host records until stopped from the status bar and says what was ours', async () => {
    await workbench.runCommand('Context Deck: Profile the Extension Host (Developer)');
    const recording = workbench.page.locator('.statusbar-item', { hasText: 'Profiling extension host' });
    await recording.waitFor({ state: 'visible', timeout: 15_000 });
    await workbench.screenshot('10-profiling');
    // Some of our work while it records: the agent's next events, ingested and shown.
    appendEvents(home, [
      ...sessionEvents({
        sessionId: 'profiled',
        cwd: project,
        startAt: Date.now(),
        tools: [{ tool: 'Read' }],
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await recording.click();
    await recording.waitFor({ state: 'hidden', timeout: 15_000 });
    const line =
      /CPU profile \(started [^)]+\): over ([\d.]+) s .* Context Deck's code ran (\d+) ms .*; written to (\S+\.cpuprofile)/;
    let found: RegExpExecArray | null = null;
    for (let waited = 0; !(found = line.exec(extensionOutput(workbench))) && waited < 15_000; waited += 250)
      await new Promise((resolve) => setTimeout(resolve, 250));
    assert.ok(found, `no profile summary in the Output channel:\n${extensionOutput(workbench).slice(-2000)}`);
    assert.ok(Number(found[1]) >= 3, `the profile covers the time it recorded (${found[1]} s)`);
    assert.ok(Number(found[2]) > 0, 'the ingest it recorded ran our code');
    const profile = JSON.parse(fs.readFileSync(found[3], 'utf8')) as { nodes: unknown[]; samples: unknown[] };
    assert.ok(
      profile.nodes.length > 0 && profile.samples.length > 0,
      'DevTools can open the written profile',
    );
  });

  test('the installed package parses large backlogs and imports on its worker threads', () => {
    // The CLI beside the extension host in the installed package, on a backlog of its own.
    const installed = fs
      .readdirSync(workbench.extensionsDir)
      .find((name) => name.startsWith('context-deck.'));
    assert.ok(installed, 'the extension is installed');
    const dist = path.join(workbench.extensionsDir, installed, 'dist');
    assert.ok(fs.existsSync(path.join(dist, 'parseWorker.js')), 'the parse worker ships beside the host');
    // Its `--json` answer to one command.
    const installedCli = (...args: string[]): unknown =>
      JSON.parse(execFileSync(process.execPath, [path.join(dist, 'cli.js'), ...args], { encoding: 'utf8' }));
    const backlogHome = path.join(root, 'backlog-home');
    const backlog = sessionEvents({
      sessionId: 'backlog-session',
      cwd: project,
      startAt: Date.now(),
      prompts: Array.from({ length: 20 }, (_, i) => `backlog prompt ${i}`),
      tools: Array.from({ length: 200 }, (_, i) => ({ tool: i % 2 ? 'Edit' : 'Read' })),
    });
    appendEvents(backlogHome, backlog);
    const result = installedCli(
      'ingest',
      '--json',
      '--home',
      backlogHome,
      '--project',
      project,
      '--chunk-bytes',
      '4096',
    ) as { events: number; workerChunks: number };
    assert.equal(result.events, backlog.length);
    assert.ok(result.workerChunks > 0, `chunks parsed on the worker: ${result.workerChunks}`);

    // And a large import of past sessions (15.5 MB of real Claude Code sessions) on its transcript worker.
    assert.ok(fs.existsSync(path.join(dist, 'transcriptWorker.js')), 'the transcript worker ships too');
    const imported = installedCli(
      'import-transcripts',
      '--json',
      '--home',
      backlogHome,
      '--project',
      project,
      path.join(FIXTURES_DIR, 'claude-code-sessions'),
    ) as { toolCalls: number; problems: string[]; workerChunks: number };
    assert.deepEqual(imported.problems, []);
    assert.ok(imported.toolCalls > 900, `tool calls imported: ${imported.toolCalls}`);
    assert.ok(imported.workerChunks > 0, `chunks read on the worker: ${imported.workerChunks}`);
  });
});
