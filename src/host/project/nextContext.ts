import {
  SESSION_CONTEXT_BUDGET,
  TOOL_SECTION_BUDGET,
  type ActivityTypes,
  type ContextTypes,
} from '../../engine';
import type { NextContextView } from '../../shared/protocol';

/**
 * The context the project's next session starts with, as the engine last assembled it (its view scheduler
 * keeps `session-context.md` current: after a quiet moment once its inputs change, and every minute): for
 * the dashboard's gauge and the preview.
 */
export class NextContext {
  private last: ContextTypes.SessionContext | null = null;

  constructor(private readonly views: () => ActivityTypes.ViewScheduler) {}

  /** What the engine assembled. */
  set(context: ContextTypes.SessionContext): void {
    this.last = context;
  }

  /** Assemble now (the preview shows exactly what the next session receives). */
  async refresh(): Promise<ContextTypes.SessionContext | null> {
    return (await this.views().contextNow()) ?? this.last;
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
}
