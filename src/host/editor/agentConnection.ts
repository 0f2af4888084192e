import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  AGENT_ADAPTERS,
  type AgentAdapter,
  agentTraces,
  hookConnection,
  type HookInstaller,
  installRecorder,
  portableCommandCaveats,
  recorderCommand,
  recorderRuntime,
  writeSettingsPlan,
} from '../../engine';
import { agentName } from '../../shared/agents';
import type { ConnectionView, ScopeConnection } from '../../shared/protocol';
import type { Log } from './log';
import { SettingsPreviewProvider, confirmSettingsChange, planSettingsChange } from './settingsChange';
import { allowedInWorkspace } from './workspaceTrust';

/** How a scope reads in the pickers and on the dashboard, whatever agent it belongs to. */
const SCOPE_WORDS: Readonly<Record<string, { pick: string; label: string }>> = {
  local: { pick: 'This project, just me', label: 'local project settings' },
  project: { pick: 'This project, for the whole team', label: 'project settings' },
  user: { pick: 'All my projects', label: 'user settings' },
};

function scopeWords(scope: string): { pick: string; label: string } {
  return SCOPE_WORDS[scope] ?? { pick: scope, label: `${scope} settings` };
}

/** Writes a hook plan, its further files too (Cline's executable hook files), and logs it; the first backup. */
function writeHookPlan(
  plan: Parameters<typeof writeSettingsPlan>[0],
  log: Log,
  home: string,
): string | undefined {
  const backups = writeSettingsPlan(plan, home);
  log.info(
    `${plan.file}: ${plan.changes.join('; ')}${backups.length ? ` (backup ${backups.join(', ')})` : ''}`,
  );
  return backups[0];
}

function backedUp(backup: string | undefined): string {
  return backup ? ` The previous version is kept at ${backup}.` : '';
}

type Connectable = AgentAdapter & { hooks: HookInstaller };

function connectable(): Connectable[] {
  return AGENT_ADAPTERS.filter((adapter): adapter is Connectable => adapter.hooks !== undefined);
}

/**
 * Connecting an agent: the recorder's stable copy, and our hooks in the agent and scope the user picks,
 * written only after showing what changes, with a backup, as minimal edits of the user's file.
 */
