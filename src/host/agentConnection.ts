import * as vscode from 'vscode';
import {
  HOOK_SCOPES,
  type HookScope,
  claudeSettingsPath,
  hookInstallState,
  planHookInstall,
  planHookUninstall,
  portableCommandCaveats,
  recorderCommand,
} from '../engine/hookSettings';
import { parseJsonc, readSettingsText } from '../engine/jsoncEdit';
import { installRecorder, recorderRuntime } from '../engine/recorderInstall';
import type { ConnectionView, ScopeConnection } from '../shared/protocol';
import { type Log, shortMessage } from './log';
import {
  SettingsPreviewProvider,
  confirmSettingsChange,
  planSettingsChange,
  writeSettingsChange,
} from './settingsChange';

const SCOPE_CHOICES: ReadonlyArray<{ scope: HookScope; label: string; detail: string }> = [
  {
    scope: 'local',
    label: 'This project, just me',
    detail: '.claude/settings.local.json: not committed, so teammates are unaffected',
  },
  {
    scope: 'project',
    label: 'This project, for the whole team',
    detail: '.claude/settings.json: committed with the project, naming no path of this machine',
  },
  { scope: 'user', label: 'All my projects', detail: '~/.claude/settings.json' },
];

function backedUp(backup: string | undefined): string {
  return backup ? ` The previous version is kept at ${backup}.` : '';
}

/**
 * Connecting Claude Code: the recorder's stable copy, and our hooks in the scope the user picks, written
 * only after showing what changes, with a backup, as minimal edits of the user's file.
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
    const scopes = HOOK_SCOPES.map((scope): ScopeConnection => {
      const file = claudeSettingsPath(scope, root);
      try {
        const text = readSettingsText(file);
        if (text?.trim()) parseJsonc(text, file);
        const state = hookInstallState(file, text);
        const status =
          state.missing.length === 0 ? 'connected' : state.installed.length ? 'partial' : 'absent';
        return { scope, file, status, problem: null };
      } catch (error) {
        return { scope, file, status: 'unreadable', problem: shortMessage(error) };
      }
    });
    return { connected: scopes.some((scope) => scope.status === 'connected'), scopes };
  }

  async connect(home: string, root: string, scope?: HookScope): Promise<boolean> {
    const chosen = scope ?? (await this.pickScope());
    if (!chosen) return false;
    this.ensureRecorder(home);
    const file = claudeSettingsPath(chosen, root);
    const command = recorderCommand(chosen, recorderRuntime(), home);
    const plan = planSettingsChange(file, (text) => planHookInstall(file, text, command));
    if (!plan) return false;
    const caveats = chosen === 'project' ? portableCommandCaveats(home) : [];
    if (plan.changes.length === 0) {
      void vscode.window.showInformationMessage(
        [`Claude Code is already connected through ${file}.`, ...caveats].join(' '),
      );
      return true;
    }
    const question = 'Connect Claude Code to Context Deck?';
    if (!(await confirmSettingsChange(this.preview, plan, 'Connect', question, home, caveats))) return false;
    const backup = writeSettingsChange(plan, this.log, home);
    void vscode.window.showInformationMessage(
      `Claude Code is connected (${chosen} settings). Sessions started from now on are recorded.${backedUp(backup)}`,
    );
    return true;
  }

  async disconnect(home: string, root: string): Promise<boolean> {
    const connected = this.view(root).scopes.filter(
      (scope) => scope.status === 'connected' || scope.status === 'partial',
    );
    if (connected.length === 0) {
      void vscode.window.showInformationMessage(
        'Claude Code is not connected to Context Deck in any settings file.',
      );
      return false;
    }
    const target =
      connected.length === 1
        ? connected[0]
        : (
            await vscode.window.showQuickPick(
              connected.map((scope) => ({ label: scope.scope, description: scope.file, scope })),
              { title: 'Disconnect Claude Code from which settings?' },
            )
          )?.scope;
    if (!target) return false;
    const plan = planSettingsChange(target.file, (text) => planHookUninstall(target.file, text));
    if (!plan || plan.changes.length === 0) return false;
    if (
      !(await confirmSettingsChange(
        this.preview,
        plan,
        'Disconnect',
        'Disconnect Claude Code from Context Deck?',
        home,
      ))
    )
      return false;
    const backup = writeSettingsChange(plan, this.log, home);
    void vscode.window.showInformationMessage(
      `Claude Code is disconnected (${target.scope} settings).${backedUp(backup)}`,
    );
    return true;
  }

  private async pickScope(): Promise<HookScope | undefined> {
    const picked = await vscode.window.showQuickPick(
      SCOPE_CHOICES.map((choice) => ({ label: choice.label, detail: choice.detail, scope: choice.scope })),
      {
        title: 'Connect Claude Code: where should the hooks go?',
        placeHolder: 'Choose the settings to edit',
      },
    );
    return picked?.scope;
  }
}
