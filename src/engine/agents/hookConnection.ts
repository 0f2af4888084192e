/** Whether an agent's settings file holds our hooks, as the dashboard and `context-deck hooks status` say it. */
import type { HookConnectionStatus } from '../../shared/agents';
import type { HookInstaller } from './adapter';
import { parseJsonc, readSettingsText } from './jsoncEdit';

export interface HookConnection {
  status: HookConnectionStatus;
  /** Why the file is unreadable; null otherwise. */
  problem: string | null;
}

/** A file that does not parse is `unreadable` with its problem, never taken for one without our hooks. */
export function hookConnection(
  hooks: Pick<HookInstaller, 'isConnected' | 'planDisconnect'>,
  file: string,
): HookConnection {
  try {
    const text = readSettingsText(file);
    if (text?.trim() && file.endsWith('.json')) parseJsonc(text, file);
    if (hooks.isConnected(file, text)) return { status: 'connected', problem: null };
    const partial = hooks.planDisconnect(file, text).changes.length > 0;
    return { status: partial ? 'partial' : 'absent', problem: null };
  } catch (error) {
    return { status: 'unreadable', problem: error instanceof Error ? error.message : String(error) };
  }
}
