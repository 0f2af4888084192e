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
import type { Observation, ObservationType } from './types';

export class ProjectMemory {
  /** `store` is asked each time: a rebuild or a reload replaces the project's database. */
  constructor(private readonly store: () => Store) {}

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
