/**
 * What an agent adapter provides. Each agent's folder (`agents/<agent>/`) implements the parts its agent
 * has; the engine reaches them through `agents/index.ts`, never by importing an agent's folder itself.
 */
import type { ConfigFileProblem, ToolScope } from '../../shared/tools';
import type { EventPayload } from '../events/eventLine';
import type { JsonConfig } from '../kernel/jsonConfig';
import type { ConfigLocations } from './configLocations';
import type { DiskFacts } from './contextFiles';
import type {
  Json,
  ParsedTranscriptLine,
  ToolResult,
  TranscriptEntry,
  TranscriptFileContext,
} from './transcriptEntry';
import type { ConfigEntry, ScanProblem } from './toolTypes';
import type { AgentEvent, ToolCall } from './types';
import type { AgentId } from '../../shared/agents';

/** Reads the agent's hook payloads. Cheap and dependency-light: the recorder runs it on every hook call. */
export interface PayloadReader {
  /** The agent whose payloads it reads. */
  agent: AgentId;
  /** How sure it is that the payload is this agent's: 0 not at all, 1 a guess, 2 certain. */
  recognise(payload: EventPayload): number;
  /** The payload in neutral form; undefined for payloads of no event this adapter knows. */
  normalise(payload: EventPayload): AgentEvent | undefined;
  /** False for an agent that reads nothing a hook prints (so the recorder prints no session context). */
  readsHookOutput?: false;
  /**
   * Which reader is asked first when two are as sure: the more specific payload shape higher. Claude
   * Code's shape is shared by others, so it is the lowest.
   */
  specificity: number;
}

/** The text of a settings file before and after a change; `after` undefined means the file is removed. */
export interface SettingsPlan {
  file: string;
  before: string | undefined;
  after: string | undefined;
  /** One line per change, for the confirmation shown before writing. */
  changes: string[];
  /** Connecting: the command each event's hook runs, as written (the recorder's may become `sh` spooling). */
  commands?: Record<string, string>;
  /** The mode the file is written with (0o700: an executable hook file, as Cline runs them). */
  mode?: number;
  /**
   * Further files the same change writes or removes, each planned alike (Cline: a file per hook); `changes`
   * above already says what they change.
   */
  more?: SettingsPlan[];
}

/**
 * Installs the recorder in the agent's own settings. Connecting then disconnecting leaves every file as it
 * was, byte for byte (a file that connecting created is removed again).
 */
export interface HookInstaller<Scope extends string = string> {
  scopes: readonly Scope[];
  /** One line saying who a scope is for, for the Connect picker. */
  describeScope(scope: Scope): string;
  settingsPath(scope: Scope, projectRoot: string, userHome: string): string;
  planConnect(file: string, before: string | undefined, command: string): SettingsPlan;
  planDisconnect(file: string, before: string | undefined): SettingsPlan;
  isConnected(file: string, text: string | undefined): boolean;
  /** What the user still has to do in the agent before the hooks run, said once they are written. */
  afterConnect?: string;
}

/**
 * One fact read from an agent's session file, in neutral form, in file order. Keys make re-reading a file
 * (or a forked copy of it) count each prompt and tool call once.
 */
export type SessionItem =
  | {
      type: 'session';
      sessionId: string;
      at: number;
      cwd?: string;
      model?: string;
      /** The agent (opencode: plan, build; a subagent's type) the session runs as. */
      agentType?: string;
      /** The session this one was forked from or continues. */
      parentSessionId?: string;
      /** When the agent says the session ended, and how (Cline CLI 3.0's manifest `ended_at`, `status`). */
      endedAt?: number;
      endReason?: string;
    }
  | { type: 'prompt'; sessionId: string; at: number; key: string; text: string }
  | { type: 'tool'; sessionId: string; at: number; call: ToolCall & { useId: string } }
  | {
      type: 'usage';
      sessionId: string;
      at: number;
      /** Tokens in the context after this turn (what the gauge shows). */
      contextTokens: number;
      /** The model's context window, where the file says it. */
      contextWindow?: number;
      /**
       * Where the agent compacts that window, where the agent's own data on the model says it (opencode:
       * its catalogue's input and output limits); otherwise its adapter's `contextLimits` decide.
       */
      compactAt?: number;
      model?: string;
    }
  | { type: 'compact'; sessionId: string; at: number; trigger?: string }
  /** The summary the agent wrote when it compacted (Codex's `compacted` record, opencode's summary message). */
  | { type: 'compact-summary'; sessionId: string; at: number; text: string }
  /**
   * The agent's last message of a turn so far: what it reported to the user when it stopped. The latest
   * before the session's next prompt (or the end of what was read) is the turn's; reports with one `key`
   * are parts of one message, joined.
   */
  | { type: 'report'; sessionId: string; at: number; text: string; key?: string }
  /**
   * A tool call started, in an agent whose file records its use and its result apart (a message transcript):
   * the call waits for its result, in this read or a later one.
   */
  | { type: 'tool-use'; sessionId: string; at: number; useId: string; name: string; input: Json }
  /** The result of a `tool-use`, which the adapter's `toolEvents` reads into the finished call. */
  | { type: 'tool-result'; sessionId: string; at: number; result: ToolResult }
  | {
      /**
       * A fixed part of the prompt the file holds (Codex: its base instructions, the AGENTS.md and
       * environment messages it adds), by its characters; `key` makes a part repeated each turn count once.
       */
      type: 'context';
      sessionId: string;
      at: number;
      category: 'system_prompt' | 'memory_files';
      key: string;
      chars: number;
    };

