/**
 * Which agent sent a hook payload, and the payload in neutral form. Only the agents' payload readers are
 * imported here (no installers, parsers or databases): the recorder runs this on every hook call.
 */
import type { EventPayload } from '../events/eventLine';
import type { PayloadReader } from './adapter';
import { claudePayloads } from './claudeCode/payload';
import { clinePayloads } from './cline/payload';
import { codexPayloads } from './codex/payload';
import { copilotCliPayloads } from './copilotCli/payload';
import { opencodePayloads } from './opencode/payload';
import type { AgentEvent } from './types';
import { type AgentId, isAgentId } from '../../shared/agents';
import { vscodePayloads } from './vscode/payload';

/**
 * Every agent's payload reader, the same object as its adapter's `payloads` (kept here apart from the
 * adapters so the recorder loads no more than the readers; agentNames.test.ts holds the two lists together).
 */
export const PAYLOAD_READERS: readonly PayloadReader[] = [
  claudePayloads,
  vscodePayloads,
  codexPayloads,
  opencodePayloads,
  copilotCliPayloads,
  clinePayloads,
];

/** The order readers are asked in, most specific first: on a tie the earlier one wins. */
const ASKED_IN_ORDER = [...PAYLOAD_READERS].sort((a, b) => b.specificity - a.specificity);

function readerOf(agent: AgentId): PayloadReader | undefined {
  return PAYLOAD_READERS.find((reader) => reader.agent === agent);
}

/**
 * The agent a payload is from: the reader most certain of it, the recorder's tag (`hint`, from a line's
 * `_cd.agent` or the hook command's `--agent`) when no reader is certain, else undefined.
 */
function recogniseAgent(payload: EventPayload, hint?: unknown): AgentId | undefined {
  let best: AgentId | undefined;
  let bestScore = 0;
  for (const reader of ASKED_IN_ORDER) {
    const score = reader.recognise(payload);
    if (score > bestScore) {
      best = reader.agent;
      bestScore = score;
    }
  }
  return bestScore < 2 && isAgentId(hint) ? hint : best;
}

/** Whether the agent reads what the hook prints (the session-start context). */
export function readsHookOutput(agent: AgentId): boolean {
  return readerOf(agent)?.readsHookOutput !== false;
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
  return { agent, event: agent && readerOf(agent)?.normalise(payload) };
}

/** The payload as a neutral event, read by the agent it is recognised as; undefined when none knows it. */
export function normalisePayload(payload: EventPayload, hint?: unknown): AgentEvent | undefined {
  return readPayload(payload, hint).event;
}
