/** Pieces shared by the memory's read queries: row mapping, filters, and the error users see. */
import type { Row } from '../storage/store';
import { type Observation, type ObservationSource, type ObservationType } from './types';

/** A request that can't be answered as asked (unknown id, too many ids...): shown to the user as is. */
export class MemoryQueryError extends Error {}

export interface ObservationFilters {
  types?: readonly ObservationType[];
  /** A session id or any prefix of it (ids are shown shortened). */
  sessionId?: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
}

export function observationColumns(alias = ''): string {
  return [
    'id',
    'type',
    'source',
    'text',
    'at',
    'session_id',
    'agent_type',
    'event_id',
    'resolved_at',
    'file',
    'file_hash',
  ]
    .map((column) => `${alias}${column} AS ${column}`)
    .join(', ');
}

export function toObservation(row: Row): Observation {
  return {
    id: String(row.id),
    type: String(row.type) as ObservationType,
    source: String(row.source) as ObservationSource,
    text: String(row.text),
    at: Number(row.at),
    sessionId: row.session_id == null ? null : String(row.session_id),
    agentType: row.agent_type == null ? null : String(row.agent_type),
    eventId: row.event_id == null ? null : Number(row.event_id),
    resolvedAt: row.resolved_at == null ? null : Number(row.resolved_at),
    file: row.file == null ? null : String(row.file),
    fileHash: row.file_hash == null ? null : String(row.file_hash),
  };
}

/** WHERE conditions for the filters; forgotten observations are always left out. */
export function filterSql(
  filters: ObservationFilters,
  alias = '',
): { sql: string; params: Array<string | number> } {
  const conditions = [`${alias}forgotten_at IS NULL`];
  const params: Array<string | number> = [];
  if (filters.types && filters.types.length > 0) {
    conditions.push(`${alias}type IN (${filters.types.map(() => '?').join(', ')})`);
    params.push(...filters.types);
  }
  if (filters.sessionId !== undefined) {
    // Every id starting with the prefix sorts between it and prefix + '~' (session ids are ASCII).
    conditions.push(`${alias}session_id >= ? AND ${alias}session_id < ?`);
    params.push(filters.sessionId, `${filters.sessionId}~`);
  }
  if (filters.since !== undefined) {
    conditions.push(`${alias}at >= ?`);
    params.push(filters.since);
  }
  if (filters.until !== undefined) {
    conditions.push(`${alias}at < ?`);
    params.push(filters.until);
  }
  return { sql: conditions.join(' AND '), params };
}

/** An ISO 8601 date or date-time (or epoch ms) as epoch ms; a clear error otherwise. */
export function parseTime(value: string, name: string): number {
  const ms = /^\d+$/.test(value.trim()) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms)) throw new MemoryQueryError(`${name} must be an ISO date or time, not "${value}"`);
  return ms;
}
