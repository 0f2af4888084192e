import * as vscode from 'vscode';
import {
  nextSessionContextSteps,
  type ProjectEngine,
  runInSteps,
  type SelectionMode,
  SESSION_CONTEXT_BUDGET,
  type SessionContext,
  TOOL_SECTION_BUDGET,
} from '../../engine';
import type { NextContextView } from '../../shared/protocol';
import { type Log, shortMessage } from '../editor/log';
import { currentSettings } from '../editor/settings';

/** Ingests come in bursts while the agent works; the file is rewritten after a quiet moment. */
const REFRESH_DEBOUNCE_MS = 1500;
/** Recency moves with time and the tool registry changes on its own: refresh this often regardless. */
const REFRESH_INTERVAL_MS = 60_000;

function selectionMode(): SelectionMode {
  return currentSettings().contextSelection;
}

/**
 * Keeps the context the project's next session starts with current in `session-context.md` (which the
 * recorder prints at SessionStart), in the writing window: after a quiet moment once its inputs change, and
 * every minute. Holds the last one for the dashboard's gauge and the preview.
 */
export class SessionContextRefresher implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private readonly interval: NodeJS.Timeout;
  private last: SessionContext | null = null;
  private disposed = false;

  constructor(
    private readonly engine: ProjectEngine,
    private readonly log: Log,
    private readonly notify: () => void,
  ) {
    this.schedule(0);
    this.interval = setInterval(() => this.schedule(0), REFRESH_INTERVAL_MS);
  }

  /** Its inputs changed (an ingest, an import, a rescan): refresh soon. */
  schedule(delayMs = REFRESH_DEBOUNCE_MS): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delayMs);
  }

  /**
   * Assemble now, a query per task; the writer also writes the file. Returns what the next session receives.
   */
  async refresh(): Promise<SessionContext | null> {
    try {
      // The pipeline's last view (engine/project/derivedViews.ts), after a quiet moment: ingests come in bursts.
      const context = await runInSteps(nextSessionContextSteps(this.engine, selectionMode()));
      if (this.disposed) return this.last;
      this.last = context;
      this.notify();
    } catch (error) {
      this.log.warn(`session context of ${this.engine.identity.name}: ${shortMessage(error)}`);
    }
    return this.last;
  }

  view(): NextContextView | null {
    return this.last
      ? {
          chars: this.last.chars,
          budget: SESSION_CONTEXT_BUDGET,
          toolsChars: this.last.toolsChars,
          toolsBudget: TOOL_SECTION_BUDGET,
        }
      : null;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    clearInterval(this.interval);
  }
}
