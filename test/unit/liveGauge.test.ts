/**
 * The host's live gauge of one project (src/host/project/liveGauge.ts), run in Node with the real engine and
 * real files: it follows the project's newest session as the agent writes it, a new session (after `/clear`)
 * takes over, and the window set for the agent it follows is the one it uses.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { ProjectEngine } from '../../src/engine';
import { LiveGauge } from '../../src/host/project/liveGauge';
import { type Settings, readSettings } from '../../src/shared/settings';
import { tempWorkspace } from '../support/events';
import { type Line, toolTurnLines, transcriptPath, writeTranscript } from '../support/transcripts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let ws: ReturnType<typeof tempWorkspace>;
let claudeDir: string;
let engine: ProjectEngine;
let gauge: LiveGauge | undefined;
const previousClaudeDir = process.env.CLAUDE_CONFIG_DIR;
const log = { info: () => undefined, warn: () => undefined };

/** One tool call of session `sessionId` that left `tokens` in its context, `minutesAgo` minutes ago. */
function turn(sessionId: string, tokens: number, minutesAgo: number): Line[] {
  return toolTurnLines({
    sessionId,
    cwd: ws.project,
    turns: [
      {
        tool: 'Read',
        input: { file_path: 'a.ts' },
        resultChars: 400,
        tokens,
        at: Date.now() - minutesAgo * 60_000,
      },
    ],
  });
}

/** The gauge's view once `check` holds of it; fails after 10 s with what it showed. */
async function viewWhen(check: (view: NonNullable<ReturnType<LiveGauge['view']>>) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const view = gauge?.view();
    if (view && check(view)) return view;
    if (Date.now() > deadline)
      assert.fail(`the gauge shows ${JSON.stringify(view && [view.sessionId, view.percent])}`);
    await sleep(50);
  }
}

function startGauge(settings: Settings = readSettings(() => undefined)): void {
  gauge = new LiveGauge(
    engine,
    log,
    () => undefined,
    () => settings,
  );
}

beforeEach(async () => {
  ws = tempWorkspace();
  claudeDir = path.join(ws.home, 'claude');
  process.env.CLAUDE_CONFIG_DIR = claudeDir;
  engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
});

afterEach(async () => {
  gauge?.dispose();
  gauge = undefined;
  await engine.close();
  if (previousClaudeDir === undefined) delete process.env.CLAUDE_CONFIG_DIR;
  else process.env.CLAUDE_CONFIG_DIR = previousClaudeDir;
  ws.cleanup();
});

describe('the live gauge of a project', () => {
  test('follows the session as each turn is written, and the new session after /clear', async () => {
    const first = transcriptPath(claudeDir, ws.project, 'first');
    writeTranscript(first, turn('first', 50_000, 3));
    startGauge();
    assert.equal((await viewWhen((view) => view.percent === 25)).sessionId, 'first');

    writeTranscript(first, turn('first', 80_000, 2));
    await viewWhen((view) => view.percent === 40);

    // `/clear` starts a new transcript beside the old one: the gauge follows it without being told.
    const second = transcriptPath(claudeDir, ws.project, 'second');
    writeTranscript(second, turn('second', 10_000, 1));
    const view = await viewWhen((shown) => shown.sessionId === 'second');
    assert.equal(view.percent, 5);
    assert.equal(view.agent, 'claude-code');
  });

  test('the window set for the agent it follows wins over the one for all agents', async () => {
    writeTranscript(transcriptPath(claudeDir, ws.project, 'only'), turn('only', 50_000, 1));
    startGauge(
      readSettings((key) =>
        key === 'agentContextWindows'
          ? { 'claude-code': 400_000, codex: 100_000 }
          : key === 'contextWindow'
            ? 250_000
            : undefined,
      ),
    );
    const view = await viewWhen((shown) => shown.sessionId === 'only');
    assert.equal(view.window, 400_000);
    assert.equal(view.percent, 12.5);
  });
});
