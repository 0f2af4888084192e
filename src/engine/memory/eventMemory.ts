/**
 * What an event means for the memory, worked out from its payload alone: a draft observation, or a forget
 * or restore of earlier ones. Pure data in and out, so it can run on a parse worker; the ObservationWriter
 * applies it in order on the thread that writes.
 */
import type { AgentEvent } from '../agents/types';
import type { EventPayload } from '../events/eventLine';
import { redactText, sliceSafe } from '../redact';
import { isObservationId } from './ids';
import { type DraftTemplate, analyseEvent, classifyText } from './summarise';
import { oneLine } from './text';
import { MEMORY_EVENTS, isObservationType } from './types';

/** An explicit save keeps this much of its text. */
export const MAX_SAVED_TEXT = 4000;

export type MemoryItem =
  /** `id` is set for explicit saves, which choose their id when written. */
  { draft: DraftTemplate; id?: string } | { forgotten: boolean; ids: string[] };

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
      const ids = Array.isArray(payload.ids) ? payload.ids.filter(isObservationId) : [];
      return ids.length > 0 ? { forgotten: kind === MEMORY_EVENTS.forget, ids } : undefined;
    }
    default:
      return undefined;
  }
}

function savedDraft(payload: EventPayload): DraftTemplate | undefined {
  const raw = typeof payload.text === 'string' ? payload.text : '';
  const text = redactText(sliceSafe(raw, MAX_SAVED_TEXT)).text.trim();
  if (!oneLine(text)) return undefined;
  return {
    type: isObservationType(payload.type) ? payload.type : classifyText(text, 'discovery'),
    source: 'saved',
    text,
    agentType: typeof payload.agent_type === 'string' ? payload.agent_type : null,
  };
}