/** A started call, as its `tool-use` item said it. */
export type ToolUseItem = Extract<SessionItem, { type: 'tool-use' }>;

/** Finds and reads the agent's session files. */
export interface SessionFiles {
  /**
   * Whether the files say how full the context is (token usage per turn): the live gauge follows only
   * those agents' sessions. A function answers for one file, for agents whose files carry usage only in
   * some versions.
   */
  measuresContext: boolean | ((file: string) => boolean);
  /** Session files under the agent's data folders that may belong to `projectRoot`, newest last. */
  find(projectRoot: string, env: NodeJS.ProcessEnv): string[];
  /** Whether a file's first lines (or bytes) are this agent's session format. */
  recognise(head: string): boolean;
  /**
   * The file of one session, for an agent that keeps a file per session but names none in its events
   * (Cline: `tasks/<id>/ui_messages.json`); without it, the newest file `find` gives stands for any session.
   */
  fileOf?(sessionId: string, env: NodeJS.ProcessEnv): string | undefined;
  /**
   * Everything the file says, in order; bad lines are skipped and counted. A store shared by all projects
   * (opencode's database) gives only the sessions of `projectRoot` when it is given, and only `sessionId`
   * (the one the live gauge follows) when that is one of them.
   */
  read(
    file: string,
    options?: { projectRoot?: string; sessionId?: string },
  ): Promise<{ items: SessionItem[]; skipped: number }>;
}

/**
 * Session files that hold a conversation's messages, a JSON line each, appended as the session runs (Claude
 * Code's transcripts). They are read incrementally, a chunk at a time: the import resumes where it stopped,
 * and the live gauge breaks the context down by each message's parts (agents/transcriptEntry.ts), which
 * neutral session items do not carry.
 */
export interface MessageTranscripts {
  /** One line in neutral form, or why nothing of a transcript can be read from it. */
  parseLine(line: string): ParsedTranscriptLine;
  /** Whether a file's first lines are this agent's transcript. */
  recognise(head: string): boolean;
  /** The prompt the person typed, as the prompt hook reports it; undefined for an entry that is none. */
  promptOf(entry: TranscriptEntry): string | undefined;
  /**
   * What one line says, as session items, in order (the import writes them as every agent's); `file` is
   * what the file said so far, which the line may update (its latest time).
   */
  items(entry: TranscriptEntry, file: TranscriptFileContext): SessionItem[];
  /** The events a finished call stands for (its end or failure, a subagent's report), as its hooks say them. */
  toolEvents(use: ToolUseItem, result: ToolResult, cwd: string | undefined): AgentEvent[];
  /** Transcripts of sessions that may have run in `roots` or below; `dir` searches that data folder instead. */
  find(roots: readonly string[], dir?: string): string[];
  /** The transcripts in a folder the user named. */
  list(folder: string): string[];
  /** The newest transcript of a session run in `projectRoot` itself. */
  active(projectRoot: string, dir?: string): string | undefined;
  /** The session a file is of, by its path; a subagent's file holds no prompt of the user's. */
  sessionOf(file: string): { sessionId: string; subagent: boolean };
  /** The files the agent puts in every context of a session in `projectRoot` (memory files, listings). */
  contextFiles(projectRoot: string, transcript: string, dir?: string): DiskFacts;
}

/** An MCP server the agent's config declares. */
export interface DeclaredServer {
  name: string;
  /** The declaring file and 1-based line, to open it there. */
  file: string;
  line: number;
  /** A plugin's servers are found by the plugin scan (registry/pluginScan.ts), not here. */
  scope: Exclude<ToolScope, 'plugin'>;
  /** "stdio: npx -y server" or "http: https://…", credentials redacted. */
  description?: string;
  disabled: boolean;
}

