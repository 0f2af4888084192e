/**
 * The user's answers to pruning advice, per project: pinned items are never suggested again; a dismissed
 * item is not suggested until it changes. Kept beside the project's snapshot so the CLI honours them too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectStateDir } from '../kernel/paths';
import { makePrivateDir } from '../kernel/privateFiles';

export interface AdviceState {
  pinned: string[];
  /** dismissalKey()s: an item's id with the accesses it had when dismissed. */
  dismissed: string[];
}

const FILE = 'advice.json';

function adviceStatePath(home: string, projectId: string): string {
  return path.join(projectStateDir(home, projectId), FILE);
}

export function readAdviceState(home: string, projectId: string): AdviceState {
  try {
    const raw = JSON.parse(fs.readFileSync(adviceStatePath(home, projectId), 'utf8')) as Partial<AdviceState>;
    const strings = (value: unknown) =>
      Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    return { pinned: strings(raw.pinned), dismissed: strings(raw.dismissed) };
  } catch {
    // Missing or unreadable: nothing pinned or dismissed (the file holds preferences, not records).
    return { pinned: [], dismissed: [] };
  }
}

export function writeAdviceState(home: string, projectId: string, state: AdviceState): void {
  const file = adviceStatePath(home, projectId);
  makePrivateDir(path.dirname(file));
  const temp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Item ids to leave out of the advice: pinned ones, and dismissed ones still in the state they were dismissed in. */
export function excludedItems(
  state: AdviceState,
  items: ReadonlyArray<{ id: string; key: string }>,
): Set<string> {
  const dismissed = new Set(state.dismissed);
  return new Set([
    ...state.pinned,
    ...items.filter((item) => dismissed.has(item.key)).map((item) => item.id),
  ]);
}

/** Disabled MCP servers are left out of the advice like pinned items: disabling them is already done. */
export function withDisabledServers(state: AdviceState, servers: readonly string[]): AdviceState {
  return { ...state, pinned: [...state.pinned, ...servers.map((server) => `mcp_server:${server}`)] };
}
