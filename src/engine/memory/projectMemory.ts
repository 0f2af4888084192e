/** One project's memory as its readers (the VS Code host) see it, over whatever database the project has open. */
import type { Store } from '../storage/store';
import { type IdResolution, resolveId } from './ids';
import { type SearchOptions, type SearchResult, searchObservations } from './search';
import { memoryCounts, observationState } from './stats';
import { type TimelineOptions, type TimelineResult, getObservations, timeline } from './timeline';
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

  /** The observation a full id or a unique prefix names, if it is in memory (not forgotten). */
  resolveId(prefix: string): IdResolution {
    return resolveId(this.store(), prefix);
  }

  /** The observation of a full id, unless it is forgotten or not recorded. */
  observation(id: string): Observation | undefined {
    return getObservations(this.store(), [id]).observations[0];
  }

  /** An observation's text, forgotten or not. */
  text(id: string): string | undefined {
    return observationState(this.store(), id)?.text;
  }
}
