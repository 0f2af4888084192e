/**
 * The memory's writes. Readers (CLI, MCP server, any window) never write a database: they append an event
 * to the log, exactly as the recorder does, and the project's writer turns it into rows (see
 * ObservationWriter). So a save or a forget works the same whether VS Code runs or not.
 */
import { version } from '../../../package.json';
import { RECORDER_KEY } from '../events/eventLine';
import { appendEventLine } from '../events/eventLog';
import { redactText } from '../redact';
import { randomId } from './ids';
import { MAX_SAVED_TEXT } from './eventMemory';
import { MemoryQueryError } from './query';
import { clip } from './text';
import { MEMORY_EVENTS, type MemoryOrigin, type ObservationType } from './types';

/** Where a memory event goes: the home's event log, routed to the project by its root as `cwd`. */
export interface MemoryTarget {
  home: string;
  root: string;
}

/** To the same daily file the recorder uses, stamped like its lines. */
function appendEvent(target: MemoryTarget, payload: Record<string, unknown>, now: Date): void {
  const line = `${JSON.stringify({
    ...payload,
    cwd: target.root,
    [RECORDER_KEY]: { ts: now.toISOString(), agent: 'context-deck', v: version },
  })}\n`;
  appendEventLine(target.home, line, now);
}

export interface SaveInput {
  text: string;
  type?: ObservationType;
  origin: MemoryOrigin;
  sessionId?: string;
}

/** Append a save; returns the id it will have and its text as stored (redacted, cut). */
export function saveToMemory(
  target: MemoryTarget,
  input: SaveInput,
  now = new Date(),
): { id: string; text: string; cut: boolean } {
  const redacted = redactText(input.text.trim()).text;
  if (!redacted) throw new MemoryQueryError('nothing to save: the text is empty');
  const text = clip(redacted, MAX_SAVED_TEXT);
  const id = randomId();
  appendEvent(
    target,
    {
      hook_event_name: MEMORY_EVENTS.save,
      id,
      text,
      ...(input.type ? { type: input.type } : {}),
      ...(input.sessionId ? { session_id: input.sessionId } : {}),
      origin: input.origin,
    },
    now,
  );
  return { id, text, cut: text !== redacted };
}

/** Append the user's keeping of agents' notes as their own decisions (see eventMemory.ts). */
export function keepAsDecisions(target: MemoryTarget, ids: readonly string[], origin: MemoryOrigin): void {
  appendEvent(target, { hook_event_name: MEMORY_EVENTS.keep, ids, origin }, new Date());
}

/** Append a forget (hides the observations everywhere) or its undo; ids must be full, resolved ids. */
export function setForgotten(
  target: MemoryTarget,
  ids: readonly string[],
  forgotten: boolean,
  origin: MemoryOrigin,
  now = new Date(),
): void {
  appendEvent(
    target,
    { hook_event_name: forgotten ? MEMORY_EVENTS.forget : MEMORY_EVENTS.restore, ids, origin },
    now,
  );
}
