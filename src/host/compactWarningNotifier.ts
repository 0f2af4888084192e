import * as vscode from 'vscode';
import {
  agentHintDue,
  agentHintText,
  agentHintWaiting,
  CompactWarnings,
  compactWarning,
  type GaugeReading,
  leaveAgentHint,
  warningLevel,
  type ContextTypes,
} from '../engine';
import type { LiveProject } from './project/liveProject';
import { runCommand } from './editor/registerCommands';
import type { Log } from './editor/log';
import { shortMessage } from './views/errorText';
import type { Projects } from './project/projects';
import { currentSettings } from './editor/settings';

const COMPACT_NOW = 'Compact now with focus';
const SHOW_WHAT_FILLS_IT = 'Show what fills it';
const NOT_FOR_THIS_SESSION = 'Not for this session';

/**
 * A notification when a live session is about to compact (compactWarning decides), with the actions that
 * act on it: the user need not be looking at the sidebar. With `tellAgent` on, a line for the agent too.
 */
export class CompactWarningNotifier implements vscode.Disposable {
  private readonly warnings = new CompactWarnings();
  /** The prompt count at which each session (and compaction) was last handed a line. */
  private readonly toldAgentAt = new Map<string, number>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly projects: Projects,
    private readonly log: Log,
  ) {
    this.subscription = projects.onDidChange(() => this.check());
  }

  private check(): void {
    const config = currentSettings();
    const settings = {
      enabled: config['compactWarning.enabled'],
      promptsLeft: config['compactWarning.promptsLeft'],
      percent: config['compactWarning.percent'],
    };
    const tellAgent = config['compactWarning.tellAgent'];
    if (!settings.enabled && !tellAgent) return;
    const now = Date.now();
    for (const live of this.projects.all) {
      const reading = live.gauge.reading();
      if (!reading) continue;
      const input: ContextTypes.CompactWarningInput = {
        session: reading.sessionId ?? reading.transcript,
        compactions: reading.compactions.length,
        percent: reading.percent,
        updatedAt: reading.updatedAt,
        forecast: reading.forecast,
      };
      if (tellAgent) this.tellAgent(reading, input, settings, now);
      const warning = compactWarning(input, settings, this.warnings, now);
      if (!warning) continue;
      this.warnings.record(warning);
      this.log.info(`compact warning (${warning.level}) for ${live.name}: ${warning.message}`);
      void this.show(live, warning.session, warning.message);
    }
  }

  /** Leaves a line for the recorder to hand the agent at its next prompt, at most every few prompts. */
  private tellAgent(
    reading: GaugeReading,
    input: ContextTypes.CompactWarningInput,
    settings: ContextTypes.CompactWarningSettings,
    now: number,
  ): void {
    const sessionId = reading.sessionId;
    if (!sessionId || this.warnings.isMuted(input.session) || !warningLevel(input, settings, now)) return;
    const key = `${input.compactions}\u0000${sessionId}`;
    const home = this.projects.home;
    if (!agentHintDue(reading.prompts, this.toldAgentAt.get(key)) || agentHintWaiting(home, sessionId))
      return;
    const text = agentHintText(reading.percent, reading.forecast);
    if (!text) return;
    try {
      leaveAgentHint(home, sessionId, text);
      this.toldAgentAt.set(key, reading.prompts);
    } catch (error) {
      this.log.warn(`compact warning for the agent: ${shortMessage(error)}`);
    }
  }

  private async show(live: LiveProject, session: string, message: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(
      message,
      COMPACT_NOW,
      SHOW_WHAT_FILLS_IT,
      NOT_FOR_THIS_SESSION,
    );
    if (choice === COMPACT_NOW) {
      // The advice's own compact: its focus instructions, sent the way the dashboard's button sends them.
      this.projects.advice.view(live);
      await this.projects.advice.act(live, '', 'compact');
    } else if (choice === SHOW_WHAT_FILLS_IT) {
      await runCommand('contextDeck.showDashboard');
    } else if (choice === NOT_FOR_THIS_SESSION) {
      this.warnings.mute(session);
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
