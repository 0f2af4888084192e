/** A server switch planned in an agent's config file: what adapters' `switchServer` return when they can. */
import type { ServerSwitchPlan } from './adapter';

export function plannedSwitch(switched: {
  server: string;
  enabled: boolean;
  agent: string;
  file: string;
  before: string | undefined;
  /** The file's text as edited: the plan's `after` when there are changes. */
  edited: string;
  changes: string[];
  notes?: string[];
}): ServerSwitchPlan {
  const { edited, before, changes, notes = [], ...rest } = switched;
  return {
    supported: true,
    ...rest,
    before,
    after: changes.length ? edited : (before ?? ''),
    changes,
    notes,
  };
}
