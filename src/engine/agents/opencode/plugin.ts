/**
 * The opencode plugin Connect installs: a small dependency-free ES module that opencode loads from its
 * plugin folder and that runs our recorder once per event of interest.
 *
 * Why it looks as it does (opencode 1.x, packages/opencode/src/plugin/ and packages/plugin/src/index.ts):
 * - A plugin file's exports are called as `Plugin(input)` with `{ project, client, $, directory, worktree }`
 *   and return hooks. One default-exported function, and nothing else, loads in every 1.x loader: older ones
 *   call every export, newer ones call every export unless `default` is an object (`{ id, server }`), and
 *   throw on an export that is not a function.
 * - It listens to the bus (`event`) rather than `tool.execute.after`: that hook has been reported not to fire
 *   in some versions, for MCP tools and under `opencode run`, while every tool part reaches the bus.
 *   Prompts come from `chat.message`, which carries the user's text parts.
 * - opencode is a Bun single-file executable, so `process.execPath` is opencode itself, not a JavaScript
 *   runtime for our Node script: the recorder runs with `node` (from PATH, or the absolute runtime given).
 * - Nothing is awaited and nothing is thrown: `spawn` detached with stdin piped and the rest ignored, the
 *   payload written, stdin ended, the child unref'd; errors (no `node`, no recorder) are swallowed.
 * - The session context: for a main session's start the recorder's output (Claude Code's hook JSON, its
 *   `additionalContext`) is kept, and `experimental.chat.system.transform` ({ sessionID?, model } and
 *   { system: string[] }, called before every model call, whose system prompt is assembled anew each time)
 *   adds it to that session's system lines, waiting at most a few seconds for the recorder the first time.
 */

import type { RecorderLaunch } from '../recorderCommand';

/** The file name in opencode's plugin folder; opencode loads `{plugin,plugins}/*.{ts,js}`. */
export const PLUGIN_FILE_NAME = 'context-deck.js';

/** Present in every plugin we generate: a file without it is someone else's and is never touched. */
const PLUGIN_MARKER = 'context-deck-opencode-plugin';

interface Launch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function launchOf(recorder: RecorderLaunch): Launch {
  const args = [recorder.hook, ...(recorder.home ? ['--home', recorder.home] : []), '--agent', 'opencode'];
  return recorder.electronRunAsNode
    ? { command: recorder.node, args, env: { ELECTRON_RUN_AS_NODE: '1' } }
    : { command: recorder.node, args };
}

const IMPORTS = `import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
`;

