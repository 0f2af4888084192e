/**
 * Cline's MCP servers: `settings/cline_mcp_settings.json` in its storage (cline/cline v3.89.2
 * `core/storage/disk.ts` GlobalFileNames.mcpSettings, `services/mcp/McpHub.ts`): `{"mcpServers": {<name>:
 * {command, args, env} | {url, type}, disabled?, autoApprove?, timeout?}}`. The file is Cline's for every
 * project: switching a server off writes `"disabled": true` on its entry there, and on again `"disabled":
 * false`, as Cline's own switch does (`McpHub.toggleServerDisabledRPC`).
 */
import * as path from 'node:path';
import { redactText } from '../../redact';
import type { ServerSwitchPlan, ToolConfig } from '../adapter';
import type { ConfigLocations } from '../configLocations';
import { JsoncDocument, readSettingsText } from '../jsoncEdit';
import { type Json, isObject } from '../jsonValues';
import { declaresServer, readConfig, serversInJsonFiles } from '../jsonServers';
import { clipDescription } from '../markdownTools';
import { plannedSwitch, unsupportedSwitch } from '../serverSwitchPlan';
import { clineStorageDirs } from './taskFiles';
import { clineMcpToolName } from './toolKinds';

const AGENT = 'Cline';

function settingsFiles(env: NodeJS.ProcessEnv): string[] {
  return clineStorageDirs(env).map((dir) => path.join(dir, 'settings', 'cline_mcp_settings.json'));
}

/** "stdio: npx -y server" or "http: https://…", credentials redacted. */
function describe(server: Json): string | undefined {
  const args = Array.isArray(server.args) ? server.args.filter((arg) => typeof arg === 'string') : [];
  const text =
    typeof server.url === 'string'
      ? `http: ${server.url}`
      : typeof server.command === 'string'
        ? `stdio: ${[server.command, ...args].join(' ')}`
        : undefined;
  return text ? clipDescription(redactText(text).text) : undefined;
}

function servers(projectRoot: string, _userHome: string, env: NodeJS.ProcessEnv) {
  return serversInJsonFiles(
    settingsFiles(env).map((file) => ({ file, scope: 'global' as const })),
    projectRoot,
    'mcpServers',
    (server) => ({ description: describe(server), disabled: server.disabled === true }),
  );
}

function switchClineServer(
  _locations: ConfigLocations,
  server: string,
  enabled: boolean,
  env: NodeJS.ProcessEnv = process.env,
): ServerSwitchPlan | undefined {
  const file = settingsFiles(env).find((candidate) => declaresServer(candidate, ['mcpServers'], server));
  if (!file) return undefined;
  const problem = readConfig(file).problem;
  if (problem !== undefined) return unsupportedSwitch(server, enabled, `${file}: ${problem}; fix it first`);
  const before = readSettingsText(file);
  const document = new JsoncDocument(before, file);
  const declared =
    isObject(document.value) && isObject(document.value.mcpServers)
      ? document.value.mcpServers[server]
      : undefined;
  if (!isObject(declared)) return undefined;
  const changes: string[] = [];
  if (!enabled && declared.disabled !== true) {
    document.set(['mcpServers', server, 'disabled'], true);
    changes.push(`set "disabled": true on "${server}" in Cline's MCP settings`);
  } else if (enabled && declared.disabled === true) {
    // As Cline's own switch writes it (McpHub.toggleServerDisabledRPC sets `disabled` either way).
    document.set(['mcpServers', server, 'disabled'], false);
    changes.push(`set "disabled": false on "${server}" in Cline's MCP settings`);
  }
  return plannedSwitch({
    server,
    enabled,
    agent: AGENT,
    file,
    before,
    edited: document.text,
    changes,
    notes: [
      `Cline's MCP settings are for all your projects: ${server} is switched ${enabled ? 'on' : 'off'} in every one.`,
    ],
  });
}

export const clineTools: ToolConfig = {
  files: (_projectRoot, _userHome, env) => settingsFiles(env),
  servers,
  mcpToolName: clineMcpToolName,
  switchServer: (locations, server, enabled) => switchClineServer(locations, server, enabled),
};
