/**
 * Which agent sent a hook payload, and the payload in neutral form. Only the agents' payload readers are
 * imported here (no installers, parsers or databases): the recorder runs this on every hook call.
 */
import type { EventPayload } from '../events/eventLine';
import type { PayloadReader } from './adapter';
import { claudePayloads } from './claudeCode/payload';
import { codexPayloads } from './codex/payload';
import { copilotCliPayloads } from './copilotCli/payload';
import { opencodePayloads } from './opencode/payload';
import type { AgentEvent } from './types';
import { type AgentId, isAgentId } from '../../shared/agents';
import { vscodePayloads } from './vscode/payload';

/** Most specific first: on a tie the earlier reader wins, and Claude Code's shape is shared by others. */
const READERS: ReadonlyArray<[AgentId, PayloadReader]> = [
  ['copilot-cli', copilotCliPayloads],
  ['vscode', vscodePayloads],
  ['codex', codexPayloads],
  ['opencode', opencodePayloads],
  ['claude-code', claudePayloads],
];

/**
 * The agent a payload is from: the reader most certain of it, the recorder's tag (`hint`, from a line's
 * `_cd.agent` or the hook command's `--agent`) when no reader is certain, else undefined.
 */
function recogniseAgent(payload: EventPayload, hint?: unknown): AgentId | undefined {
  let best: AgentId | undefined;
  let bestScore = 0;
  for (const [id, reader] of READERS) {
    const score = reader.recognise(payload);
    if (score > bestScore) {
      best = id;
      bestScore = score;
    }
  }
  return bestScore < 2 && isAgentId(hint) ? hint : best;
}

function readerOf(id: AgentId): PayloadReader {
  return READERS.find(([reader]) => reader === id)?.[1] ?? claudePayloads;
}

/** Whether the agent reads what the hook prints (the session-start context). */
export function readsHookOutput(agent: AgentId): boolean {
  return readerOf(agent).readsHookOutput !== false;
}

/**
 * Which agent sent the payload (see recogniseAgent), and the payload as a neutral event read by that agent's
 * reader; the event is undefined when the reader knows no such event.
 */
export function readPayload(
  payload: EventPayload,
  hint?: unknown,
): { agent: AgentId | undefined; event: AgentEvent | undefined } {
  const agent = recogniseAgent(payload, hint);
  return { agent, event: agent && readerOf(agent).normalise(payload) };
}

/** The payload as a neutral event, read by the agent it is recognised as; undefined when none knows it. */
export function normalisePayload(payload: EventPayload, hint?: unknown): AgentEvent | undefined {
  return readPayload(payload, hint).event;
}
