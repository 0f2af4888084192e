/**
 * Our recorder's entries in an agent's JSON hook settings (Claude Code's, Codex's, VS Code's), added,
 * updated and removed as minimal JSONC edits that leave every other key, comment and hook as it was:
 * connecting then disconnecting gives back the file byte for byte, and removes a file connecting created.
 * What sets the agents apart (events, entry keys, list layout) is each one's `RecorderHookFormat`.
 */
import type { JSONPath } from 'jsonc-parser';
import type { SettingsPlan } from './adapter';
import { findInGroups, groupsOf, hooksSection } from './hookJson';
import { type Json, isObject } from './jsonValues';
import { JsoncDocument } from './jsoncEdit';
import { spoolCommandFor } from './spoolCommand';

/** SessionStart holds the agent up while it prints the session context: keep its timeout short. */
const SESSION_START_TIMEOUT_SECONDS = 5;
const HOOK_TIMEOUT_SECONDS = 30;

/**
 * The entry every agent gets: `sh` spooling the payload where it can (see spoolCommand.ts), with a timeout.
 * SessionStart's prints the session context, UserPromptSubmit's the line the host left for the session.
 */
export function recorderHookEntry(
  event: string,
  recorder: string,
): { type: 'command'; command: string; timeout: number } {
  const sessionStart = event === 'SessionStart';
  return {
    type: 'command',
    command: spoolCommandFor(recorder, sessionStart || (event === 'UserPromptSubmit' && 'prompt-hint')),
    timeout: sessionStart ? SESSION_START_TIMEOUT_SECONDS : HOOK_TIMEOUT_SECONDS,
  };
}

/** One agent's hook settings format, as far as our entries go. */
export interface RecorderHookFormat<Event extends string> {
  events: readonly Event[];
  /** Our entry for `event`, running `recorder`. */
  entry(event: Event, recorder: string): Json;
  /**
   * The keys of our entry we manage: one that differs, or that is set where we set none (an `async` of an
   * earlier version), makes the entry stale; keys someone else added (a `linux` override, say) are theirs.
   */
  ownKeys: readonly string[];
  /** Whether a hook command is our recorder's, however it was installed. */
  isRecorder(command: unknown): boolean;
  /**
   * How an event lists its entries: in matcher groups, `[{matcher?, hooks: [entry]}]` (Claude Code, Codex),
   * each new group with `matcher(event)` when it gives one; or directly, `[entry]` (VS Code).
   */
  layout: { grouped: true; matcher?(event: Event): string | undefined } | { grouped: false };
  /** The file is ours alone (VS Code's `context-deck.json`): connecting creates it, disconnecting removes it. */
  ownFile?: boolean;
  /** The `hooks` object, refusing a file the agent reads in another format; `hooksSection` by default. */
  section?(document: JsoncDocument): Json | undefined;
}

/** A connect plan always has a text to write: connecting never removes a file. */
export interface ConnectPlan extends SettingsPlan {
  after: string;
}

interface Found {
  path: JSONPath;
  entry: Json;
  /** How many entries share its list. */
  siblings: number;
}

function sectionOf<Event extends string>(
  format: RecorderHookFormat<Event>,
  document: JsoncDocument,
): Json | undefined {
  return format.section ? format.section(document) : hooksSection(document);
}

/** The event's entries when listed directly; undefined when the event has no list yet. */
function entriesOf(hooks: Json | undefined, event: string, file: string): unknown[] | undefined {
  const entries = hooks?.[event];
  if (entries === undefined) return undefined;
  if (!Array.isArray(entries)) throw new Error(`"hooks.${event}" in ${file} is not a list`);
  return entries;
}

/** The event's first entry that `isOurs`, with where it is. */
function findEntry<Event extends string>(
  format: RecorderHookFormat<Event>,
  hooks: Json | undefined,
  event: Event,
  file: string,
  isOurs: (entry: Json) => boolean,
): Found | undefined {
  if (format.layout.grouped) {
    const groups = groupsOf(hooks, event, file);
    const found = findInGroups(groups, isOurs);
    if (!found) return undefined;
    return {
      path: ['hooks', event, found.group, 'hooks', found.hook],
      entry: found.entry,
      siblings: (groups[found.group].hooks as unknown[]).length,
    };
  }
  const entries = entriesOf(hooks, event, file) ?? [];
  const index = entries.findIndex((entry) => isObject(entry) && isOurs(entry));
  if (index < 0) return undefined;
  return { path: ['hooks', event, index], entry: entries[index] as Json, siblings: entries.length };
}

function addEntry<Event extends string>(
  format: RecorderHookFormat<Event>,
  document: JsoncDocument,
  hooks: Json | undefined,
  event: Event,
  entry: Json,
): void {
  const file = document.file;
  if (format.layout.grouped) {
    const matcher = format.layout.matcher?.(event);
    const group = matcher === undefined ? { hooks: [entry] } : { matcher, hooks: [entry] };
    const groups = groupsOf(hooks, event, file);
    if (groups.length === 0) document.set(['hooks', event], [group]);
    else document.insert(['hooks', event], groups.length, group);
    return;
  }
  const entries = entriesOf(hooks, event, file);
  if (entries === undefined) document.set(['hooks', event], [entry]);
  else document.insert(['hooks', event], entries.length, entry);
}

