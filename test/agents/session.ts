/**
 * What every agent's scenario reads back from Context Deck's own CLI once the agent has run: the figures a user
 * sees on the dashboard (gauge, tools, counts) and the context the next session is handed.
 */
import type { Sandbox } from './sandbox';

export interface ToolRow {
  readonly name: string;
  readonly agents: readonly string[];
  readonly usesTotal: number;
  readonly failures: number;
}

export interface Status {
  readonly events: number;
  readonly sessions: number;
  readonly toolCalls: number;
  readonly toolFailures: number;
  readonly prompts: number;
  readonly agents: Readonly<Record<string, number>>;
}

export interface Gauge {
  readonly agent: string;
  readonly sessionId: string;
  readonly model: string | null;
  readonly tokens: number;
  readonly window: number;
  readonly percent: number;
  readonly windowGuessed: boolean;
  readonly latestPrompt: string | null;
  readonly forecast: { readonly at: number | null; readonly reason: string | null } | null;
}

/** Reads the recorded events in, as the extension does on its timer. */
export async function ingest(box: Sandbox): Promise<void> {
  const result = await box.contextDeck(['ingest']);
  if (result.code !== 0) throw new Error(`context-deck ingest exited ${result.code}: ${result.stderr}`);
}

export async function toolRows(box: Sandbox): Promise<ToolRow[]> {
  return box.contextDeckJson<ToolRow[]>(['tools', '--all']);
}

/** The next session's context, as `context-deck context` prints it (and writes it for the SessionStart hook). */
export async function nextContext(box: Sandbox): Promise<string> {
  const result = await box.contextDeck(['context']);
  if (result.code !== 0) throw new Error(`context-deck context exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}
