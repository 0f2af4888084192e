/**
 * opencode's session store as neutral session items.
 *
 * Since 1.2 opencode keeps every project's sessions in one SQLite database, `opencode.db` (another channel
 * than latest/beta: `opencode-<channel>.db`; `$OPENCODE_DB` overrides) in its data folder,
 * `$XDG_DATA_HOME/opencode` or `~/.local/share/opencode` on every platform, in WAL mode
 * (packages/opencode/src/storage/db.ts). Tables (packages/opencode/src/session/session.sql.ts):
 * `session` (id, project_id, parent_id, directory, title, agent, model, time_created...), `message`
 * (id, session_id, time_created, data = the message without id/sessionID) and `part` (id, message_id,
 * session_id, data = the part without its ids). Earlier versions kept the same JSON as files:
 * `storage/session/<projectID>/<sessionID>.json`, `storage/message/<sessionID>/<messageID>.json`,
 * `storage/part/<messageID>/<partID>.json` (packages/opencode/src/storage/json-migration.ts), which 1.2
 * copies into the database on first start.
 *
 * The database is read from a snapshot (`walRead.ts`), never opened in place, so opencode's writes are
 * neither blocked nor seen half-done.
 */
import { userPromptText } from '../userPrompt';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { isWithin } from '../../kernel/paths';
import { loadSqlJs } from '../../kernel/sqlJs';
import type { SessionFiles, SessionItem } from '../adapter';
import {
  type Json,
  isObject,
  jsonNonEmptyText as str,
  jsonNumber as num,
  parseJsonObject as parseJson,
} from '../jsonValues';
import { type WindowOf, readModelWindows } from './modelCatalogue';
import { opencodeAgentType, toolCall } from './toolKinds';
import { readWalSnapshot } from './walRead';

export interface StoreRead {
  items: SessionItem[];
  /** Rows whose JSON did not parse (or files that could not be read). */
  skipped: number;
}

interface SessionRow {
  id: string;
  parentId?: string;
  directory?: string;
  createdAt: number;
  updatedAt?: number;
  agent?: string;
  model?: string;
}

interface MessageRow {
  id: string;
  createdAt: number;
  data: Json;
}

interface PartRow {
  id: string;
  data: Json;
}

function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
}

/** opencode's data folder: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` (xdg-basedir, all platforms). */
function opencodeDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_DATA_HOME?.trim();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(homeOf(env), '.local', 'share'), 'opencode');
}

/** `opencode.db` and the per-channel `opencode-<channel>.db`. */
const DATABASE_NAME = /^opencode(-[A-Za-z0-9._-]+)?\.db$/;

function byModifiedTime(files: string[]): string[] {
  const stamped = files.flatMap((file) => {
    try {
      const stat = fs.statSync(file);
      return stat.isFile() ? [{ file, at: stat.mtimeMs }] : [];
    } catch {
      return [];
    }
  });
  return stamped.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file)).map((entry) => entry.file);
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Whether a session's directory lies in `projectRoot` (opencode writes `/` even on Windows; resolve takes both). */
function belongsTo(directory: string | undefined, projectRoot: string): boolean {
  return directory !== undefined && isWithin(path.resolve(projectRoot), path.resolve(directory));
}

