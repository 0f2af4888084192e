/**
 * The memory MCP server as an entry of a JSON (with comments) MCP config, the shape Claude Code's
 * `.mcp.json`, VS Code's `.vscode/mcp.json` and opencode's `opencode.json` share: one object of servers by
 * name. Minimal text edits; adding then removing gives the file back as it was.
 */
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { MemoryServerInstaller, ServerLaunch, SettingsPlan } from './adapter';
import { JsoncDocument, parseJsonc } from './jsoncEdit';
import { type Json, isObject } from './jsonValues';

/** The server's name in every agent's config; Claude Code shows its tools as `mcp__context-deck__<tool>`. */
const MEMORY_SERVER_NAME = 'context-deck';

/** The command line as one would type it, for the confirmation. */
export function commandLine(launch: ServerLaunch): string {
  const words = [launch.command, ...launch.args].map((word) =>
    /[\s"'\\]/.test(word) || word === '' ? JSON.stringify(word) : word,
  );
  return [...Object.entries(launch.env).map(([name, value]) => `${name}=${value}`), ...words].join(' ');
}

export interface JsonServerConfig {
  /** The key of the servers object: `mcpServers`, `servers`, `mcp`. */
  container: string;
  /** The entry as this agent's config spells it. */
  entry: (launch: ServerLaunch) => unknown;
  configPath: (projectRoot: string, userHome: string) => string;
}

export function jsonMemoryServer({ container, entry, configPath }: JsonServerConfig): MemoryServerInstaller {
  /** The servers object, undefined when absent; a file shaped otherwise is not edited. */
  const serversOf = (value: unknown, file: string): Json | undefined => {
    if (!isObject(value)) throw new Error(`${file} is not a JSON object; it was left untouched`);
    const servers = value[container];
    if (servers !== undefined && !isObject(servers))
      throw new Error(`${file}: "${container}" is not an object; it was left untouched`);
    return servers;
  };
  const where = (file: string) => `${container}.${MEMORY_SERVER_NAME} in ${path.basename(file)}`;

  return {
    configPath,

    planAdd(file, before, launch): SettingsPlan {
      const wanted = entry(launch);
      const document = new JsoncDocument(before, file);
      const existing = serversOf(document.value, file)?.[MEMORY_SERVER_NAME];
      if (isDeepStrictEqual(existing, wanted)) return { file, before, after: before, changes: [] };
      document.set([container, MEMORY_SERVER_NAME], wanted);
      const verb = existing === undefined ? 'add' : 'update';
      return {
        file,
        before,
        after: document.text,
        changes: [`${verb} the MCP server "${MEMORY_SERVER_NAME}" (${where(file)}): ${commandLine(launch)}`],
      };
    },

    planRemove(file, before): SettingsPlan {
      if (!before?.trim()) return { file, before, after: before, changes: [] };
      const document = new JsoncDocument(before, file);
      if (serversOf(document.value, file)?.[MEMORY_SERVER_NAME] === undefined)
        return { file, before, after: before, changes: [] };
      document.remove([container, MEMORY_SERVER_NAME]);
      const changes = [`remove the MCP server "${MEMORY_SERVER_NAME}" (${where(file)})`];
      // Adding created the servers object when the file had none: once empty, it goes too.
      const servers = serversOf(document.value, file);
      if (servers && Object.keys(servers).length === 0) document.remove([container]);
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
        return (
          isObject(value) && isObject(value[container]) && value[container][MEMORY_SERVER_NAME] !== undefined
        );
      } catch {
        return false; // A file that does not parse is reported when it is edited; it holds no server we know.
      }
    },
  };
}
