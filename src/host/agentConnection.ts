import * as vscode from 'vscode';
import {
  HOOK_SCOPES,
  type HookPlan,
  type HookScope,
  claudeSettingsPath,
  hookInstallState,
  planHookInstall,
  planHookUninstall,
  recorderCommand,
} from '../engine/hookSettings';
import {
  SettingsParseError,
  parseJsonc,
  readSettingsText,
  writeSettingsWithBackup,
} from '../engine/jsoncEdit';
import { installRecorder, recorderRuntime, stableRecorderPath } from '../engine/recorderInstall';
import type { ConnectionView, ScopeConnection } from '../shared/protocol';
import { type Log, shortMessage } from './log';

export const PREVIEW_SCHEME = 'context-deck-preview';

const SCOPE_CHOICES: ReadonlyArray<{ scope: HookScope; label: string; detail: string }> = [
  {
    scope: 'local',
    label: 'This project, just me',
    detail: '.claude/settings.local.json: not committed, so teammates are unaffected',
  },
  {
    scope: 'project',
    label: 'This project, for the whole team',
    detail: '.claude/settings.json: committed with the project',
  },
  { scope: 'user', label: 'All my projects', detail: '~/.claude/settings.json' },
];

/** Proposed settings files, shown in a diff before anything is written. */
/** A planned edit of another tool's settings file, shown before it is written. */
export interface SettingsChangePlan {
  file: string;
  before: string | undefined;
  after: string;
  changes: string[];
}

export class SettingsPreviewProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  show(plan: SettingsChangePlan): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: plan.file, query: String(Date.now()) });
    this.texts.set(uri.toString(), plan.after);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }
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
    const command = recorderCommand(recorderRuntime(), stableRecorderPath(home), home);
    const plan = this.plan(file, (text) => planHookInstall(file, text, command));
    if (!plan) return false;
    if (plan.changes.length === 0) {
      void vscode.window.showInformationMessage(`Claude Code is already connected through ${file}.`);
      return true;
    }
    if (!(await confirmSettingsChange(this.preview, plan, 'Connect', 'Connect Claude Code to Context Deck?')))
      return false;
    this.write(plan);
    void vscode.window.showInformationMessage(
      `Claude Code is connected (${chosen} settings). Sessions started from now on are recorded.`,
    );
    return true;
  }

  async disconnect(root: string): Promise<boolean> {
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
    const plan = this.plan(target.file, (text) => planHookUninstall(target.file, text));
    if (!plan || plan.changes.length === 0) return false;
    if (
      !(await confirmSettingsChange(
        this.preview,
        plan,
        'Disconnect',
        'Disconnect Claude Code from Context Deck?',
      ))
    )
      return false;
    this.write(plan);
    void vscode.window.showInformationMessage(`Claude Code is disconnected (${target.scope} settings).`);
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

  /** Plans an edit; a file that can't be parsed is reported (with a way to open it) and left alone. */
  private plan(file: string, make: (text: string | undefined) => HookPlan): HookPlan | undefined {
    try {
      return make(readSettingsText(file));
    } catch (error) {
      const open = 'Open File';
      void vscode.window
        .showErrorMessage(
          error instanceof SettingsParseError ? error.message : `${file}: ${shortMessage(error)}`,
          open,
        )
        .then((choice) => {
          if (choice === open) void vscode.window.showTextDocument(vscode.Uri.file(file));
        });
      return undefined;
    }
  }

  private write(plan: HookPlan): void {
    const backup = writeSettingsWithBackup(plan.file, plan.after);
    this.log.info(`${plan.file}: ${plan.changes.join('; ')}${backup ? ` (backup ${backup})` : ''}`);
  }
}

/**
 * Says exactly what will change before anything is written, with the full diff one click away. Every edit
 * of another tool's settings (hooks, MCP servers) goes through here.
 */
export async function confirmSettingsChange(
  preview: SettingsPreviewProvider,
  plan: SettingsChangePlan,
  action: string,
  question: string,
  notes: string[] = [],
): Promise<boolean> {
  const showDiff = 'Show Changes';
  const detail = [
    `${plan.file} will change:`,
    ...plan.changes.map((change) => `• ${change}`),
    '',
    ...notes,
    ...(notes.length > 0 ? [''] : []),
    plan.before === undefined
      ? 'The file does not exist yet and will be created.'
      : 'A backup of the file is written first. Nothing else in it changes.',
  ].join('\n');
  const choice = await vscode.window.showInformationMessage(
    question,
    { modal: true, detail },
    action,
    showDiff,
  );
  if (choice === action) return true;
  if (choice !== showDiff) return false;
  const before =
    plan.before === undefined
      ? vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `${plan.file}.new` })
      : vscode.Uri.file(plan.file);
  await vscode.commands.executeCommand(
    'vscode.diff',
    before,
    preview.show(plan),
    `${action}: proposed changes`,
  );
  return (
    (await vscode.window.showInformationMessage(`${action} with these changes to ${plan.file}?`, action)) ===
    action
  );
}
