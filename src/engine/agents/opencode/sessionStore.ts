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
 * The database is read a page at a time (kernel/sqliteFile.ts: the WAL's committed frames over the main
 * file, nothing written), never loaded whole: opencode keeps every project's sessions in it, and it grows
 * past a gigabyte. Only this project's sessions are read, their messages and parts through opencode's own
 * indexes on `session_id`, within a budget of bytes.
 */
import { userPromptText } from '../userPrompt';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isWithin } from '../../kernel/paths';
import { type Row, SqliteFile, SqliteFileError } from '../../kernel/sqliteFile';
import type { SessionFiles, SessionItem } from '../adapter';
import {
  type Json,
  isObject,
  jsonNonEmptyText as str,
  jsonNumber as num,
  parseJsonObject as parseJson,
} from '../jsonValues';
import { type LimitsOf, readModelLimits } from './modelCatalogue';
import { type CompactionConfig, compactionConfig, opencodeCompactAt } from './compactPoint';
import { configuredModelLimits } from './configLimits';
import { opencodeAgentType, toolCall } from './toolKinds';

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

/** What the usage readings need to know of the models: their limits, and the config's compaction settings. */
interface ModelFacts {
  /** The limits of a model for a session run in `directory`: its config's, else the catalogue's. */
  limitsOf(
    providerId: string | undefined,
    modelId: string | undefined,
    directory: string | undefined,
  ): ReturnType<LimitsOf>;
  /** The settings for a session run in `directory`. */
  compactionIn(directory: string | undefined): CompactionConfig;
}

const NO_MODEL_FACTS: ModelFacts = { limitsOf: () => undefined, compactionIn: () => ({}) };

/** The catalogue opencode caches, and the compaction settings of the config, read once per folder. */
function modelFacts(options: ReadOptions): ModelFacts {
  const configs = new Map<string | undefined, CompactionConfig>();
  const catalogue = readModelLimits();
  const declared = new Map<string, ReturnType<LimitsOf>>();
  return {
    limitsOf: (providerId, modelId, directory) => {
      if (!providerId || !modelId) return catalogue(providerId, modelId);
      const folder = options.projectRoot ?? directory;
      // Read once per folder and model: every usage reading of a session asks.
      const key = JSON.stringify([folder, providerId, modelId]);
      if (!declared.has(key))
        declared.set(key, configuredModelLimits(folder, os.homedir(), process.env, providerId, modelId));
      return declared.get(key) ?? catalogue(providerId, modelId);
    },
    compactionIn: (directory) => {
      const folder = options.projectRoot ?? directory;
      let config = configs.get(folder);
      if (!config) configs.set(folder, (config = compactionConfig(folder, os.homedir(), process.env)));
      return config;
    },
  };
}

/**
 * One session's items in order: the session, then per message its prompt or tool calls, usage, compactions,
 * and the agent's own words: a compaction's summary and, before each prompt and at the end, the turn's report.
 */
function sessionItems(
  session: SessionRow,
  messages: MessageRow[],
  partsOf: (messageId: string) => PartRow[],
  models: ModelFacts = NO_MODEL_FACTS,
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
      const limits = models.limitsOf(str(info.providerID), str(info.modelID), session.directory);
      if (limits) {
        usage.contextWindow = limits.context;
        usage.compactAt = opencodeCompactAt(limits, models.compactionIn(session.directory));
      }
      items.push(usage);
    }
  }
  tellReport();
  return items;
}

export interface ReadOptions {
  /** Only sessions whose directory is in this folder. */
  projectRoot?: string;
  /** Only this session, when the project has it (the live gauge follows one). */
  sessionId?: string;
}

/** A row (a message's or a part's JSON) larger than this is skipped and counted, never read. */
const MAX_ROW_BYTES = 16 * 1024 * 1024;
/** What one read may take of the store's rows, all of a project's sessions together. */
const READ_BUDGET_BYTES = 256 * 1024 * 1024;

/** Rows of `table` whose `column` is one of `values`, their data counted against the read's budget. */
async function rowsOf(
  db: SqliteFile,
  table: string,
  column: string,
  values: readonly string[],
  budget: { left: number },
): Promise<Row[]> {
  const found: Row[] = [];
  for await (const row of db.rowsWhere(table, column, values)) {
    budget.left -= typeof row.data === 'string' ? row.data.length : 0;
    if (budget.left < 0)
      throw new SqliteFileError(
        `this project's sessions hold more than ${READ_BUDGET_BYTES / 1024 / 1024} MiB`,
      );
    found.push(row);
  }
  return found;
}

