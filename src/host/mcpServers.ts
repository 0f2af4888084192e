/**
 * The memory MCP server (`dist/mcp.js`) offered to agents: to VS Code's agent mode through an MCP server
 * definition provider, and to Claude Code, Codex CLI or opencode as an entry of the project's MCP config
 * (each agent's adapter knows its file), written only with consent, with a backup, as a minimal edit.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  AGENT_ADAPTERS,
  type AgentAdapter,
  installServer,
  type MemoryServerInstaller,
  readSettingsText,
  serverLaunch,
  stableServerPath,
} from '../engine';
import type { AgentConnection } from './editor/agentConnection';
import type { LiveProject } from './project/liveProject';
import type { Log } from './editor/log';
import { asString, type CommandTable } from './editor/commandIds';
import { chooseProject } from './commands/chooseProject';
import type { Projects } from './project/projects';
import { confirmSettingsChange, planSettingsChange, writeSettingsChange } from './editor/settingsChange';
import { allowedInWorkspace } from './editor/workspaceTrust';
import { currentSettings } from './editor/settings';

const MCP_PROVIDER_ID = 'contextDeck.memory';

export class MemoryServers implements vscode.Disposable {
  /** The server is offered to VS Code's agent mode by the provider API. */
  private offeredToVscode = false;
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

  /** The commands that offer the server to an agent through its project config. */
  table(): CommandTable<'contextDeck.addMemoryServer' | 'contextDeck.removeMemoryServer'> {
    return {
      'contextDeck.addMemoryServer': async (projectId) => {
        const live = await chooseProject(this.projects, asString(projectId), 'Add the memory server to');
        return live && this.addToAgent(live);
      },
      'contextDeck.removeMemoryServer': async (projectId) => {
        const live = await chooseProject(this.projects, asString(projectId), 'Remove the memory server from');
        return live && this.removeFromAgent(live);
      },
    };
  }

  /** The server offered to VS Code's agent mode on hosts that have the API (1.101+; others skip it). */
  register(): void {
    const lm = vscode.lm as Partial<typeof vscode.lm> | undefined;
    if (typeof lm?.registerMcpServerDefinitionProvider !== 'function') {
      this.log.info(
        "this editor has no MCP server provider API; the memory server can be added to its agent's .vscode/mcp.json",
      );
      return;
    }
    this.offeredToVscode = true;
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
    if (!currentSettings()['memory.offerToAgentMode']) return [];
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

  /**
   * The agents whose project config can name the server. VS Code's agent gets it from this extension where
   * the editor has the MCP provider API, so its `.vscode/mcp.json` is offered only where it does not.
   */
  private async pickAgent(
    title: string,
    root: string,
    only?: (adapter: WithMemoryServer) => boolean,
  ): Promise<WithMemoryServer | undefined> {
    const home = os.homedir();
    const adapters = AGENT_ADAPTERS.filter(
      (adapter): adapter is WithMemoryServer =>
        adapter.memoryServer !== undefined &&
        !(adapter.id === 'vscode' && this.offeredToVscode) &&
        (only === undefined || only(adapter as WithMemoryServer)),
    );
    if (adapters.length <= 1) return adapters[0];
    const picked = await vscode.window.showQuickPick(
      adapters.map((adapter) => ({
        label: adapter.displayName,
        description: path.relative(root, adapter.memoryServer.configPath(root, home)),
        adapter,
      })),
      { title },
    );
    return picked?.adapter;
  }

  /** Add the server to an agent's project config after showing exactly what changes. */
  async addToAgent(live: LiveProject): Promise<boolean> {
    if (!allowedInWorkspace('Adding the memory server')) return false;
    const root = live.engine.identity.mainRoot;
    const adapter = await this.pickAgent('Add the Context Deck memory server to which agent?', root);
    if (!adapter) return false;
    const name = adapter.displayName;
    const file = adapter.memoryServer.configPath(root, os.homedir());
    const home = this.projects.home;
    const launch = serverLaunch(stableServerPath(home), root, home);
    const plan = planSettingsChange(file, (text) => adapter.memoryServer.planAdd(file, text, launch));
    if (!plan) return false;
    if (plan.changes.length === 0) {
      installServer(home, this.distDir);
      void vscode.window.showInformationMessage(
        `${name} already has the Context Deck memory server in ${file}.`,
      );
      return true;
    }
    const note = [
      `The server runs from ${path.dirname(stableServerPath(home))} (copied there now, refreshed on updates).`,
      `${path.basename(file)} is often committed: the entry names paths on this machine.`,
    ];
    const question = `Add the Context Deck memory server to ${name}?`;
    if (!(await confirmSettingsChange(this.connection.preview, plan, 'Add Server', question, home, note)))
      return false;
    const installed = installServer(home, this.distDir);
    this.log.info(`memory MCP server installed at ${installed.path}`);
    writeSettingsChange(plan, this.log, this.projects.home);
    this.projects.refresh();
    void vscode.window.showInformationMessage(
      `${name} can now search this project’s memory (tools search, timeline, get_observations). It may ask you to approve the new server when it next starts in this project.`,
    );
    return true;
  }

  async removeFromAgent(live: LiveProject): Promise<boolean> {
    if (!allowedInWorkspace('Removing the memory server')) return false;
    const root = live.engine.identity.mainRoot;
    const home = os.homedir();
    const added = (adapter: WithMemoryServer) => {
      const file = adapter.memoryServer.configPath(root, home);
      try {
        return adapter.memoryServer.isAdded(file, readSettingsText(file));
      } catch {
        return false;
      }
    };
    const adapter = await this.pickAgent(
      'Remove the Context Deck memory server from which agent?',
      root,
      added,
    );
    if (!adapter) {
      void vscode.window.showInformationMessage(
        'No agent of this project has the Context Deck memory server.',
      );
      return false;
    }
    const file = adapter.memoryServer.configPath(root, home);
    const plan = planSettingsChange(file, (text) => adapter.memoryServer.planRemove(file, text));
    if (!plan || plan.changes.length === 0) return false;
    const question = `Remove the Context Deck memory server from ${adapter.displayName}?`;
    if (
      !(await confirmSettingsChange(
        this.connection.preview,
        plan,
        'Remove Server',
        question,
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

type WithMemoryServer = AgentAdapter & { memoryServer: MemoryServerInstaller };
