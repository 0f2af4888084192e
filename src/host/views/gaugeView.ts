/** The context gauge and its breakdown as the dashboard shows them: pure, tested without VS Code. */
import { type BreakdownItem, type GaugeReading, usageLevel, type ContextTypes } from '../../engine';
import { type AgentId, agentName } from '../../shared/agents';
import type { BreakdownView, GaugeView } from '../../shared/protocol';

/** Trend points sent to the dashboard. */
const TREND_POINTS = 60;
/** The largest items sent to the dashboard (the engine keeps more, for the advice). */
const ITEMS_SENT = 20;

function breakdownView(breakdown: ContextTypes.ContextBreakdown): BreakdownView {
  return {
    categories: breakdown.categories,
    autocompactAt: breakdown.autocompactAt,
    items: breakdown.items.slice(0, ITEMS_SENT).map((item) => ({
      id: item.id,
      kind: item.kind,
      label: item.label,
      tool: item.ref.tool ?? null,
      tokens: item.tokens,
      measured: item.measured,
      at: item.at,
      openable: canOpen(item),
    })),
    itemCount: breakdown.itemCount,
    fromContextCommand: breakdown.fromContextCommand,
  };
}

/** Whether a click on the item can open something (contextItemOpener.ts). */
function canOpen(item: BreakdownItem): boolean {
  return Boolean(item.ref.file || item.ref.server || item.ref.toolUseId);
}

/** A session's reading as the gauge shows it: the trend in percent of the window, its latest points only. */
export function gaugeView(agent: AgentId, reading: GaugeReading): GaugeView {
  const trend = reading.trend.slice(-TREND_POINTS);
  return {
    agent,
    sessionId: reading.sessionId,
    model: reading.model,
    transcript: reading.transcript,
    tokens: reading.tokens,
    window: reading.window,
    windowGuessed: reading.windowGuessed,
    percent: reading.percent,
    level: usageLevel(reading.percent),
    compactions: reading.compactions,
    compactedSinceUsage: reading.compactedSinceUsage,
    trend: trend.map((point) => Math.round((point.tokens / reading.window) * 1000) / 10),
    trendAt: trend.map((point) => point.at),
    updatedAt: reading.updatedAt,
    breakdown: breakdownView(reading.breakdown),
    forecast: reading.forecast,
    ownDisplay: reading.ownDisplay,
  };
}

/**
 * The line that says how the agent's own display differs, so a user comparing the two is not misled:
 * "Codex CLI itself shows 51% context left: it leaves out 12,000 tokens it keeps for its prompt and tools."
 */
export function ownDisplayText(agent: string, display: GaugeView['ownDisplay']): string | undefined {
  if (!display) return undefined;
  return (
    `${agentName(agent)} itself shows ${display.percentLeft}% context left: it leaves out ` +
    `${display.baseline.toLocaleString('en-US')} tokens it keeps for its prompt and tools.`
  );
}