/** Pre-1.2 JSON session files whose `directory` is in the project. */
function jsonSessionFiles(dataDir: string, projectRoot: string): string[] {
  const sessions = path.join(dataDir, 'storage', 'session');
  const found: string[] = [];
  for (const project of listDir(sessions)) {
    const dir = path.join(sessions, project);
    for (const name of listDir(dir)) {
      if (!name.startsWith('ses_') || !name.endsWith('.json')) continue;
      const file = path.join(dir, name);
      const info = parseJson(readText(file));
      if (info && belongsTo(str(info.directory), projectRoot)) found.push(file);
    }
  }
  return byModifiedTime(found);
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function findSessionFiles(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dataDir = opencodeDataDir(env);
  const override = env.OPENCODE_DB?.trim();
  if (override && override !== ':memory:') {
    return byModifiedTime([path.isAbsolute(override) ? override : path.join(dataDir, override)]);
  }
  const databases = byModifiedTime(
    listDir(dataDir)
      .filter((name) => DATABASE_NAME.test(name))
      .map((name) => path.join(dataDir, name)),
  );
  if (!databases.length) return jsonSessionFiles(dataDir, projectRoot);
  // A database holds everything the JSON files did (1.2 migrates them on first start).
  return databases;
}

/** Text of a user message: its text parts, without those opencode added itself (file contents, reminders). */
function promptText(parts: PartRow[]): string {
  return parts
    .map((part) => part.data)
    .filter((part) => part.type === 'text' && part.synthetic !== true && part.ignored !== true)
    .map((part) => str(part.text) ?? '')
    .filter((text) => text.trim() !== '')
    .join('\n');
}

function modelOf(info: Json): string | undefined {
  if (info.role === 'assistant') return str(info.modelID);
  return isObject(info.model) ? str(info.model.modelID) : undefined;
}

function agentOf(info: Json): string | undefined {
  return opencodeAgentType(info.agent) ?? opencodeAgentType(info.mode);
}

/**
 * Tokens in the context after an assistant turn, as opencode's own TUI counts them: the last assistant
 * message with output, input + output + reasoning + cache read + cache write
 * (packages/opencode/src/cli/cmd/tui/routes/session/header.tsx).
 */
function contextTokens(tokens: unknown): number | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const output = num(tokens.output) ?? 0;
  if (output <= 0) return undefined;
  return (
    (num(tokens.input) ?? 0) +
    output +
    (num(tokens.reasoning) ?? 0) +
    (num(cache.read) ?? 0) +
    (num(cache.write) ?? 0)
  );
}

/** What the agent wrote in a message: its text parts, without those opencode added itself. */
function assistantText(parts: PartRow[]): string {
  return parts
    .map((part) => part.data)
    .filter((part) => part.type === 'text' && part.synthetic !== true)
    .map((part) => str(part.text) ?? '')
    .filter((text) => text.trim() !== '')
    .join('\n');
}

/**
 * One session's items in order: the session, then per message its prompt or tool calls, usage, compactions,
 * and the agent's own words: a compaction's summary and, before each prompt and at the end, the turn's report.
 */