/** What a scan of the agents' tool configs gives each agent: where to look, and a reader of JSON files. */
export interface ToolScanContext {
  locations: ConfigLocations;
  scopes: readonly ToolScope[];
  /** Parses a JSON config (a repository's only where it really is inside it), reporting what is wrong with it. */
  read(file: string): JsonConfig | undefined;
  problems: ScanProblem[];
}

export interface ToolConfig {
  /** The config files that declare the agent's MCP servers, for watching. */
  files(projectRoot: string, userHome: string, env: NodeJS.ProcessEnv): string[];
  /** Servers declared in those files; problems (a file that does not parse) are reported, not thrown. */
  servers(
    projectRoot: string,
    userHome: string,
    env: NodeJS.ProcessEnv,
  ): { servers: DeclaredServer[]; problems: ConfigFileProblem[] };
  /** The name the agent gives tool `tool` of server `server` in its events. */
  mcpToolName(server: string, tool: string): string;
  /**
   * Every tool the config declares, for an agent whose config holds more than MCP servers (Claude Code:
   * skills, commands, subagents, plugins, and servers in its own precedence); others are scanned by `servers`.
   */
  entries?(context: ToolScanContext): ConfigEntry[];
  /**
   * Switch one of the agent's MCP servers off or on for the project, in the agent's own config: the plan,
   * or why it cannot be done there; undefined when no file of this agent declares the server.
   */
  switchServer?(locations: ConfigLocations, server: string, enabled: boolean): ServerSwitchPlan | undefined;
}

/** A server switched off or on in an agent's config file, planned first so the user can confirm it. */
export type ServerSwitchPlan =
  | {
      supported: true;
      server: string;
      enabled: boolean;
      /** The agent that applies it (from its next session). */
      agent: string;
      file: string;
      before: string | undefined;
      after: string;
      /** One line per change, for the confirmation; empty when the file already says so. */
      changes: string[];
      /** What else still affects the server, e.g. another file that disables it too. */
      notes: string[];
    }
  | { supported: false; server: string; enabled: boolean; reason: string };

/** How the memory MCP server is started: an absolute runtime, its arguments and extra environment. */
export interface ServerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Adds Context Deck's memory MCP server (named `context-deck`) to the agent's MCP config for a project, so
 * the agent can search past sessions. Adding then removing leaves the file as it was, byte for byte.
 */
export interface MemoryServerInstaller {
  /** The project-level config file the server is added to. */
  configPath(projectRoot: string, userHome: string): string;
  planAdd(file: string, before: string | undefined, launch: ServerLaunch): SettingsPlan;
  planRemove(file: string, before: string | undefined): SettingsPlan;
  isAdded(file: string, text: string | undefined): boolean;
}

/**
 * Where an agent leaves traces: folders and files in a project and at home, and its command on PATH. A
 * project trace activates the extension (package.json `activationEvents`, checked against these by
 * hostCommands.test.ts), and Connect offers the agents whose traces it finds.
 */
export interface AgentTraces {
  home: readonly string[];
  project: readonly string[];
  command?: string;
}

/** How the agent manages its context window on its own. */
export interface ContextLimits {
  /**
   * The context size, in tokens, at which the agent compacts (condenses, truncates) a window of `window`
   * tokens for `model`: where the forecast and the warning point.
   */
  compactAt(window: number, model?: string): number;
  /** The window the agent gives `model`, as its own model catalogue says; undefined for a model it does not list. */
  windowOf?(model: string): number | undefined;
  /**
   * Tokens the agent's own display leaves out of the window and the count (Codex's footer: 12,000 for its
   * prompt and tools), where it shows "N% context left" of the rest.
   */
  displayBaseline?: number;
}

export interface AgentAdapter {
  id: AgentId;
  displayName: string;
  traces: AgentTraces;
  payloads: PayloadReader;
  hooks?: HookInstaller;
  sessions?: SessionFiles;
  transcripts?: MessageTranscripts;
  tools?: ToolConfig;
  memoryServer?: MemoryServerInstaller;
  /** Without it the agent is taken to use its whole window before it compacts. */
  contextLimits?: ContextLimits;
}

/** An agent whose session files are read into session items. */
export type SessionAdapter = AgentAdapter & { sessions: SessionFiles };

/** An agent whose session files are message transcripts. */
export type TranscriptAdapter = AgentAdapter & { transcripts: MessageTranscripts };

/** Whether `file`, a session file of the agent with these `sessions`, says how full the context is. */
export function measuresContextOf(sessions: SessionFiles | undefined, file: string): boolean {
  const measures = sessions?.measuresContext ?? false;
  return typeof measures === 'function' ? measures(file) : measures;
}
