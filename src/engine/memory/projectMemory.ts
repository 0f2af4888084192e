/** One project's memory as its readers (the VS Code host, the CLI, the MCP server) see it, over whatever database the project has open. */
import type { Store } from '../storage/store';
import { type IdResolution, type ResolveOptions, resolveId } from './ids';
import { observationColumns, toObservation } from './query';
import { type SearchOptions, type SearchResult, searchObservations } from './search';
import { memoryCounts, observationState } from './stats';
import {
  type GetResult,
  type TimelineOptions,
  type TimelineResult,
  getObservations,
  timeline,
} from './timeline';
import type { MemoryOrigin, Observation, ObservationType } from './types';
import {
  type MemoryTarget,
  type SaveInput,
  keepAsDecisions,
  saveToMemory,
  setForgotten,
} from './memoryEvents';

export class ProjectMemory {
  /** `store` is asked each time: a rebuild or a reload replaces the project's database. */
  constructor(
    private readonly store: () => Store,
    /** Where saves, forgets and keeps are appended: the project's event log, read back in by its next ingest. */
    private readonly target: () => MemoryTarget,
  ) {}

  /** Appends a save; returns the id it will have and its text as stored (redacted, cut). */
  save(input: SaveInput, now?: Date): { id: string; text: string; cut: boolean } {
    return saveToMemory(this.target(), input, now);
  }

  /** Appends a forget (or, `forgotten` false, its undo) of full, resolved ids. */
  setForgotten(ids: readonly string[], forgotten: boolean, origin: MemoryOrigin, now?: Date): void {
    setForgotten(this.target(), ids, forgotten, origin, now);
  }

  /** Appends the user's keeping of agents' notes as their own decisions. */
  keepAsDecisions(ids: readonly string[], origin: MemoryOrigin): void {
    keepAsDecisions(this.target(), ids, origin);
  }

  search(options: SearchOptions): SearchResult {
    return searchObservations(this.store(), options);
  }

  counts(): { total: number; byType: Record<ObservationType, number> } {
    return memoryCounts(this.store());
  }

  timeline(options: TimelineOptions): TimelineResult {
    return timeline(this.store(), options);
  }

  /** The observation a full id or a unique prefix names, if it is in memory (or forgotten, when asked). */
  resolveId(prefix: string, options: ResolveOptions = {}): IdResolution {
    return resolveId(this.store(), prefix, options);
  }

  /** The observations of ids or unique prefixes, and why each missing one is missing. */
  get(ids: readonly string[]): GetResult {
    return getObservations(this.store(), ids);
  }

  /** The observation of a full id, unless it is forgotten or not recorded. */
  observation(id: string): Observation | undefined {
    return getObservations(this.store(), [id]).observations[0];
  }

  /** The notes agents saved through the MCP server that the user has not kept as decisions, newest first. */
  agentNotes(limit = 50): Observation[] {
    return this.store()
      .all(
        `SELECT ${observationColumns()} FROM observations
         WHERE source = 'agent-note' AND forgotten_at IS NULL ORDER BY at DESC LIMIT ?`,
        [limit],
      )
      .map(toObservation);
  }

  /** An observation's text and whether it is forgotten. */
  state(id: string): { text: string; forgotten: boolean } | undefined {
    return observationState(this.store(), id);
  }
}