function sessionItems(
  session: SessionRow,
  messages: MessageRow[],
  partsOf: (messageId: string) => PartRow[],
  windowOf: WindowOf = () => undefined,
): SessionItem[] {
  const sessionId = session.id;
  const first = (pick: (info: Json) => string | undefined) =>
    messages.map((message) => pick(message.data)).find((value) => value !== undefined);
  const items: SessionItem[] = [
    {
      type: 'session',
      sessionId,
      at: session.createdAt,
      cwd: session.directory ?? first((info) => (isObject(info.path) ? str(info.path.cwd) : undefined)),
      model: session.model ?? first(modelOf),
      agentType: session.agent ?? first(agentOf),
      parentSessionId: session.parentId,
    },
  ];
  // A compaction part (1.x) asks for the summary the next assistant message holds: one compaction, not two.
  let compactionAsked = false;
  // The turn's last assistant text, told when the next user message (a prompt, a compaction) comes or the
  // session's messages end; a subagent's is its task's result, which the parent's tool call holds already.
  let report: Extract<SessionItem, { type: 'report' }> | undefined;
  const tellReport = () => {
    if (report && !session.parentId) items.push(report);
    report = undefined;
  };
  for (const message of messages) {
    const info = message.data;
    const time = isObject(info.time) ? info.time : {};
    const at = num(time.created) ?? message.createdAt;
    const parts = partsOf(message.id);
    if (info.role === 'user') {
      tellReport();
      for (const part of parts) {
        if (part.data.type !== 'compaction') continue;
        items.push({ type: 'compact', sessionId, at, trigger: part.data.auto === true ? 'auto' : 'manual' });
        compactionAsked = true;
      }
      const typed = promptText(parts);
      const text = typed === undefined ? undefined : userPromptText(typed);
      if (text) items.push({ type: 'prompt', sessionId, at, key: message.id, text });
      continue;
    }
    if (info.role !== 'assistant') continue;
    const text = assistantText(parts);
    // The summary message (`summary: true`, packages/opencode/src/session/compaction.ts) holds the summary.
    if (info.summary === true) {
      if (!compactionAsked) items.push({ type: 'compact', sessionId, at });
      compactionAsked = false;
      if (text) items.push({ type: 'compact-summary', sessionId, at, text });
    } else if (text) report = { type: 'report', sessionId, at: num(time.completed) ?? at, text };
    for (const part of parts) {
      const data = part.data;
      const state = isObject(data.state) ? data.state : {};
      if (data.type !== 'tool' || (state.status !== 'completed' && state.status !== 'error')) continue;
      const name = str(data.tool);
      if (!name) continue;
      const useId = str(data.callID) ?? part.id;
      const stateTime = isObject(state.time) ? state.time : {};
      const call = toolCall(name, state.input, state, useId);
      items.push({
        type: 'tool',
        sessionId,
        at: num(stateTime.end) ?? num(stateTime.start) ?? at,
        call: { ...call, useId },
      });
    }
    const tokens = contextTokens(info.tokens);
    if (tokens !== undefined) {
      const usage: Extract<SessionItem, { type: 'usage' }> = {
        type: 'usage',
        sessionId,
        at: num(time.completed) ?? at,
        contextTokens: tokens,
        model: str(info.modelID),
      };
      const window = windowOf(str(info.providerID), str(info.modelID));
      if (window !== undefined) usage.contextWindow = window;
      items.push(usage);
    }
  }
  tellReport();
  return items;
}

/** All rows of a query as objects. */
function rows(db: Database, sql: string): Json[] {
  const statement = db.prepare(sql);
  try {
    const result: Json[] = [];
    while (statement.step()) result.push(statement.getAsObject() as Json);
    return result;
  } finally {
    statement.free();
  }
}

export interface ReadOptions {
  /** Only sessions whose directory is in this folder. */
  projectRoot?: string;
}

/** Items from a database image already opened with sql.js. */
function readDatabase(db: Database, options: ReadOptions): StoreRead {
  const tables = new Set(
    rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => row.name),
  );
  if (!tables.has('session') || !tables.has('message') || !tables.has('part'))
    return { items: [], skipped: 0 };
  let skipped = 0;
  const sessions: SessionRow[] = rows(db, 'SELECT * FROM session ORDER BY time_created, id').flatMap(
    (row) => {
      const id = str(row.id);
      if (!id) return [];
      const model = parseJson(row.model);
      return [
        {
          id,
          parentId: str(row.parent_id),
          directory: str(row.directory),
          createdAt: num(row.time_created) ?? 0,
          updatedAt: num(row.time_updated),
          agent: opencodeAgentType(row.agent),
          model: model ? str(model.id) : undefined,
        },
      ];
    },
  );
  // One database holds every session, and a reader that follows "the file's session" (the first it names)
  // should follow the one in use: top-level sessions first, the most recently active first, then subagents'.
  const recency = (session: SessionRow) => session.updatedAt ?? session.createdAt;
  const wanted = (
    options.projectRoot
      ? sessions.filter((session) => belongsTo(session.directory, options.projectRoot!))
      : sessions
  ).sort((a, b) => Number(!!a.parentId) - Number(!!b.parentId) || recency(b) - recency(a));
  const ids = new Set(wanted.map((session) => session.id));

  const messages = new Map<string, MessageRow[]>();
  for (const row of rows(
    db,
    'SELECT id, session_id, time_created, data FROM message ORDER BY session_id, time_created, id',
  )) {
    const sessionId = String(row.session_id);
    if (!ids.has(sessionId)) continue;
    const data = parseJson(row.data);
    if (!data) {
      skipped++;
      continue;
    }
    const list = messages.get(sessionId) ?? [];
    list.push({ id: String(row.id), createdAt: num(row.time_created) ?? 0, data });
    messages.set(sessionId, list);
  }
  const parts = new Map<string, PartRow[]>();
  for (const row of rows(db, 'SELECT id, message_id, session_id, data FROM part ORDER BY message_id, id')) {
    if (!ids.has(String(row.session_id))) continue;
    const data = parseJson(row.data);
    if (!data) {
      skipped++;
      continue;
    }
    const messageId = String(row.message_id);
    const list = parts.get(messageId) ?? [];
    list.push({ id: String(row.id), data });
    parts.set(messageId, list);
  }
  const windowOf = readModelWindows();
  const items = wanted.flatMap((session) =>
    sessionItems(session, messages.get(session.id) ?? [], (id) => parts.get(id) ?? [], windowOf),
  );
  return { items, skipped };
}

