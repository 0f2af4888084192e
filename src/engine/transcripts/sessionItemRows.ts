/**
 * Writes what an agent's session file says: the `ChunkActivity` a `SessionItemReader` made of a chunk of
 * neutral `SessionItem`s (see agents/adapter.ts), through the import writer (importedActivity.ts), inside the
 * chunk's transaction. Every agent's items go through here: a whole file read at once (Codex, opencode, Cline,
 * VS Code's agent) or a message transcript read a chunk at a time (Claude Code), inline or on the transcript
 * worker. A `tool-use` still waiting for its result when a chunk ends is kept in transcript_pending_tools, so
 * a later import pairs it. Reading a file again adds nothing twice.
 */
import type { AgentAdapter, SessionItem, ToolUseItem } from '../agents/adapter';
import type { Json } from '../agents/transcriptEntry';
import type { Store } from '../storage/store';
import { ImportedActivityWriter, type RowCounts } from './importedActivity';
import { type ChunkActivity, SessionItemReader, pairedCall } from './sessionItemReader';

/** A use an earlier import kept waiting for its result. */
function keptUse(store: Store, toolUseId: string): ToolUseItem | undefined {
  const row = store.get(
    'SELECT session_id, tool_name, input, at FROM transcript_pending_tools WHERE tool_use_id = ?',
    [toolUseId],
  );
  return row
    ? {
        type: 'tool-use',
        useId: toolUseId,
        sessionId: String(row.session_id),
        name: String(row.tool_name),
        // Uses stored before inputs were kept have none: they are summarised as far as their name goes.
        input: row.input === null ? {} : (JSON.parse(String(row.input)) as Json),
        at: Number(row.at),
      }
    : undefined;
}

/** Write a chunk's activity of `adapter`'s agent, inside the caller's transaction. */
export function writeChunkActivity(store: Store, adapter: AgentAdapter, chunk: ChunkActivity): RowCounts {
  const resolved = (id: string) =>
    store.run('DELETE FROM transcript_pending_tools WHERE tool_use_id = ?', [id]);
  chunk.resolved.forEach(resolved);
  // Uses still waiting are kept, so a result appended after this import is matched by the next one.
  for (const use of chunk.waiting)
    store.run(
      'INSERT OR REPLACE INTO transcript_pending_tools (tool_use_id, session_id, tool_name, input, at) VALUES (?, ?, ?, ?, ?)',
      [use.useId, use.sessionId, use.name, JSON.stringify(use.input), use.at],
    );
  const activity = new ImportedActivityWriter(store);
  for (const entry of chunk.entries) {
    switch (entry.kind) {
      case 'call':
        activity.toolCall(entry.call, entry.memory);
        break;
      case 'prompt':
        activity.prompt(entry.prompt, entry.memory);
        break;
      case 'remember':
        activity.remember(entry.sessionId, entry.at, entry.memory);
        break;
      case 'result': {
        const use = keptUse(store, entry.result.toolUseId);
        if (!use) break;
        resolved(use.useId);
        const paired = pairedCall(adapter, use, entry.result, entry.at, entry.cwd);
        if (paired) activity.toolCall(paired.call, paired.memory);
        break;
      }
    }
  }
  return activity.flush(new Map(chunk.sessions));
}

/** Write `items`, read whole from `file` of `adapter`'s agent, inside the caller's transaction. */
export function writeSessionItems(
  store: Store,
  adapter: AgentAdapter,
  file: string,
  items: readonly SessionItem[],
): RowCounts {
  const reader = new SessionItemReader(adapter, { transcriptPath: file, promptKeys: 'session' });
  for (const item of items) reader.add(item);
  return writeChunkActivity(store, adapter, reader.take());
}
