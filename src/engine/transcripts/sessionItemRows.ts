/**
 * Turns what an agent's session file says (neutral `SessionItem`s, see agents/adapter.ts) into the tool
 * calls, prompts, compactions and sessions that the import writer (importedActivity.ts) writes. Reading a
 * changed file again whole adds nothing twice.
 */
import type { SessionItem } from '../agents/adapter';
import type { AgentId } from '../../shared/agents';
import { analyseAgentEvent } from '../memory/eventMemory';
import type { Store } from '../storage/store';
import type { ImportedSession } from '../log/sessionRows';
import { ImportedActivityWriter, type RowCounts } from './importedActivity';

/** Write `items`, read from `file` of `agent`'s, inside the caller's transaction. */
export function writeSessionItems(
  store: Store,
  agent: AgentId,
  file: string,
  items: readonly SessionItem[],
): RowCounts {
  const activity = new ImportedActivityWriter(store);
  const sessions = new Map<string, ImportedSession>();

  for (const item of items) {
    let session = sessions.get(item.sessionId);
    if (!session) {
      session = { first: item.at, last: item.at, transcriptPath: file, agent };
      sessions.set(item.sessionId, session);
    }
    session.first = Math.min(session.first, item.at);
    session.last = Math.max(session.last, item.at);
    const base = { agent, name: '', sessionId: item.sessionId, cwd: session.cwd };
    switch (item.type) {
      case 'session':
        session.cwd ??= item.cwd;
        session.model = item.model ?? session.model;
        break;
      case 'usage':
        session.model = item.model ?? session.model;
        break;
      case 'tool': {
        const failed = item.call.outcome?.failed === true;
        const remembered = analyseAgentEvent({
          ...base,
          kind: failed ? 'tool-failed' : 'tool-end',
          tool: item.call,
        });
        activity.toolCall(
          {
            useId: item.call.useId,
            sessionId: item.sessionId,
            name: item.call.name,
            failed,
            durationMs: item.call.outcome?.durationMs ?? null,
            error: failed ? item.call.outcome?.error : undefined,
            at: item.at,
          },
          remembered ? [remembered] : [],
        );
        break;
      }
      case 'prompt':
        activity.prompt(
          { key: `session:${item.key}`, sessionId: item.sessionId, text: item.text, at: item.at },
          analyseAgentEvent({ ...base, kind: 'prompt', prompt: item.text }),
        );
        break;
      case 'compact':
        activity.remember(
          item.sessionId,
          item.at,
          analyseAgentEvent({ ...base, kind: 'compact', trigger: item.trigger }),
        );
        break;
      case 'compact-summary':
        activity.remember(
          item.sessionId,
          item.at,
          analyseAgentEvent({ ...base, kind: 'compacted', summary: item.text }),
        );
        break;
      case 'report':
        activity.remember(
          item.sessionId,
          item.at,
          analyseAgentEvent({ ...base, kind: 'stop', message: item.text }),
        );
        break;
    }
  }
  return activity.flush(sessions);
}
