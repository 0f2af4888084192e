/**
 * Where the lines a fork inherited from its parent end. Codex writes a fork (`/fork`, or a subagent that
 * `spawn_agent` starts with its parent's history) as its own `session_meta`, then the parent's rollout
 * items as they were, the parent's own `session_meta` first, then its own turns
 * (codex-rs/core/src/agent/control/spawn.rs `spawn_forked_thread`: `InitialHistory::Forked`, persisted
 * whole by `record_initial_history`). Nothing marks the end of the copy, except in releases whose spawn
 * closed it with a made-up output of the parent's spawn call. So a turn is the fork's own when it began
 * after the fork was made: when its id, a UUIDv7, was made (milliseconds) or at its `started_at`
 * (seconds). A parent's turns all began before: the parent was in one when it spawned.
 */
import { type Json, jsonNumber as num, jsonRecord as record, jsonText as text } from '../jsonValues';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** When a UUIDv7 was made (its first 48 bits, ms since the epoch); undefined for any other id. */
export function uuidV7Time(id: string): number | undefined {
  if (!UUID_V7.test(id)) return undefined;
  return parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}

/**
 * The output Codex gave the parent's spawn call, the last line of the copy in releases that added it
 * (codex-rs/core/src/agent/control.rs `FORKED_SPAWN_AGENT_OUTPUT_MESSAGE`).
 */
const SPAWN_OUTPUT =
  'You are the newly spawned agent. The prior conversation history was forked from your parent';

export function isSpawnOutput(payload: Json): boolean {
  if (payload.type !== 'function_call_output') return false;
  const output = text(payload.output) ?? text(record(payload.output).content);
  return output?.startsWith(SPAWN_OUTPUT) === true;
}

/**
 * Whether a turn that opens with `turnId` (and `started_at`, where its start event says) began once the
 * fork was made at `madeAt`; false when neither says when it began (turn ids of older releases).
 */
export function turnIsOwn(turnId: string, startedAt: unknown, madeAt: number): boolean {
  const made = uuidV7Time(turnId);
  if (made !== undefined) return made >= madeAt;
  const seconds = num(startedAt);
  return seconds !== undefined && seconds >= Math.floor(madeAt / 1000);
}