/** Removes the entry, and the group and the event's list it leaves empty. */
function removeEntry<Event extends string>(
  format: RecorderHookFormat<Event>,
  document: JsoncDocument,
  event: Event,
  found: Found,
): void {
  if (!format.layout.grouped) {
    document.remove(found.siblings === 1 ? ['hooks', event] : found.path);
    return;
  }
  document.remove(found.siblings === 1 ? found.path.slice(0, 3) : found.path);
  if (groupsOf(sectionOf(format, document), event, document.file).length === 0)
    document.remove(['hooks', event]);
}

function describeAdded(event: string, entry: Json): string {
  const how = entry.async === true ? 'async' : `timeout ${String(entry.timeout)} s`;
  return `add a Context Deck hook for ${event} (${how})`;
}

/** What connecting would change; connecting twice changes nothing. Throws on files it can't edit safely. */
function planConnect<Event extends string>(
  format: RecorderHookFormat<Event>,
  file: string,
  before: string | undefined,
  recorder: string,
): ConnectPlan {
  const document = new JsoncDocument(before, file);
  const changes: string[] = [];
  const commands: Record<string, string> = {};
  for (const event of format.events) {
    const wanted = format.entry(event, recorder);
    if (typeof wanted.command === 'string') commands[event] = wanted.command;
    const hooks = sectionOf(format, document);
    // An entry just like ours is ours, even where its command is not one we recognise.
    const found = findEntry(
      format,
      hooks,
      event,
      file,
      (entry) => format.isRecorder(entry.command) || entry.command === wanted.command,
    );
    if (found && format.ownKeys.every((key) => found.entry[key] === wanted[key])) continue;
    if (found) {
      document.set(found.path, wanted);
      changes.push(`update the Context Deck hook for ${event}`);
    } else {
      addEntry(format, document, hooks, event, wanted);
      changes.push(describeAdded(event, wanted));
    }
  }
  if (changes.length > 0 && format.ownFile && !before?.trim()) changes.unshift(`create ${file}`);
  return { file, before, after: changes.length > 0 ? document.text : (before ?? ''), changes, commands };
}

/** An empty object and no comment: the file held nothing but our hooks. */
function holdsNothing(document: JsoncDocument): boolean {
  const root = document.value;
  return isObject(root) && Object.keys(root).length === 0 && !/\/[/*]/.test(document.text);
}

/** What disconnecting would change: exactly our entries go, and a file left holding nothing else. */
function planDisconnect<Event extends string>(
  format: RecorderHookFormat<Event>,
  file: string,
  before: string | undefined,
): SettingsPlan {
  if (!before?.trim()) return { file, before, after: before, changes: [] };
  const document = new JsoncDocument(before, file);
  const isOurs = (entry: Json) => format.isRecorder(entry.command);
  const changes: string[] = [];
  for (const event of format.events) {
    for (;;) {
      const found = findEntry(format, sectionOf(format, document), event, file, isOurs);
      if (!found) break;
      removeEntry(format, document, event, found);
      changes.push(`remove the Context Deck hook for ${event}`);
    }
  }
  if (changes.length === 0) return { file, before, after: before, changes };
  const hooks = sectionOf(format, document);
  if (hooks && Object.keys(hooks).length === 0) document.remove(['hooks']);
  if (holdsNothing(document)) {
    changes.push(format.ownFile ? `remove ${file}` : `remove ${file}, which holds nothing else`);
    return { file, before, after: undefined, changes };
  }
  return { file, before, after: document.text, changes };
}

export interface RecorderHookState<Event extends string> {
  /** Events whose recorder hook is present. */
  installed: Event[];
  missing: Event[];
}

/** Which of our hooks a settings file holds; unparsable or missing files hold none. */
function hookState<Event extends string>(
  format: RecorderHookFormat<Event>,
  file: string,
  text: string | undefined,
): RecorderHookState<Event> {
  const installed: Event[] = [];
  try {
    if (text?.trim()) {
      const hooks = sectionOf(format, new JsoncDocument(text, file));
      for (const event of format.events)
        if (findEntry(format, hooks, event, file, (entry) => format.isRecorder(entry.command)))
          installed.push(event);
    }
  } catch {
    // Reported when connecting; for the connection state the file simply isn't connected.
  }
  return { installed, missing: format.events.filter((event) => !installed.includes(event)) };
}

/** An agent's plans for its hook settings file, in the shape of `HookInstaller`. */
export function recorderHookPlans<Event extends string>(format: RecorderHookFormat<Event>) {
  return {
    planConnect: (file: string, before: string | undefined, recorder: string): ConnectPlan =>
      planConnect(format, file, before, recorder),
    planDisconnect: (file: string, before: string | undefined): SettingsPlan =>
      planDisconnect(format, file, before),
    state: (file: string, text: string | undefined): RecorderHookState<Event> =>
      hookState(format, file, text),
    /** Whether every event we record has our hook in the file. */
    isConnected: (file: string, text: string | undefined): boolean =>
      hookState(format, file, text).missing.length === 0,
  };
}
