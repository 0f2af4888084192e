/**
 * The agent told too (a setting, off by default): when the forecast is under the warning threshold, the host
 * leaves one short line for the session, and the recorder hands it to the agent at the next prompt
 * (UserPromptSubmit's `additionalContext`), once: taking it removes it. The host leaves another only a few
 * prompts later.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ContextForecast } from '../../shared/context';

/** Lines waiting for the agent, one file per session, named by the session's id. */
export const AGENT_HINTS_DIR = 'agent-hints';
/** Prompts between two lines handed to the agent, at least. */
const AGENT_HINT_EVERY_PROMPTS = 3;
/** A line, not a text: it must not crowd the prompt it comes with. */
const MAX_HINT_CHARS = 400;
/** Session ids as agents write them (UUIDs and the like): anything else never names a file. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

function hintFile(home: string, sessionId: string): string | undefined {
  return SESSION_ID.test(sessionId) ? path.join(home, AGENT_HINTS_DIR, `${sessionId}.txt`) : undefined;
}

/**
 * The line for the agent: figures and our own words only. Nothing from the transcript (file names, commands),
 * which would hand the agent text that anyone who named a file wrote.
 */
export function agentHintText(percent: number, forecast: ContextForecast): string | undefined {
  if (forecast.stepsLeft === null) return undefined;
  const target = forecast.event === 'compact' ? 'compacts automatically' : 'is full';
  const prompts =
    forecast.promptsLeft === null
      ? ''
      : forecast.promptsLeft < 1
        ? ', within this prompt'
        : `, about ${Math.round(forecast.promptsLeft)} prompt(s)`;
  return (
    `Context Deck: this session's context is ${Math.round(percent)}% full and ${target} in about ` +
    `${forecast.stepsLeft} model call(s)${prompts} at this pace. Keep outputs and reads small, and bring the ` +
    'current step to a point that survives a compaction.'
  );
}

/** Whether another line is due: never told in this session, or told at least AGENT_HINT_EVERY_PROMPTS ago. */
export function agentHintDue(prompts: number, toldAtPrompt: number | undefined): boolean {
  return toldAtPrompt === undefined || prompts - toldAtPrompt >= AGENT_HINT_EVERY_PROMPTS;
}

/** Leaves the line for the recorder (written whole: a recorder never reads half of it). */
export function leaveAgentHint(home: string, sessionId: string, text: string): void {
  const file = hintFile(home, sessionId);
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, text, { mode: 0o600 });
  fs.renameSync(partial, file);
}

export function agentHintWaiting(home: string, sessionId: string): boolean {
  const file = hintFile(home, sessionId);
  return file !== undefined && fs.existsSync(file);
}

/**
 * The line left for the session, taken: renamed away first, so that of two recorders at once only one hands
 * it on. One failed rename (no line waiting) is all that a prompt without one costs.
 */
export function takeAgentHint(home: string, sessionId: string): string | undefined {
  const file = hintFile(home, sessionId);
  if (!file) return undefined;
  const taken = `${file}.${process.pid}.taken`;
  try {
    fs.renameSync(file, taken);
  } catch {
    return undefined;
  }
  try {
    return fs.readFileSync(taken, 'utf8').slice(0, MAX_HINT_CHARS);
  } finally {
    fs.rmSync(taken, { force: true });
  }
}
