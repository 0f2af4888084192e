/** The dashboard's Memory section, built from the project's memory: a pure function, tested without VS Code. */
import { citationNotes, type Observation, type ProjectEngine, shortId } from '../../engine';
import { isMemoryType, oneLineClip, parseMemoryQuery, typingQuery } from '../../shared/memory';
import type { MemoryView } from '../../shared/protocol';
import type { MessageOf } from '../../shared/messageTable';
import type { WEBVIEW_MESSAGES } from '../../shared/protocol';

/** Rows of the dashboard's Memory section. */
export const DASHBOARD_ROWS = 10;
const ROW_CHARS = 240;

/** A search box value and type filters from the page (its memorySearch message), with the number its answer echoes. */
export type MemoryRequest = Pick<
  MessageOf<typeof WEBVIEW_MESSAGES, 'memorySearch'>,
  'request' | 'query' | 'types'
>;

/** What the Memory section shows for a search box value and type filters. */
export function memoryView(
  project: Pick<ProjectEngine, 'memory' | 'sessions' | 'identity'>,
  request: MemoryRequest,
): MemoryView {
  const parsed = parseMemoryQuery(request.query);
  const types = [...new Set([...request.types.filter(isMemoryType), ...parsed.types])];
  const result = project.memory.search({
    query: typingQuery(parsed.query),
    types: types.length > 0 ? types : undefined,
    limit: DASHBOARD_ROWS,
  });
  const counts = project.memory.counts();
  const agents = project.sessions.agents(result.hits.flatMap((hit) => hit.sessionId ?? []));
  const cited = citationNotes(project.identity.roots);
  return {
    request: request.request,
    query: request.query,
    types: request.types.filter(isMemoryType),
    rows: result.hits.map((hit) => ({
      id: hit.id,
      shortId: shortId(hit.id),
      type: hit.type,
      text: oneLineClip(hit.text, ROW_CHARS),
      at: hit.at,
      agent: (hit.sessionId !== null && agents.get(hit.sessionId)) || null,
      notes: rowNotes(hit, cited(hit)),
    })),
    agents: new Set(agents.values()).size,
    more: result.more,
    total: counts.total,
    byType: counts.byType,
  };
}

/** What the row says of the observation now, before its text, in a word or two (its tooltip says when). */
function rowNotes(observation: Observation, citation: string): string[] {
  return [
    ...(observation.resolvedAt !== null ? ['fixed'] : []),
    ...(observation.source === 'agent-note' ? ["agent's note"] : []),
    ...(citation.includes('deleted')
      ? ['file deleted']
      : citation.includes('changed')
        ? ['file changed']
        : []),
  ];
}