export class AgentConnection {
  readonly preview = new SettingsPreviewProvider();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
  ) {}

  /** Refresh `<home>/bin/hook.js` from the recorder shipped in this version of the extension. */
  ensureRecorder(home: string): void {
    try {
      const bundled = vscode.Uri.joinPath(this.extensionUri, 'dist', 'hook.js').fsPath;
      const { path, updated } = installRecorder(home, bundled);
      if (updated) this.log.info(`recorder installed at ${path}`);
    } catch (error) {
      this.log.error('installing the recorder failed', error);
    }
  }

  view(root: string): ConnectionView {
    const scopes = connectable().flatMap((adapter) =>
      adapter.hooks.scopes.map((scope): ScopeConnection => {
        const file = adapter.hooks.settingsPath(scope, root, os.homedir());
        return {
          agent: adapter.id,
          scope,
          label: scopeWords(scope).label,
          file,
          ...hookConnection(adapter.hooks, file),
        };
      }),
    );
    return { connected: scopes.some((scope) => scope.status === 'connected'), scopes };
  }

  async connect(home: string, root: string): Promise<boolean> {
    if (!allowedInWorkspace('Connecting an agent')) return false;
    const adapter = await this.pickAgent(root);
    if (!adapter) return false;
    const scope = await this.pickScope(adapter);
    if (!scope) return false;
    const name = adapter.displayName;
    this.ensureRecorder(home);
    const file = adapter.hooks.settingsPath(scope, root, os.homedir());
    const command = recorderCommand(scope, recorderRuntime(), home);
    const plan = planSettingsChange(file, (text) => adapter.hooks.planConnect(file, text, command));
    if (!plan) return false;
    const caveats = scope === 'project' ? portableCommandCaveats(home, name) : [];
    if (plan.changes.length === 0) {
      void vscode.window.showInformationMessage(
        [`${name} is already connected through ${file}.`, ...caveats].join(' '),
      );
      return true;
    }
    const question = `Connect ${name} to Context Deck?`;
    if (!(await confirmSettingsChange(this.preview, plan, 'Connect', question, home, caveats))) return false;
    const backup = writeHookPlan(plan, this.log, home);
    void vscode.window.showInformationMessage(
      [
        `${name} is connected (${scopeWords(scope).label}). Sessions started from now on are recorded.${backedUp(backup)}`,
        ...(adapter.hooks.afterConnect ? [adapter.hooks.afterConnect] : []),
      ].join(' '),
    );
    return true;
  }

  async disconnect(home: string, root: string): Promise<boolean> {
    if (!allowedInWorkspace('Disconnecting an agent')) return false;
    const connected = this.view(root).scopes.filter(
      (scope) => scope.status === 'connected' || scope.status === 'partial',
    );
    if (connected.length === 0) {
      void vscode.window.showInformationMessage(
        'No agent is connected to Context Deck in any settings file.',
      );
      return false;
    }
    const target =
      connected.length === 1
        ? connected[0]
        : (
            await vscode.window.showQuickPick(
              connected.map((scope) => ({
                label: `${agentName(scope.agent)}: ${scope.label}`,
                description: scope.file,
                scope,
              })),
              { title: 'Disconnect which agent, from which settings?' },
            )
          )?.scope;
    const adapter = target && connectable().find((candidate) => candidate.id === target.agent);
    if (!target || !adapter) return false;
    const name = adapter.displayName;
    const plan = planSettingsChange(target.file, (text) => adapter.hooks.planDisconnect(target.file, text));
    if (!plan || plan.changes.length === 0) return false;
    const question = `Disconnect ${name} from Context Deck?`;
    if (!(await confirmSettingsChange(this.preview, plan, 'Disconnect', question, home))) return false;
    const backup = writeHookPlan(plan, this.log, home);
    void vscode.window.showInformationMessage(
      `${name} is disconnected (${target.label}).${backedUp(backup)}`,
    );
    return true;
  }

  /** The agents, those found on this machine or in this project first, each saying what connecting changes. */
  private async pickAgent(root: string): Promise<Connectable | undefined> {
    const home = os.homedir();
    const items = connectable().map((adapter) => {
      const traces = agentTraces(adapter.id, root, home);
      const files = adapter.hooks.scopes.map((scope) =>
        tildePath(adapter.hooks.settingsPath(scope, root, home), root, home),
      );
      return {
        label: adapter.displayName,
        description: traces.length > 0 ? `found: ${tildePath(traces[0], root, home)}` : 'not found here',
        detail: `Adds the recorder's hooks to ${files.join(', or ')}`,
        adapter,
        found: traces.length > 0,
      };
    });
    items.sort((a, b) => Number(b.found) - Number(a.found));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Connect an agent to Context Deck',
      placeHolder: 'Choose the agent whose sessions to record',
      matchOnDetail: true,
    });
    return picked?.adapter;
  }

  private async pickScope(adapter: Connectable): Promise<string | undefined> {
    const picked = await vscode.window.showQuickPick(
      adapter.hooks.scopes.map((scope) => ({
        label: scopeWords(scope).pick,
        detail: adapter.hooks.describeScope(scope),
        scope,
      })),
      {
        title: `Connect ${adapter.displayName}: where should the hooks go?`,
        placeHolder: 'Choose the settings to edit',
      },
    );
    return picked?.scope;
  }
}

/** A path as a person reads it: relative to the project, or under `~`. */
function tildePath(file: string, root: string, home: string): string {
  if (file.startsWith(root + path.sep)) return path.relative(root, file);
  return file.startsWith(home + path.sep) ? `~${file.slice(home.length)}` : file;
}
