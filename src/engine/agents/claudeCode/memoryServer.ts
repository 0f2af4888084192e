/**
 * The memory MCP server in Claude Code's project `.mcp.json` (`mcpServers.context-deck`), as the adapter's
 * installer: the edits are mcpServerConfig.ts's; this adds what adding-then-removing needs to give the
 * file back as it was (the emptied `mcpServers` dropped, a file left holding nothing removed).
 */
import * as path from 'node:path';
import { JsoncDocument, parseJsonc } from '../jsoncEdit';
import {
  CLAUDE_SERVER_NAME,
  claudeServerEntry,
  planServerInstall,
  planServerUninstall,
} from '../mcpServerConfig';
import type { MemoryServerInstaller, SettingsPlan } from '../adapter';

const CONTAINER = 'mcpServers';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function serverOf(value: unknown): unknown {
  return isObject(value) && isObject(value[CONTAINER]) ? value[CONTAINER][CLAUDE_SERVER_NAME] : undefined;
}

export const claudeMemoryServer: MemoryServerInstaller = {
  configPath: (projectRoot) => path.join(projectRoot, '.mcp.json'),

  planAdd(file, before, launch): SettingsPlan {
    const plan = planServerInstall(file, before, claudeServerEntry(launch));
    // Nothing to do leaves the file as it is (planServerInstall says '' for "no text").
    return plan.changes.length > 0 ? plan : { ...plan, after: before };
  },

  planRemove(file, before): SettingsPlan {
    const plan = planServerUninstall(file, before);
    if (plan.changes.length === 0) return { ...plan, after: before };
    const document = new JsoncDocument(plan.after, file);
    // Adding created `mcpServers` when the file had none: once empty, it goes too.
    const servers = (document.value as Json)[CONTAINER];
    if (isObject(servers) && Object.keys(servers).length === 0) document.remove([CONTAINER]);
    const value = document.value;
    if (isObject(value) && Object.keys(value).length === 0 && !/\/[/*]/.test(document.text))
      return {
        ...plan,
        after: undefined,
        changes: [...plan.changes, `remove ${file}, which holds nothing else`],
      };
    return { ...plan, after: document.text };
  },

  isAdded(file, text): boolean {
    if (!text?.trim()) return false;
    try {
      return serverOf(parseJsonc(text, file)) !== undefined;
    } catch {
      return false; // A file that does not parse is reported when it is edited; it holds no server we know.
    }
  },
};
