/**
 * The agents Context Deck works with, one adapter each. The engine and the host reach an agent's settings,
 * session files and tool config through this list; what sets an agent apart lives in its own folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentAdapter, TranscriptAdapter } from './adapter';
import { claudeCodeAdapter } from './claudeCode';
import { clineAdapter } from './cline';
import { codexAdapter } from './codex';
import { copilotCliAdapter } from './copilotCli';
import { opencodeAdapter } from './opencode';
import type { AgentId } from '../../shared/agents';
import { findOnPath } from './commandOnPath';
import { vscodeAdapter } from './vscode';

export const AGENT_ADAPTERS: readonly AgentAdapter[] = [
  claudeCodeAdapter,
  vscodeAdapter,
  codexAdapter,
  opencodeAdapter,
  copilotCliAdapter,
  clineAdapter,
];

export function adapterOf(id: AgentId): AgentAdapter | undefined {
  return AGENT_ADAPTERS.find((adapter) => adapter.id === id);
}

/** What says an agent is used here: paths that exist, or its command on PATH; empty when nothing does. */
export function agentTraces(
  id: AgentId,
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const traces = adapterOf(id)?.traces;
  if (!traces) return [];
  const found = [
    ...traces.project.map((name) => path.join(projectRoot, name)),
    ...traces.home.map((name) => path.join(userHome, name)),
  ].filter((candidate) => fs.existsSync(candidate));
  const command = traces.command && findOnPath(traces.command, env);
  return command ? [...found, command] : found;
}

/**
 * Every file an agent's hooks are written to for a project, in each of its scopes: what to watch so that
 * the connection state follows edits made outside Context Deck.
 */
export function hookSettingsFiles(projectRoot: string, userHome: string): string[] {
  const files = AGENT_ADAPTERS.flatMap((adapter) => {
    const hooks = adapter.hooks;
    return hooks ? hooks.scopes.map((scope) => hooks.settingsPath(scope, projectRoot, userHome)) : [];
  });
  return [...new Set(files)];
}

export const TRANSCRIPT_ADAPTERS: readonly TranscriptAdapter[] = AGENT_ADAPTERS.filter(
  (adapter): adapter is TranscriptAdapter => adapter.transcripts !== undefined,
);

/**
 * Where the agent compacts a context of `window` tokens, for the first of `models` it knows (a hint before
 * what the file recorded); an agent that says nothing uses its whole window.
 */
export function compactPoint(
  agent: AgentAdapter | undefined,
  window: number,
  models: ReadonlyArray<string | null | undefined> = [],
): number {
  const limits = agent?.contextLimits;
  if (!limits) return window;
  return limits.compactAt(
    window,
    models.find((model): model is string => typeof model === 'string'),
  );
}

/** The window the agent's catalogue gives the first of `models` it lists (a hint before what the file recorded). */
export function cataloguedWindow(
  agent: AgentAdapter | undefined,
  models: ReadonlyArray<string | null | undefined>,
): number | undefined {
  const windowOf = agent?.contextLimits?.windowOf;
  if (!windowOf) return undefined;
  for (const model of models) {
    const window = typeof model === 'string' ? windowOf(model) : undefined;
    if (window !== undefined) return window;
  }
  return undefined;
}

/**
 * How the agent's own display puts `tokens` of `window`, where it leaves a baseline out of both (Codex's
 * footer); undefined for an agent whose display counts as the gauge does.
 */
export function ownDisplay(
  agent: AgentAdapter | undefined,
  tokens: number,
  window: number,
): { percentLeft: number; baseline: number } | undefined {
  const baseline = agent?.contextLimits?.displayBaseline;
  if (baseline === undefined || window <= baseline) return undefined;
  const left = window - baseline - Math.max(tokens - baseline, 0);
  return { percentLeft: Math.max(0, Math.round((left / (window - baseline)) * 100)), baseline };
}
