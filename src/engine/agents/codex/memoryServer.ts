/**
 * The memory MCP server in the project's `.codex/config.toml`, which Codex reads in trusted projects: a
 * `[mcp_servers.context-deck]` table with `command`, `args` and, when there is any, `env` as an inline table
 * (developers.openai.com/codex/mcp; openai/codex docs/config.md). No TOML library writes a file back as it
 * read it, so the file is edited as text, by whole lines: adding appends a blank line and our table, or
 * rewrites exactly our table's lines; removing deletes them again, so every other byte stays. Each edit is
 * checked by parsing the result, and refused when anything but our server would change.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { SettingsParseError } from '../jsoncEdit';
import type { MemoryServerInstaller, ServerLaunch, SettingsPlan } from '../adapter';
import { commandLine } from '../jsonMemoryServer';
import { type Table, isTable, parseToml } from './toml';

const SERVER_NAME = 'context-deck';
const KEY = `mcp_servers.${SERVER_NAME}`;

const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '"': '\\"',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\f': '\\f',
  '\r': '\\r',
};

/** A TOML basic string: backslashes, quotes and control characters escaped (a Windows path stays valid). */
export function tomlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    out +=
      ESCAPES[char] ?? (code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : char);
  }
  return `${out}"`;
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** Our table, one line per key, as Codex's docs write a server. */
function codexServerTable(launch: ServerLaunch): string[] {
  const lines = [
    `[${KEY}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(launch.env);
  if (env.length > 0)
    lines.push(
      `env = { ${env.map(([name, value]) => `${tomlKey(name)} = ${tomlString(value)}`).join(', ')} }`,
    );
  return lines;
}

/** smol-toml's tables have no prototype: plain objects, to compare with ours. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (isTable(value))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  return value;
}

/** Parsed for comparing: integers beyond 2^53 as BigInt, so any valid file reads (smol-toml rejects them). */
function parseForComparing(text: string): Table {
  return plain(parseToml(text, { integersAsBigInt: 'asNeeded' })) as Table;
}

function parseConfig(text: string, file: string): Table {
  try {
    return parseForComparing(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new SettingsParseError(file, `TOML: ${message}`);
  }
}

function serverIn(config: Table): unknown {
  return isTable(config.mcp_servers) ? config.mcp_servers[SERVER_NAME] : undefined;
}

/** Everything but our server (and an `mcp_servers` left empty, which adding may have created). */
function otherSettings(config: Table): Table {
  const rest = { ...config };
  if (isTable(rest.mcp_servers)) {
    const servers = { ...rest.mcp_servers };
    delete servers[SERVER_NAME];
    if (Object.keys(servers).length > 0) rest.mcp_servers = servers;
    else delete rest.mcp_servers;
  }
  return rest;
}

function wantedServer(launch: ServerLaunch): Table {
  return {
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
  };
}

const UNQUOTE: Readonly<Record<string, string>> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\x1b',
  '"': '"',
  '\\': '\\',
};

/** Where the string starting at `start` ends (after its closing quotes); basic, literal, single or multi-line. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  const triple = text.startsWith(quote.repeat(3), start);
  const delimiter = triple ? quote.repeat(3) : quote;
  let i = start + delimiter.length;
  while (i < text.length) {
    if (quote === '"' && text[i] === '\\') {
      i += 2;
      continue;
    }
    if (text.startsWith(delimiter, i)) {
      i += delimiter.length;
      // A multi-line string's content may end in one or two quotes right before the delimiter.
      for (let extra = 0; triple && extra < 2 && text[i] === quote; extra++) i++;
      return i;
    }
    if (!triple && text[i] === '\n') return i;
    i++;
  }
  return i;
}

/** The dotted key at `start` (bare, "basic" or 'literal' parts, spaces around dots). */
function readKey(text: string, start: number): string[] {
  const keys: string[] = [];
  let i = start;
  for (;;) {
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] === '"' || text[i] === "'") {
      const end = stringEnd(text, i);
      const body = text.slice(i + 1, end - 1);
      keys.push(
        text[i] === "'"
          ? body
          : body.replace(/\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{2}|.)/g, (_, escape: string) =>
              escape.length > 1
                ? String.fromCodePoint(Number.parseInt(escape.slice(1), 16))
                : UNQUOTE[escape],
            ),
      );
      i = end;
    } else {
      const bare = /^[A-Za-z0-9_-]*/.exec(text.slice(i))![0];
      keys.push(bare);
      i += bare.length;
    }
    while (text[i] === ' ' || text[i] === '\t') i++;
    if (text[i] !== '.') return keys;
    i++;
  }
}

interface Header {
  keys: string[];
  array: boolean;
  /** Offset of the header's line. */
  start: number;
}

/**
 * The table headers of a file that parses, skipping `[` inside strings, comments and values (an array may
 * span lines and hold arrays).
 */
function tableHeaders(text: string): Header[] {
  const headers: Header[] = [];
  let depth = 0;
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    if (lineStart) {
      lineStart = false;
      const start = i;
      while (text[i] === ' ' || text[i] === '\t') i++;
      if (depth === 0 && text[i] === '[') {
        const array = text[i + 1] === '[';
        headers.push({ keys: readKey(text, i + (array ? 2 : 1)), array, start });
        // Nothing but a comment follows a header on its line.
        const next = text.indexOf('\n', i);
        i = next < 0 ? text.length : next;
      }
      continue;
    }
    const char = text[i];
    if (char === '\n') {
      lineStart = true;
      i++;
    } else if (char === '#') {
      const next = text.indexOf('\n', i);
      i = next < 0 ? text.length : next;
    } else if (char === '"' || char === "'") {
      i = stringEnd(text, i);
    } else {
      if (char === '[' || char === '{') depth++;
      else if (char === ']' || char === '}') depth--;
      i++;
    }
  }
  return headers;
}

function isOurs(keys: string[]): boolean {
  return keys.length >= 2 && keys[0] === 'mcp_servers' && keys[1] === SERVER_NAME;
}

/**
 * Our table's lines: from its header to the next table that is not one of its sub-tables, less the blank
 * and comment lines before that table (they belong to it).
 */
function ourTable(text: string): { start: number; end: number } | undefined {
  const headers = tableHeaders(text);
  const index = headers.findIndex(
    (header) => !header.array && header.keys.length === 2 && isOurs(header.keys),
  );
  if (index < 0) return undefined;
  let next = index + 1;
  while (next < headers.length && isOurs(headers[next].keys)) next++;
  const start = headers[index].start;
  let end = next < headers.length ? headers[next].start : text.length;
  while (end > start) {
    const lineEnd = text[end - 1] === '\n' ? end - 1 : end;
    const lineStart = Math.max(start, text.lastIndexOf('\n', lineEnd - 1) + 1);
    const line = text.slice(lineStart, lineEnd).trim();
    if (line !== '' && !line.startsWith('#')) break;
    end = lineStart;
  }
  return { start, end };
}

/** The text without our table and the blank line adding put before it. */
function withoutTable(text: string, table: { start: number; end: number }): string {
  let head = text.slice(0, table.start).replace(/(\r?\n)\r?\n$/, '$1');
  const tail = text.slice(table.end);
  // A file that ended without a line break ends so again.
  if (tail === '' && !text.endsWith('\n')) head = head.replace(/\r?\n$/, '');
  return head + tail;
}

function refuse(file: string, detail: string): Error {
  return new Error(
    `${file} declares ${KEY} in a form Context Deck does not edit (${detail}); it was left untouched`,
  );
}

function where(file: string): string {
  return `${KEY} in ${path.basename(path.dirname(file))}/${path.basename(file)}`;
}

export const codexMemoryServer: MemoryServerInstaller = {
  configPath: (projectRoot) => path.join(projectRoot, '.codex', 'config.toml'),

  planAdd(file, before, launch): SettingsPlan {
    const text = before ?? '';
    const config = parseConfig(text, file);
    const wanted = wantedServer(launch);
    const existing = serverIn(config);
    if (isDeepStrictEqual(existing, wanted)) return { file, before, after: before, changes: [] };
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const lines = codexServerTable(launch).join(eol);
    const table = ourTable(text);
    let after: string;
    if (table) {
      const lineBreak = text[table.end - 1] === '\n' ? eol : '';
      after = text.slice(0, table.start) + lines + lineBreak + text.slice(table.end);
    } else if (text === '') after = lines + eol;
    // A blank line, then the table; a file that ends without a line break keeps ending without one.
    else if (text.endsWith('\n')) after = text + eol + lines + eol;
    else after = text + eol + eol + lines;
    let result: Table;
    try {
      result = parseForComparing(after);
    } catch (error) {
      throw refuse(file, error instanceof Error ? error.message.split('\n')[0] : String(error));
    }
    if (
      !isDeepStrictEqual(serverIn(result), wanted) ||
      !isDeepStrictEqual(otherSettings(result), otherSettings(config))
    )
      throw refuse(file, 'rewriting its table would change other settings');
    const verb = existing === undefined ? 'add' : 'update';
    return {
      file,
      before,
      after,
      changes: [`${verb} the MCP server "${SERVER_NAME}" (${where(file)}): ${commandLine(launch)}`],
    };
  },

  planRemove(file, before): SettingsPlan {
    if (before === undefined) return { file, before, after: before, changes: [] };
    const config = parseConfig(before, file);
    if (serverIn(config) === undefined) return { file, before, after: before, changes: [] };
    const table = ourTable(before);
    if (!table) throw refuse(file, 'not as its own table');
    const after = withoutTable(before, table);
    let result: Table;
    try {
      result = parseForComparing(after);
    } catch (error) {
      throw refuse(file, error instanceof Error ? error.message.split('\n')[0] : String(error));
    }
    if (serverIn(result) !== undefined || !isDeepStrictEqual(otherSettings(result), otherSettings(config)))
      throw refuse(file, 'removing its table would leave part of it or change other settings');
    const changes = [`remove the MCP server "${SERVER_NAME}" (${where(file)})`];
    if (after === '')
      return {
        file,
        before,
        after: undefined,
        changes: [...changes, `remove ${file}, which holds nothing else`],
      };
    return { file, before, after, changes };
  },

  isAdded(file, text): boolean {
    if (!text) return false;
    try {
      return serverIn(parseConfig(text, file)) !== undefined;
    } catch {
      return false; // A file that does not parse is reported when it is edited; it holds no server we know.
    }
  },
};
