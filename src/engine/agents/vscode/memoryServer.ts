/**
 * The memory MCP server in the workspace's `.vscode/mcp.json`: `servers.<name>` is
 * `{ "type": "stdio", "command", "args", "env"? }` (code.visualstudio.com/docs/copilot/reference/mcp-configuration,
 * "Standard I/O (stdio) servers"). The file is JSON with comments, edited by minimal text edits.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { JsoncDocument, parseJsonc } from '../jsoncEdit';
import type { MemoryServerInstaller, ServerLaunch, SettingsPlan } from '../adapter';

const SERVER_NAME = 'context-deck';
const CONTAINER = 'servers';
const KEY = `${CONTAINER}.${SERVER_NAME}`;

export interface VscodeServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export function vscodeServerEntry(launch: ServerLaunch): VscodeServerEntry {
  return {
    type: 'stdio',
    command: launch.command,
    args: launch.args,
    ...(Object.keys(launch.env).length > 0 ? { env: launch.env } : {}),
  };
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The `servers` object, undefined when absent; a file shaped otherwise is not edited. */
function serversOf(value: unknown, file: string): Json | undefined {
  if (!isObject(value)) throw new Error(`${file} is not a JSON object; it was left untouched`);
  const servers = value[CONTAINER];
  if (servers !== undefined && !isObject(servers))
    throw new Error(`${file}: "${CONTAINER}" is not an object; it was left untouched`);
  return servers;
}

/** The command line as one would type it, for the confirmation. */
function commandLine(launch: ServerLaunch): string {
  const words = [launch.command, ...launch.args].map((word) =>
    /[\s"'\\]/.test(word) || word === '' ? JSON.stringify(word) : word,
  );
  return [...Object.entries(launch.env).map(([name, value]) => `${name}=${value}`), ...words].join(' ');
}

function where(file: string): string {
  return `${KEY} in ${path.basename(path.dirname(file))}/${path.basename(file)}`;
}

export const vscodeMemoryServer: MemoryServerInstaller = {
  configPath: (projectRoot) => path.join(projectRoot, '.vscode', 'mcp.json'),

  planAdd(file, before, launch): SettingsPlan {
    const entry = vscodeServerEntry(launch);
    const document = new JsoncDocument(before, file);
    const existing = serversOf(document.value, file)?.[SERVER_NAME];
    if (isDeepStrictEqual(existing, entry)) return { file, before, after: before, changes: [] };
    document.set([CONTAINER, SERVER_NAME], entry);
    const verb = existing === undefined ? 'add' : 'update';
    return {
      file,
      before,
      after: document.text,
      changes: [`${verb} the MCP server "${SERVER_NAME}" (${where(file)}): ${commandLine(launch)}`],
    };
  },

  planRemove(file, before): SettingsPlan {
    if (!before?.trim()) return { file, before, after: before, changes: [] };
    const document = new JsoncDocument(before, file);
    if (serversOf(document.value, file)?.[SERVER_NAME] === undefined)
      return { file, before, after: before, changes: [] };
    document.remove([CONTAINER, SERVER_NAME]);
    const changes = [`remove the MCP server "${SERVER_NAME}" (${where(file)})`];
    // Adding created `servers` when the file had none: once empty, it goes too.
    const servers = serversOf(document.value, file);
    if (servers && Object.keys(servers).length === 0) document.remove([CONTAINER]);
    const value = document.value;
    if (isObject(value) && Object.keys(value).length === 0 && !/\/[/*]/.test(document.text))
      return {
        file,
        before,
        after: undefined,
        changes: [...changes, `remove ${file}, which holds nothing else`],
      };
    return { file, before, after: document.text, changes };
  },

  isAdded(file, text): boolean {
    if (!text?.trim()) return false;
    try {
      const value = parseJsonc(text, file);
      return isObject(value) && isObject(value[CONTAINER]) && value[CONTAINER][SERVER_NAME] !== undefined;
    } catch {
      return false; // A file that does not parse is reported when it is edited; it holds no server we know.
    }
  },
};
