/** A server switch planned in a JSON(C) settings file: what adapters' `switchServer` return when they can. */
import type { ServerSwitchPlan } from './adapter';
import type { JsoncDocument } from './jsoncEdit';

export function plannedSwitch(switched: {
  server: string;
  enabled: boolean;
  agent: string;
  file: string;
  before: string | undefined;
  /** The file as edited; its text is the plan's `after` when there are changes. */
  document: JsoncDocument;
  changes: string[];
  notes?: string[];
}): ServerSwitchPlan {
  const { document, before, changes, notes = [], ...rest } = switched;
  return {
    supported: true,
    ...rest,
    before,
    after: changes.length ? document.text : (before ?? ''),
    changes,
    notes,
  };
}
