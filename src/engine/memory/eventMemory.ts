/**
 * What an event means for the memory, worked out from its payload alone: a draft observation, or a forget
 * or restore of earlier ones. Pure data in and out, so it can run on a parse worker; the ObservationWriter
 * applies it in order on the thread that writes.
 */
import type { AgentEvent } from '../agents/types';
import type { EventPayload } from '../events/eventLine';
import { redactText, sliceSafe } from '../redact';
import { isObservationId } from './ids';
import { type DraftTemplate, analyseEvent, classifyReport, classifyText } from './summarise';
import { oneLine } from './text';
import { MEMORY_EVENTS, isObservationType } from './types';

/** An explicit save keeps this much of its text. */
export const MAX_SAVED_TEXT = 4000;

export type MemoryItem =
  /** `id` is set for explicit saves, which choose their id when written. */
  | { draft: DraftTemplate; id?: string }
  | { forgotten: boolean; ids: string[] }
  /** The user keeps agents' notes as their own decisions. */
  | { kept: string[] };

/** What an agent's event means for the memory. */
export function analyseAgentEvent(event: AgentEvent): MemoryItem | undefined {
  const draft = analyseEvent(event);
  return draft && { draft };
}

/** What one of the memory's own events (a save, forget or restore) means for it. */
export function analyseMemoryEvent(payload: EventPayload, kind: string): MemoryItem | undefined {
  switch (kind) {
    case MEMORY_EVENTS.save: {
      const draft = savedDraft(payload);
      return draft && { draft, ...(isObservationId(payload.id) ? { id: payload.id } : {}) };
    }
    case MEMORY_EVENTS.forget:
    case MEMORY_EVENTS.restore: {
      const ids = observationIds(payload);
      return ids.length > 0 ? { forgotten: kind === MEMORY_EVENTS.forget, ids } : undefined;
    }
    case MEMORY_EVENTS.keep: {
      const ids = observationIds(payload);
      // Only the user keeps a note: a keep the agent's own server wrote would let it promote its words.
      return ids.length > 0 && payload.origin !== 'mcp' ? { kept: ids } : undefined;
    }
    default:
      return undefined;
  }
}

function observationIds(payload: EventPayload): string[] {
  return Array.isArray(payload.ids) ? payload.ids.filter(isObservationId) : [];
}

/**
 * A save: the user's note, or, saved through the MCP server, the agent's. An agent's note is never a
 * decision (not even when the agent asks for that type) until the user keeps it: an agent that read a
 * hostile page must not be able to plant an instruction into every later session.
 */
function savedDraft(payload: EventPayload): DraftTemplate | undefined {
  const raw = typeof payload.text === 'string' ? payload.text : '';
  const text = redactText(sliceSafe(raw, MAX_SAVED_TEXT)).text.trim();
  if (!oneLine(text)) return undefined;
  const agentType = typeof payload.agent_type === 'string' ? payload.agent_type : null;
  if (payload.origin === 'mcp') {
    const asked = isObservationType(payload.type) && payload.type !== 'decision' ? payload.type : undefined;
    return { type: asked ?? classifyReport(text, 'discovery'), source: 'agent-note', text, agentType };
  }
  return {
    type: isObservationType(payload.type) ? payload.type : classifyText(text, 'discovery'),
    source: 'saved',
    text,
    agentType,
  };
}
