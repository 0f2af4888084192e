/**
 * Connecting Codex CLI: our recorder's command hooks in a Codex `hooks.json`, the project's
 * (`<root>/.codex/hooks.json`) or the user's (`$CODEX_HOME/hooks.json`). The file is
 * `{"hooks": {"<Event>": [{"matcher"?, "hooks": [{"type": "command", "command", "timeout"}]}]}}` (codex-rs
 * config `HooksFile`; timeout in seconds, default 600). Codex parses it as strict JSON and refuses a root
 * with keys other than `hooks`/`description`, so we add nothing else. Hooks run only once the user trusts
 * them in Codex (`/hooks`), and a project's only in a trusted project. Every change is a minimal JSON edit:
 * connecting then disconnecting gives back the file as it was, and removes a file connecting created.
 */
import * as path from 'node:path';
import { isRecorderCommand } from '../claudeCode/hookSettings';
import { type Json, findInGroups, groupsOf, hooksSection, isObject } from '../hookJson';
import { JsoncDocument } from '../jsoncEdit';
import type { HookInstaller, SettingsPlan } from '../adapter';
import { codexHome } from './paths';
import { spoolCommandFor } from '../spoolCommand';

export type CodexHookScope = 'project' | 'user';

const CODEX_HOOK_SCOPES: readonly CodexHookScope[] = ['project', 'user'];

/**
 * The events we record, all of which Codex has (developers.openai.com/codex/hooks). Codex has no
 * PostToolUseFailure (a failed call is a PostToolUse) and runs SessionEnd only in recent releases.
 */
export const CODEX_RECORDED_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'SubagentStop',
  'Stop',
] as const;

export type CodexRecordedEvent = (typeof CODEX_RECORDED_EVENTS)[number];

/** SessionStart holds the session up while it prints the session context: keep it short. */
const CODEX_SESSION_START_TIMEOUT_SECONDS = 5;
const CODEX_HOOK_TIMEOUT_SECONDS = 30;

interface HookEntry {
  type: 'command';
  command: string;
  timeout: number;
}

/**
 * No `async`: releases before detached hooks skip an async hook altogether ("async hooks are not supported
 * yet"), so ours run in line, bounded by the timeout; the recorder only appends a line and returns.
 */
function hookEntry(event: CodexRecordedEvent, recorder: string): HookEntry {
  const command = spoolCommandFor(recorder, event === 'SessionStart');
  const timeout = event === 'SessionStart' ? CODEX_SESSION_START_TIMEOUT_SECONDS : CODEX_HOOK_TIMEOUT_SECONDS;
  return { type: 'command', command, timeout };
}

export function codexHooksPath(
  scope: CodexHookScope,
  projectRoot: string,
  userHome: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return scope === 'project'
    ? path.join(projectRoot, '.codex', 'hooks.json')
    : path.join(codexHome(env, userHome), 'hooks.json');
}

function isOurs(entry: unknown, command?: string): entry is Json {
  return (
    isObject(entry) &&
    (isRecorderCommand(entry.command) || (command !== undefined && entry.command === command))
  );
}

function findRecorder(
  groups: Json[],
  command?: string,
): { group: number; hook: number; entry: Json } | undefined {
  return findInGroups(groups, (entry) => isOurs(entry, command));
}

function sameEntry(existing: Json, wanted: HookEntry): boolean {
  return (
    existing.type === wanted.type &&
    existing.command === wanted.command &&
    existing.timeout === wanted.timeout &&
    existing.async === undefined
  );
}

/** What installing our hooks would change; installing twice changes nothing. Throws on unparsable files. */
export function planCodexConnect(file: string, before: string | undefined, command: string): SettingsPlan {
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of CODEX_RECORDED_EVENTS) {
    const wanted = hookEntry(event, command);
    const groups = groupsOf(hooksSection(document), event, file);
    const existing = findRecorder(groups, command);
    if (existing && sameEntry(existing.entry, wanted)) continue;
    if (existing) {
      document.set(['hooks', event, existing.group, 'hooks', existing.hook], wanted);
      changes.push(`update the Context Deck hook for ${event}`);
    } else {
      // No matcher: the group runs for every tool, prompt or session source.
      const group = { hooks: [wanted] };
      if (groups.length === 0) document.set(['hooks', event], [group]);
      else document.insert(['hooks', event], groups.length, group);
      changes.push(`add a Context Deck hook for ${event}`);
    }
  }
  return { file, before, after: changes.length ? document.text : before, changes };
}

/** What removing our hooks would change: exactly the entries we add, and a file left holding nothing. */
export function planCodexDisconnect(file: string, before: string | undefined): SettingsPlan {
  if (before === undefined || !before.trim()) return { file, before, after: before, changes: [] };
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  for (const event of CODEX_RECORDED_EVENTS) {
    for (;;) {
      const groups = groupsOf(hooksSection(document), event, file);
      const found = findRecorder(groups);
      if (!found) break;
      const siblings = (groups[found.group].hooks as unknown[]).length;
      if (siblings === 1) document.remove(['hooks', event, found.group]);
      else document.remove(['hooks', event, found.group, 'hooks', found.hook]);
      changes.push(`remove the Context Deck hook for ${event}`);
      if (groupsOf(hooksSection(document), event, file).length === 0) document.remove(['hooks', event]);
    }
  }
  if (changes.length === 0) return { file, before, after: before, changes };
  const hooks = hooksSection(document);
  if (hooks && Object.keys(hooks).length === 0) document.remove(['hooks']);
  const rest = document.value;
  // Nothing left but an empty object: the file was ours alone (connecting created it), so it goes.
  if (isObject(rest) && Object.keys(rest).length === 0) {
    changes.push(`remove ${path.basename(file)}, which holds nothing else`);
    return { file, before, after: undefined, changes };
  }
  return { file, before, after: document.text, changes };
}

/** Whether every event we record has our hook in the file; unparsable or missing files have none. */
export function codexConnected(file: string, text: string | undefined): boolean {
  try {
    if (!text?.trim()) return false;
    const hooks = hooksSection(new JsoncDocument(text, file));
    return CODEX_RECORDED_EVENTS.every((event) => findRecorder(groupsOf(hooks, event, file)) !== undefined);
  } catch {
    return false;
  }
}

export const codexHooks: HookInstaller<CodexHookScope> = {
  scopes: CODEX_HOOK_SCOPES,
  describeScope: (scope) =>
    scope === 'project'
      ? 'Everyone working in this project (.codex/hooks.json; Codex runs it once the project is trusted)'
      : 'You, in every project (~/.codex/hooks.json, or $CODEX_HOME)',
  settingsPath: (scope, projectRoot, userHome) => codexHooksPath(scope, projectRoot, userHome),
  planConnect: planCodexConnect,
  planDisconnect: planCodexDisconnect,
  isConnected: codexConnected,
  // Codex runs a new or changed hook only once the user has reviewed it (docs: codex/hooks, "Trust").
  afterConnect: 'Codex runs new hooks only after you trust them: type /hooks in Codex and approve them.',
};
