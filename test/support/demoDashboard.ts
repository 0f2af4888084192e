/** The demo's dashboard open in a real workbench in a given colour theme, for the e2e tests that look at it. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Frame } from 'playwright-core';
import { type DemoFolders, writeDemo } from './demoWorkspace';
import { REPO_ROOT } from './processes';
import { type Workbench, launchWorkbench } from './workbench';

export interface DemoDashboard {
  workbench: Workbench;
  frame: Frame;
  /** Its folders, for a test that adds activity while the dashboard is open. */
  demo: DemoFolders;
  /** Removes the workbench and the demo. */
  close(): Promise<void>;
}

/**
 * Launches the packaged extension on a fresh demo and waits until the dashboard shows tools and memory.
 * `userSettings` come on top of the colour theme (a font size, say).
 */
export async function openDemoDashboard(
  colorTheme: string,
  screenshots: string,
  userSettings: Record<string, unknown> = {},
): Promise<DemoDashboard> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-dashboard-'));
  const demo = writeDemo(root);
  fs.rmSync(screenshots, { recursive: true, force: true });
  const workbench = await launchWorkbench({
    vsix: path.join(REPO_ROOT, 'dist', 'context-deck.vsix'),
    workspace: demo.project,
    env: { CONTEXT_DECK_HOME: demo.home, CLAUDE_CONFIG_DIR: demo.claudeDir },
    userSettings: { 'workbench.colorTheme': colorTheme, ...userSettings },
    screenshotsDir: screenshots,
  });
  const close = async () => {
    await workbench.stop();
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    await workbench.openContainer('Context Deck');
    await workbench.page.mouse.move(900, 500);
    const frame = await workbench.webviewFrame('[data-testid="advice-command"]', 60_000);
    await frame.waitForSelector('[data-testid="tool-row"]', { timeout: 30_000 });
    await frame.waitForSelector('.memory-text', { timeout: 30_000 });
    return { workbench, frame, demo, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A real VS Code on `project` whose Claude Code history is in `claudeDir`, with Context Deck's home in `root`:
 * the set-up of the tests that import history from the dashboard.
 */
export function launchWithHistory(options: {
  root: string;
  project: string;
  claudeDir: string;
  screenshotsDir: string;
  userSettings?: Record<string, unknown>;
}): Promise<Workbench> {
  return launchWorkbench({
    vsix: path.join(REPO_ROOT, 'dist', 'context-deck.vsix'),
    workspace: options.project,
    env: { CONTEXT_DECK_HOME: path.join(options.root, 'home'), CLAUDE_CONFIG_DIR: options.claudeDir },
    userSettings: options.userSettings,
    screenshotsDir: options.screenshotsDir,
  });
}

/** Opens the dashboard, presses Import history and waits for the import's notification; the view's frame. */
export async function importHistoryFromDashboard(workbench: Workbench, timeoutMs: number): Promise<Frame> {
  await workbench.openContainer('Context Deck');
  // Away from the activity bar, whose tooltip would cover the view in screenshots.
  await workbench.page.mouse.move(900, 500);
  const frame = await workbench.webviewFrame('[data-testid="import-history"]', 60_000);
  await frame.click('[data-testid="import-history"]');
  await workbench.waitForNotification(/^Imported /, timeoutMs);
  return frame;
}
