/**
 * Disabling and re-enabling an MCP server for one project, in the config of the agent that declares it:
 * each adapter plans it in its own files (`ToolConfig.switchServer`: Claude Code's
 * `disabledMcpjsonServers`, opencode's `"enabled": false`), or says why it cannot and what to do instead.
 * Planned first, so the user can confirm, then written with a backup.
 */
import { AGENT_ADAPTERS } from '../agents';
import type { ServerSwitchPlan } from '../agents/adapter';
import { readSettingsText, settingsBackupDir, writeSettingsWithBackup } from '../agents/jsoncEdit';
import { unsupportedSwitch } from '../agents/serverSwitchPlan';
import { type ConfigLocationOptions, configLocations } from '../agents/configLocations';
import type { RankedTool } from './ranking';
import type { ConfigScan } from '../agents/toolTypes';

export interface ServerToggleOptions extends ConfigLocationOptions {
  /** The server's key as written in the config (`RankedTool.server` of its entry). */
  server: string;
  enabled: boolean;
}

/**
 * `user`: a click on Disable or Re-enable, confirmed with the exact change first; `undo`: the Undo of a
 * change the user has just confirmed, which reverts without asking again.
 */
export type ToggleRequest = 'user' | 'undo';

export type ServerTogglePlan = ServerSwitchPlan;

export function planProjectServerEnabled(options: ServerToggleOptions): ServerTogglePlan {
  const locations = configLocations(options);
  const { server, enabled } = options;
  for (const adapter of AGENT_ADAPTERS) {
    const plan = adapter.tools?.switchServer?.(locations, server, enabled);
    if (plan) return plan;
  }
  return unsupportedSwitch(
    server,
    enabled,
    `${server} is not declared in .mcp.json, nor in any other config file of this project an agent reads`,
  );
}

/** Write a planned change (backup under `home`); refuses when the file changed since it was planned. */
export function writeProjectServerEnabled(
  plan: Extract<ServerTogglePlan, { supported: true }>,
  home: string,
  now = Date.now(),
): string | undefined {
  if (plan.changes.length === 0) return undefined;
  if (readSettingsText(plan.file) !== plan.before)
    throw new Error(`${plan.file} changed after the change was planned; plan it again`);
  return writeSettingsWithBackup(plan.file, plan.after, home, now);
}

/** The modal showing a planned change before it is written; none for an Undo: its inverse was confirmed. */
export function toggleConfirmation(
  plan: Extract<ServerTogglePlan, { supported: true }>,
  request: ToggleRequest,
  projectName: string,
  home: string,
): { message: string; detail: string; button: string } | undefined {
  if (request === 'undo') return undefined;
  const button = plan.enabled ? 'Enable' : 'Disable';
  return {
    message: `${button} the MCP server "${plan.server}" for ${projectName}?`,
    detail: [
      ...plan.changes.map((change) => `• ${change[0].toUpperCase()}${change.slice(1)}`),
      ...plan.notes.map((note) => `Note: ${note}.`),
      '',
      `A backup of the file is written to ${settingsBackupDir(home)} first; nothing else in it changes. ${plan.agent} applies it from its next session. ${
        plan.enabled ? 'Disable it again' : 'Re-enable it'
      } from the dashboard at any time.`,
    ].join('\n'),
    button,
  };
}

/**
 * The ranking with each config tool switched on or off as the settings files say now. The registry holds
 * the switches as the writer last applied them, and a follower window cannot apply a scan (its database is
 * the writer's snapshot); but every window reads the same settings files, so the one that just disabled a
 * server shows it disabled at once, without waiting for the writer to rescan and save.
 */
export function withConfigSwitches(tools: readonly RankedTool[], scan: ConfigScan | undefined): RankedTool[] {
  if (!scan) return [...tools];
  const switches = new Map(scan.entries.map((entry) => [`${entry.scope}\0${entry.name}`, entry.disabled]));
  const apply = (tool: RankedTool): RankedTool => ({
    ...tool,
    disabled: switches.get(`${tool.scope}\0${tool.name}`) ?? tool.disabled,
    ...(tool.children ? { children: tool.children.map(apply) } : {}),
  });
  return tools.map(apply);
}

/** The MCP servers of a ranking by switch: enabled ones sit in the agent's context, disabled ones don't. */
export function serverSwitches(tools: readonly RankedTool[]): { enabled: string[]; disabled: string[] } {
  const servers = tools.filter((tool) => tool.type === 'mcp_server' && tool.server !== null);
  return {
    enabled: servers.filter((tool) => !tool.disabled).map((tool) => tool.server!),
    disabled: servers.filter((tool) => tool.disabled).map((tool) => tool.server!),
  };
}