const byText = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/** Items of the project's sessions in an opened store: the sessions scanned, their rows by index. */
async function readDatabase(db: SqliteFile, options: ReadOptions): Promise<StoreRead> {
  const tables = new Set(db.schema().flatMap((entry) => (entry.type === 'table' ? [entry.name] : [])));
  if (!tables.has('session') || !tables.has('message') || !tables.has('part'))
    return { items: [], skipped: 0 };
  let skipped = 0;
  const sessions: SessionRow[] = [];
  for await (const row of db.scan('session')) {
    const id = str(row.id);
    if (!id) continue;
    const model = parseJson(row.model);
    sessions.push({
      id,
      parentId: str(row.parent_id),
      directory: str(row.directory),
      createdAt: num(row.time_created) ?? 0,
      updatedAt: num(row.time_updated),
      agent: opencodeAgentType(row.agent),
      model: model ? str(model.id) : undefined,
    });
  }
  // One database holds every session, and a reader that follows "the file's session" (the first it names)
  // should follow the one in use: top-level sessions first, the most recently active first, then subagents'.
  const recency = (session: SessionRow) => session.updatedAt ?? session.createdAt;
  const ofProject = options.projectRoot
    ? sessions.filter((session) => belongsTo(session.directory, options.projectRoot!))
    : sessions;
  const one = ofProject.filter((session) => session.id === options.sessionId);
  const wanted = (one.length ? one : ofProject).sort(
    (a, b) => Number(!!a.parentId) - Number(!!b.parentId) || recency(b) - recency(a),
  );
  const ids = wanted.map((session) => session.id);

  const budget = { left: READ_BUDGET_BYTES };
  const messages = new Map<string, MessageRow[]>();
  const messageRows = await rowsOf(db, 'message', 'session_id', ids, budget);
  messageRows.sort((a, b) => (num(a.time_created) ?? 0) - (num(b.time_created) ?? 0) || byText(a.id, b.id));
  for (const row of messageRows) {
    const data = parseJson(row.data);
    if (!data) {
      skipped++;
      continue;
    }
    const sessionId = String(row.session_id);
    const list = messages.get(sessionId) ?? [];
    list.push({ id: String(row.id), createdAt: num(row.time_created) ?? 0, data });
    messages.set(sessionId, list);
  }
  const parts = new Map<string, PartRow[]>();
  const partRows = await rowsOf(db, 'part', 'session_id', ids, budget);
  partRows.sort((a, b) => byText(a.id, b.id));
  for (const row of partRows) {
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
  const models = modelFacts(options);
  const items = wanted.flatMap((session) =>
    sessionItems(session, messages.get(session.id) ?? [], (id) => parts.get(id) ?? [], models),
  );
  return { items, skipped: skipped + db.skippedRows };
}

/**
 * The store read a page at a time. opencode may checkpoint while it is read: a read that finds the store
 * changed under it is read once more.
 */
async function readDatabaseFile(file: string, options: ReadOptions): Promise<StoreRead> {
  for (let attempt = 1; ; attempt++) {
    const db = await SqliteFile.open(file, { maxRowBytes: MAX_ROW_BYTES });
    try {
      return await readDatabase(db, options);
    } catch (error) {
      if (!(error instanceof SqliteFileError) || attempt >= 2 || !/changed/.test(error.message)) throw error;
    } finally {
      await db.close();
    }
  }
}

function jsonFiles(dir: string): string[] {
  return listDir(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** A pre-1.2 session file with its messages and parts from the sibling `message/` and `part/` folders. */
function readJsonSession(file: string, options: ReadOptions): StoreRead {
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
  const items = sessionItems(session, messages, partsOf, modelFacts(options));
  return { items, skipped };
}

/** Everything a session file holds; for the database, optionally only the sessions of one project. */
export async function readOpencodeStore(file: string, options: ReadOptions = {}): Promise<StoreRead> {
  if (file.endsWith('.json')) return readJsonSession(file, options);
  return readDatabaseFile(file, options);
}

export const opencodeSessions: SessionFiles = {
  measuresContext: true,
  find: findSessionFiles,
  recognise: (head) =>
    head.startsWith('SQLite format 3') || (/^\s*\{/.test(head) && /"id"\s*:\s*"ses_/.test(head)),
  read: (file, options) => readOpencodeStore(file, options),
};
