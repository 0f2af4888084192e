/** A server switch planned in an agent's config file: what adapters' `switchServer` return. */
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

/** A switch that cannot be made in the agent's files: why, and what to do instead. */
export function unsupportedSwitch(server: string, enabled: boolean, reason: string): ServerSwitchPlan {
  return { supported: false, server, enabled, reason };
}