function readDatabaseFile(SQL: SqlJsStatic, file: string, options: ReadOptions): StoreRead {
  const db = new SQL.Database(readWalSnapshot(file).image);
  try {
    return readDatabase(db, options);
  } finally {
    db.close();
  }
}

function jsonFiles(dir: string): string[] {
  return listDir(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** A pre-1.2 session file with its messages and parts from the sibling `message/` and `part/` folders. */
function readJsonSession(file: string): StoreRead {
  const info = parseJson(readText(file));
  const id = info && str(info.id);
  if (!info || !id) return { items: [], skipped: 1 };
  const storage = path.dirname(path.dirname(path.dirname(file)));
  let skipped = 0;
  const read = (entry: string) => {
    const data = parseJson(readText(entry));
    if (!data) skipped++;
    return data;
  };
  const messages: MessageRow[] = jsonFiles(path.join(storage, 'message', id)).flatMap((entry) => {
    const data = read(entry);
    const messageId = data && (str(data.id) ?? path.basename(entry, '.json'));
    if (!data || !messageId) return [];
    const time = isObject(data.time) ? data.time : {};
    return [{ id: messageId, createdAt: num(time.created) ?? 0, data }];
  });
  messages.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  const partsOf = (messageId: string): PartRow[] =>
    jsonFiles(path.join(storage, 'part', messageId)).flatMap((entry) => {
      const data = read(entry);
      return data ? [{ id: str(data.id) ?? path.basename(entry, '.json'), data }] : [];
    });
  const time = isObject(info.time) ? info.time : {};
  const session: SessionRow = {
    id,
    parentId: str(info.parentID),
    directory: str(info.directory),
    createdAt: num(time.created) ?? 0,
  };
  const items = sessionItems(session, messages, partsOf, readModelWindows());
  return { items, skipped };
}

let sqlJs: Promise<SqlJsStatic> | undefined;

/** Everything a session file holds; for the database, optionally only the sessions of one project. */
export async function readOpencodeStore(file: string, options: ReadOptions = {}): Promise<StoreRead> {
  if (file.endsWith('.json')) return readJsonSession(file);
  // Loaded once, when a database is first read: the JSON files of older versions don't need it.
  sqlJs ??= loadSqlJs();
  return readDatabaseFile(await sqlJs, file, options);
}

export const opencodeSessions: SessionFiles = {
  measuresContext: true,
  find: findSessionFiles,
  recognise: (head) =>
    head.startsWith('SQLite format 3') || (/^\s*\{/.test(head) && /"id"\s*:\s*"ses_/.test(head)),
  read: (file, options) => readOpencodeStore(file, options),
};