const BODY = String.raw`// At most this many sessions and tool parts are remembered.
const KEEP = 2000;
// How long a model call waits for the session context, and how much of the recorder's output is read.
const CONTEXT_WAIT_MS = 5000;
const MAX_OUTPUT = 64 * 1024;

function recorder() {
  if (RECORDER) return RECORDER;
  const home = process.env.CONTEXT_DECK_HOME || join(homedir(), ".context-deck");
  const hook = join(home, "bin", "hook.js");
  return existsSync(hook) ? { command: "node", args: [hook, "--agent", "opencode"] } : undefined;
}

// The session context in the recorder's output (Claude Code's SessionStart hook JSON), if any.
function contextOf(output) {
  try {
    const text = JSON.parse(output).hookSpecificOutput.additionalContext;
    return typeof text === "string" && text.trim() ? text : undefined;
  } catch {
    return undefined;
  }
}

// Runs the recorder on the payload; with withOutput, resolves to the session context it prints.
function send(payload, withOutput) {
  try {
    const target = recorder();
    if (!target) return undefined;
    const child = spawn(target.command, target.args, {
      stdio: ["pipe", withOutput ? "pipe" : "ignore", "ignore"],
      detached: true,
      windowsHide: true,
      env: target.env ? { ...process.env, ...target.env } : process.env,
    });
    child.on("error", () => {});
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
    child.unref();
    if (!withOutput) return undefined;
    return new Promise((resolve) => {
      let output = "";
      child.stdout.on("data", (chunk) => {
        if (output.length < MAX_OUTPUT) output += chunk;
      });
      child.stdout.on("error", () => resolve(undefined));
      child.on("error", () => resolve(undefined));
      child.on("close", () => resolve(contextOf(output)));
    });
  } catch {
    // Recording must never disturb opencode.
    return undefined;
  }
}

// A promise's value, or undefined once ms have passed.
function within(promise, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// The agent's words are kept up to this many characters (a compaction summary runs to some 16,000).
const WORDS_MAX = 32000;
const TEXTS_KEPT = 20;

function remember(map, key, value, keep = KEEP) {
  map.delete(key);
  map.set(key, value);
  if (map.size > keep) map.delete(map.keys().next().value);
  return value;
}

// A tool part without the bulky metadata (bash repeats its output there, edit its diff).
function slimPart(part) {
  const state = part.state || {};
  const metadata = state.metadata || {};
  const kept = {};
  for (const key of ["exit", "exists", "interrupted", "truncated", "sessionId"]) {
    if (key in metadata) kept[key] = metadata[key];
  }
  return {
    id: part.id,
    sessionID: part.sessionID,
    messageID: part.messageID,
    type: part.type,
    callID: part.callID,
    tool: part.tool,
    state: {
      status: state.status,
      input: state.input,
      output: state.output,
      error: state.error,
      title: state.title,
      metadata: kept,
      time: state.time,
    },
  };
}

export default async function ContextDeckRecorder(input) {
  const directory = (input && input.directory) || process.cwd();
  const sessions = new Map();
  const recorded = new Map();
  // The latest text of each message, and which messages are the agent's (or its compaction summary).
  const texts = new Map();
  const messages = new Map();
  const session = (id) => sessions.get(id) || remember(sessions, id, {});

  const emit = (name, hook, sessionID, properties, extra, withOutput) => {
    const known = sessionID ? session(sessionID) : {};
    return send({
      opencode_event: name,
      hook_event_name: hook,
      session_id: sessionID,
      cwd: known.cwd || directory,
      agent_type: known.agent,
      model: known.model,
      parent_session_id: known.parent,
      ...extra,
      properties,
    }, withOutput);
  };

  const learn = (info) => {
    if (!info || !info.sessionID) return;
    const known = session(info.sessionID);
    if (info.id) remember(messages, info.id, { role: info.role, summary: info.summary === true });
    if (info.role === "assistant" && info.id) {
      if (info.summary === true) known.summaryMessage = info.id;
      else known.lastMessage = info.id;
    }
    if (info.role === "assistant") {
      known.agent = info.agent || info.mode || known.agent;
      known.model = info.modelID || known.model;
    } else if (info.role === "user") {
      known.agent = info.agent || known.agent;
      known.model = (info.model && info.model.modelID) || known.model;
    }
  };

  // The agent's words: what it said last (sent with the stop) and its compaction summary (with the compaction).
  const wordsOf = (messageID) => {
    const text = messageID && texts.get(messageID);
    return typeof text === "string" && text.trim() ? text.slice(0, WORDS_MAX) : undefined;
  };

  const onPart = (part, properties) => {
    if (!part || !part.sessionID) return;
    if (part.type === "text" && part.messageID && typeof part.text === "string" && !part.synthetic) {
      // Only the latest messages' texts: each may run to tens of kilobytes.
      remember(texts, part.messageID, part.text, TEXTS_KEPT);
      return;
    }
    if (part.type === "compaction") {
      session(part.sessionID).trigger = part.auto ? "auto" : "manual";
      return;
    }
    if (part.type !== "tool" || !part.state) return;
    const status = part.state.status;
    if (status !== "completed" && status !== "error") return;
    // Compaction later marks old tool output as compacted: the same call, not a new one.
    if (part.state.time && part.state.time.compacted) return;
    if (recorded.has(part.id)) return;
    remember(recorded, part.id, true);
    const hook = status === "error" ? "PostToolUseFailure" : "PostToolUse";
    emit("message.part.updated", hook, part.sessionID, { ...properties, part: slimPart(part) }, {
      tool_name: part.tool,
      tool_use_id: part.callID,
    });
  };

  const onEvent = (event) => {
    const type = event && event.type;
    const properties = (event && event.properties) || {};
    switch (type) {
      case "message.part.updated":
        return onPart(properties.part, properties);
      case "message.updated":
        return learn(properties.info);
      case "session.created":
      case "session.updated": {
        const info = properties.info || {};
        const id = info.id || properties.sessionID;
        if (!id) return;
        const known = session(id);
        if (info.parentID) known.parent = info.parentID;
        if (info.directory) known.cwd = info.directory;
        if (info.agent) known.agent = info.agent;
        if (info.model && info.model.id) known.model = info.model.id;
        if (type !== "session.created") return;
        // Subagents start from their task's prompt: the context is the main session's.
        const output = emit(type, "SessionStart", id, properties, { source: "startup" }, !known.parent);
        if (output) known.context = output;
        return;
      }
      case "session.status":
        // Since 1.x the bus reports idle as a status (session.idle is deprecated): one stop per busy spell.
        if (properties.status && properties.status.type !== "idle") {
          if (properties.sessionID) session(properties.sessionID).stopped = false;
          return;
        }
      // falls through
      case "session.idle": {
        const id = properties.sessionID;
        const known = id ? session(id) : {};
        if (known.stopped) return;
        known.stopped = true;
        return emit("session.idle", known.parent ? "SubagentStop" : "Stop", id, properties, {
          last_assistant_message: wordsOf(known.lastMessage),
        });
      }
      case "session.compacted": {
        const id = properties.sessionID;
        const known = id ? session(id) : {};
        const trigger = known.trigger;
        delete known.trigger;
        return emit(type, "PostCompact", id, properties, { trigger, compact_summary: wordsOf(known.summaryMessage) });
      }
      case "session.deleted": {
        const info = properties.info || {};
        const id = info.id || properties.sessionID;
        emit(type, "SessionEnd", id, properties, { reason: "deleted" });
        sessions.delete(id);
        return;
      }
      case "session.error":
        return emit(type, "StopFailure", properties.sessionID, properties);
    }
  };

  const onMessage = (hookInput, output) => {
    const sessionID = hookInput && hookInput.sessionID;
    if (!sessionID) return;
    const message = (output && output.message) || {};
    const parts = (output && output.parts) || [];
    const known = session(sessionID);
    known.stopped = false;
    known.agent = hookInput.agent || message.agent || known.agent;
    known.model = (hookInput.model && hookInput.model.modelID) || (message.model && message.model.modelID) || known.model;
    const text = parts
      .filter((part) => part && part.type === "text" && !part.synthetic && !part.ignored && typeof part.text === "string")
      .map((part) => part.text)
      .join("\n");
    if (!text.trim()) return;
    emit(
      "chat.message",
      "UserPromptSubmit",
      sessionID,
      { sessionID, agent: hookInput.agent, model: hookInput.model, messageID: hookInput.messageID },
      { prompt: text, message_id: hookInput.messageID || message.id },
    );
  };

  return {
    event: async (hookInput) => {
      try {
        onEvent(hookInput && hookInput.event);
      } catch {
        // Never let recording fail an event.
      }
    },
    "chat.message": async (hookInput, output) => {
      try {
        onMessage(hookInput, output);
      } catch {
        // Never let recording fail a message.
      }
    },
    "experimental.chat.system.transform": async (hookInput, output) => {
      try {
        const id = hookInput && hookInput.sessionID;
        const known = id && sessions.get(id);
        if (!known || !known.context || !output || !Array.isArray(output.system)) return;
        // Only the first model call waits: a recorder that has not answered by then is not waited for again.
        const text = await within(known.context, known.waited ? 0 : CONTEXT_WAIT_MS);
        known.waited = true;
        if (text) output.system.push(text);
      } catch {
        // Never let recording fail a model call.
      }
    },
  };
}
`;

/**
 * The plugin's source. With a recorder it runs that runtime and script (this machine's own global plugin);
 * without, it names no path of this machine and finds the recorder at run time, doing nothing where Context
 * Deck is not installed (the team's project plugin).
 */
export function pluginSource(recorder?: RecorderLaunch): string {
  const launch = recorder ? JSON.stringify(launchOf(recorder)) : 'undefined';
  return (
    `// Context Deck's recorder for opencode (${PLUGIN_MARKER} v1): sends opencode's sessions, prompts and\n` +
    `// tool calls to Context Deck. Written by Connect and removed by Disconnect: edits here are lost.\n` +
    IMPORTS +
    `\n// The recorder to run; undefined: <$CONTEXT_DECK_HOME or ~/.context-deck>/bin/hook.js, with node from PATH.\n` +
    `const RECORDER = ${launch};\n\n` +
    BODY
  );
}

export function isContextDeckPlugin(text: string | undefined): boolean {
  return text !== undefined && text.includes(PLUGIN_MARKER);
}
