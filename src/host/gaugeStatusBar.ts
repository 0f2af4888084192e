import * as vscode from 'vscode';
import { agentName } from '../shared/agents';
import { forecastText, tippingText } from '../shared/forecastText';
import type { UsageLevel } from '../shared/context';
import type { GaugeView } from '../shared/protocol';
import { relativeTime } from '../shared/relativeTime';
import { isSessionActive } from '../shared/sessionActivity';
import type { CommandId } from './editor/commandIds';
import type { Projects } from './project/projects';
import { ownDisplayText } from './views/gaugeView';

/** A session turns idle with time alone: look again this often. */
const IDLE_CHECK_MS = 60_000;

/** Text colour or background per band; the status bar only allows the warning and error backgrounds. */
const LOOK: Record<UsageLevel, { color?: string; background?: string; icon: string }> = {
  ok: { icon: 'pulse' },
  elevated: { color: 'charts.yellow', icon: 'pulse' },
  high: { background: 'statusBarItem.warningBackground', icon: 'pulse' },
  critical: { background: 'statusBarItem.errorBackground', icon: 'pulse' },
  compact: { background: 'statusBarItem.errorBackground', icon: 'warning' },
};

/** `ctx 72%` for the most recently active session of the open projects; opens the dashboard. */
export class GaugeStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'contextDeck.gauge',
    vscode.StatusBarAlignment.Right,
    100,
  );
  private readonly subscription: vscode.Disposable;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly projects: Projects) {
    this.item.name = 'Context Deck: context window';
    this.item.command = 'contextDeck.showDashboard' satisfies CommandId;
    this.subscription = projects.onDidChange(() => this.update());
    this.timer = setInterval(() => this.update(), IDLE_CHECK_MS);
  }

  private current(): GaugeView | undefined {
    return this.projects.all
      .map((live) => live.gauge.view())
      .filter((gauge): gauge is GaugeView => gauge !== null)
      .sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0))[0];
  }

  update(): void {
    const gauge = this.current();
    if (!gauge) {
      this.item.hide();
      return;
    }
    const now = Date.now();
    if (!isSessionActive(gauge.updatedAt, now)) {
      // An old session's fill level is history, not a warning.
      this.item.text = '$(pulse) ctx idle';
      this.item.color = undefined;
      this.item.backgroundColor = undefined;
      this.item.tooltip = `No active ${agentName(gauge.agent)} session. The last one was ${gauge.percent}% full, last active ${
        gauge.updatedAt === null ? 'at an unknown time' : relativeTime(gauge.updatedAt, now)
      }. Click to open the Context Deck dashboard.`;
      this.item.accessibilityInformation = { label: 'No active agent session', role: 'button' };
      this.item.show();
      return;
    }
    const look = LOOK[gauge.level];
    this.item.text = `$(${look.icon}) ctx ${Math.round(gauge.percent)}%`;
    this.item.color = look.color ? new vscode.ThemeColor(look.color) : undefined;
    this.item.backgroundColor = look.background ? new vscode.ThemeColor(look.background) : undefined;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**Context window: ${gauge.percent}%** · ${agentName(gauge.agent)}\n\n`);
    tooltip.appendText(
      `${gauge.tokens.toLocaleString('en-US')} of ${gauge.window.toLocaleString('en-US')} tokens` +
        (gauge.model ? ` · ${gauge.model}` : ''),
    );
    const own = ownDisplayText(gauge.agent, gauge.ownDisplay);
    if (own) tooltip.appendText(`\n${own}`);
    tooltip.appendText(`\n${forecastText(gauge.forecast)}`);
    const tipping = tippingText(gauge.forecast.tipping);
    if (tipping && gauge.forecast.stepsLeft !== null) tooltip.appendText(`\nGrowing it: ${tipping}`);
    if (gauge.compactions.length > 0)
      tooltip.appendText(`\nCompacted ${gauge.compactions.length}× this session`);
    if (gauge.compactedSinceUsage)
      tooltip.appendText('\nJust compacted: the next response shows the new size');
    if (gauge.level === 'compact') tooltip.appendText('\nCompact now: the context is nearly full');
    tooltip.appendMarkdown('\n\n$(dashboard) Click to open the Context Deck dashboard');
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = {
      label: `Context window ${Math.round(gauge.percent)} percent full`,
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.subscription.dispose();
    this.item.dispose();
  }
}
