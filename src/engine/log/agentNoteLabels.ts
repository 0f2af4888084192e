/**
 * Notes an agent saved through the MCP server before this version were stored as the user's (`saved`), and
 * could be recalled as Active Decisions. Only the event log says which saves came from MCP (`origin`), so an
 * upgraded database reads its log once for them and re-labels them as the agent's (`agent-note`, never a
 * decision). A run of complete lines at a time, yielding between them; only regular log files are read.
 */
import * as fs from 'node:fs';
import { yieldToHost } from '../kernel/yieldToHost';
import { isObservationId } from '../memory/ids';
import { MEMORY_EVENTS } from '../memory/types';
import { counterValue, setCounter } from '../storage/counters';
import type { Store } from '../storage/store';
import { listLogEntries } from './ingest';
import { readCompleteLines } from './logChunks';

/** Set by the schema's migration where saved notes exist; cleared once they are re-labelled. */
const RELABEL_PENDING = 'memory.relabel_agent_notes';
const CHUNK_BYTES = 1024 * 1024;
const SAVE_MARK = Buffer.from(MEMORY_EVENTS.save);

/** The ids of the saves made through MCP that `lines` (complete JSON lines) hold. */
function mcpSaveIds(lines: Buffer): string[] {
  const ids: string[] = [];
  for (let at = lines.indexOf(SAVE_MARK); at >= 0; at = lines.indexOf(SAVE_MARK, at + 1)) {
    const start = lines.lastIndexOf(0x0a, at) + 1;
    const end = lines.indexOf(0x0a, at);
    try {
      const event = JSON.parse(lines.subarray(start, end < 0 ? undefined : end).toString('utf8')) as Record<
        string,
        unknown
      >;
      if (event.hook_event_name === MEMORY_EVENTS.save && event.origin === 'mcp' && isObservationId(event.id))
        ids.push(event.id);
    } catch {
      // Not a whole JSON line: ingest rejected it too.
    }
    if (end < 0) break;
    at = end;
  }
  return ids;
}

/** Re-label what MCP saved, once per database; returns how many notes became the agent's. */
export async function relabelAgentNotes(store: () => Store, eventsDir: string): Promise<number> {
  if (counterValue(store(), RELABEL_PENDING) === 0) return 0;
  const ids: string[] = [];
  for (const { file, stat } of listLogEntries(eventsDir).entries) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      continue;
    }
    try {
      for (let offset = 0; ;) {
        const chunk = readCompleteLines(fd, offset, CHUNK_BYTES, stat.size);
        if (chunk.kind === 'none') break;
        if (chunk.kind === 'lines') ids.push(...mcpSaveIds(chunk.bytes));
        offset += chunk.length;
        await yieldToHost();
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  // The store asked again: a reload may have replaced it while the log was read.
  const current = store();
  current.run(
    `UPDATE observations SET source = 'agent-note', type = CASE type WHEN 'decision' THEN 'discovery' ELSE type END
     WHERE source = 'saved' AND id IN (SELECT value FROM json_each(?))`,
    [JSON.stringify(ids)],
  );
  const relabelled = current.number('SELECT changes()');
  setCounter(current, RELABEL_PENDING, 0);
  return relabelled;
}
