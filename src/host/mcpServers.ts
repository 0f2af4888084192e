/**
 * The memory MCP server (`dist/mcp.js`) offered to agents: to VS Code's agent mode through an MCP server
 * definition provider, and to Claude Code as an entry of the project's `.mcp.json`, written only with
 * consent, with a backup, as a minimal edit (see engine/mcpServerConfig.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  claudeServerEntry,
  installServer,
  planServerInstall,
  planServerUninstall,
  serverLaunch,
  stableServerPath,
} from '../engine/mcpServerConfig';
import type { AgentConnection } from './agentConnection';
import type { LiveProject } from './liveProject';
import type { Log } from './log';
import { guardedCommand } from './memoryCommands';
import { type Projects, chooseProject } from './projects';
import { confirmSettingsChange, planSettingsChange, writeSettingsChange } from './settingsChange';

export const MCP_PROVIDER_ID = 'contextDeck.memory';

export class MemoryServers implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private signature = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly projects: Projects,
    private readonly connection: AgentConnection,
    private readonly log: Log,
  ) {}

  private get distDir(): string {
    return vscode.Uri.joinPath(this.extensionUri, 'dist').fsPath;
  }

  /**
   * The commands that offer the server to Claude Code, and the server offered to VS Code's agent mode on
   * hosts that have the API (1.101+; older ones and forks without it just skip it).
   */
  register(): void {
    const guarded = guardedCommand(this.log);
    this.disposables.push(
      guarded('contextDeck.addMemoryServerToClaudeCode', async (projectId) => {
        const live = await chooseProject(this.projects, asString(projectId), 'Add the memory server to');
        return live && this.addToClaudeCode(live);
      }),
      guarded('contextDeck.removeMemoryServerFromClaudeCode', async (projectId) => {
        const live = await chooseProject(this.projects, asString(projectId), 'Remove the memory server from');
        return live && this.removeFromClaudeCode(live);
      }),
    );
    const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
    if (typeof lm?.registerMcpServerDefinitionProvider !== 'function') {
      this.log.info(
        'this editor has no MCP server provider API; the memory server is not offered to its agent',
      );
      return;
    }
    this.disposables.push(
      lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: this.changed.event,
        provideMcpServerDefinitions: () => this.definitions(),
      }),
      // Projects change often (every ingest); the definitions only when the set of projects or the home does.
      this.projects.onDidChange(() => this.checkChanged()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('contextDeck.memory.offerToAgentMode')) this.changed.fire();
      }),
    );
  }

  private checkChanged(): void {
    const signature = JSON.stringify([this.projects.home, this.projects.all.map((live) => live.id)]);
    if (signature === this.signature) return;
    this.signature = signature;
    this.changed.fire();
  }

  private definitions(): vscode.McpStdioServerDefinition[] {
    if (!vscode.workspace.getConfiguration('contextDeck').get<boolean>('memory.offerToAgentMode', true))
      return [];
    const script = path.join(this.distDir, 'mcp.js');
    const all = this.projects.all;
    const version = String(
      (vscode.extensions.getExtension('context-deck.context-deck')?.packageJSON as { version?: unknown })
        ?.version ?? '0',
    );
    return all.map((live) => {
      const root = live.engine.identity.mainRoot;
      const launch = serverLaunch(script, root, this.projects.home);
      const label = all.length > 1 ? `Context Deck memory (${live.name})` : 'Context Deck memory';
      const definition = new vscode.McpStdioServerDefinition(
        label,
        launch.command,
        launch.args,
        launch.env,
        version,
      );
      definition.cwd = vscode.Uri.file(root);
      return definition;
    });
  }

  /** After an extension update, refresh the stable copy Claude Code runs, if one was installed. */
  ensureStableCopy(home: string): void {
    try {
      if (!fs.existsSync(stableServerPath(home))) return;
      const { path: target, updated } = installServer(home, this.distDir);
      if (updated) this.log.info(`memory MCP server updated at ${target}`);
    } catch (error) {
      this.log.error('updating the memory MCP server copy failed', error);
    }
  }

  /** Add the server to `<root>/.mcp.json` after showing exactly what changes. */
  async addToClaudeCode(live: LiveProject): Promise<boolean> {
    const root = live.engine.identity.mainRoot;
    const file = path.join(root, '.mcp.json');
    const home = this.projects.home;
    const entry = claudeServerEntry(serverLaunch(stableServerPath(home), root, home));
    const plan = planSettingsChange(file, (text) => planServerInstall(file, text, entry));
    if (!plan) return false;
    if (plan.changes.length === 0) {
      installServer(home, this.distDir);
      void vscode.window.showInformationMessage(
        `Claude Code already has the Context Deck memory server in ${file}.`,
      );
      return true;
    }
    const note = [
      `The server runs from ${path.dirname(stableServerPath(home))} (copied there now, refreshed on updates).`,
      '.mcp.json is often committed: the entry names paths on this machine.',
    ];
    if (
      !(await confirmSettingsChange(
        this.connection.preview,
        plan,
        'Add Server',
        'Add the Context Deck memory server to Claude Code?',
        home,
        note,
      ))
    )
      return false;
    const installed = installServer(home, this.distDir);
    this.log.info(`memory MCP server installed at ${installed.path}`);
    writeSettingsChange(plan, this.log, this.projects.home);
    this.projects.refresh();
    void vscode.window.showInformationMessage(
      'Claude Code can now search this project’s memory (tools search, timeline, get_observations). It asks you to approve the new server when it next starts in this project.',
    );
    return true;
  }

  async removeFromClaudeCode(live: LiveProject): Promise<boolean> {
    const file = path.join(live.engine.identity.mainRoot, '.mcp.json');
    const plan = planSettingsChange(file, (text) => planServerUninstall(file, text));
    if (!plan) return false;
    if (plan.changes.length === 0) {
      void vscode.window.showInformationMessage(`${file} has no Context Deck memory server.`);
      return false;
    }
    if (
      !(await confirmSettingsChange(
        this.connection.preview,
        plan,
        'Remove Server',
        'Remove the Context Deck memory server from Claude Code?',
        this.projects.home,
      ))
    )
      return false;
    writeSettingsChange(plan, this.log, this.projects.home);
    this.projects.refresh();
    void vscode.window.showInformationMessage(`The Context Deck memory server was removed from ${file}.`);
    return true;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
