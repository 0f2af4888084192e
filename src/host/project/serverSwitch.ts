/**
 * Disabling and re-enabling an MCP server for one project, through the agent's own settings: planned, the
 * exact change confirmed, written with a backup, and reversible (a disable offers Undo, which does not ask again).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { unlinked, visibleLine } from '../../shared/visibleText';
import { type ToolTypes } from '../../engine';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import { allowedInWorkspace } from '../editor/workspaceTrust';
import type { ToolHost } from './toolScan';

/** A notification naming a server key from a config file: one line, and never a link. */
const notice = (message: string) => unlinked(visibleLine(message));

/** What the switch needs of the project's tools: whether a server is in the ranking, and a rescan. */
interface SwitchedTools {
  isServer(server: string): boolean;
  /** Rescan and rank again, in the project's queue: whatever shows the tools next shows the change. */
  rescan(): Promise<void>;
}

export class ServerSwitch {
  constructor(
    private readonly host: ToolHost,
    private readonly log: Log,
    private readonly tools: SwitchedTools,
  ) {}

  /**
   * Disable or re-enable an MCP server for this project through Claude Code's own settings: the exact change
   * is shown in a modal first (not for an Undo), the file is written with a backup, and the tools are
   * rescanned before this resolves, so whatever shows them next shows the change. Resolves to whether the
   * file was changed.
   */
  async set(server: string, enabled: boolean, request: ToolTypes.ToggleRequest): Promise<boolean> {
    if (!allowedInWorkspace(`${enabled ? 'Enabling' : 'Disabling'} an MCP server`)) return false;
    try {
      return await this.toggleServer(server, enabled, request);
    } catch (error) {
      this.log.error(`${enabled ? 'enabling' : 'disabling'} ${server} failed`, error);
      void vscode.window.showErrorMessage(
        notice(`Context Deck could not ${enabled ? 'enable' : 'disable'} ${server}: ${shortMessage(error)}`),
      );
      return false;
    }
  }

  private async toggleServer(
    server: string,
    enabled: boolean,
    request: ToolTypes.ToggleRequest,
  ): Promise<boolean> {
    if (!this.tools.isServer(server)) {
      this.log.warn(`${this.host.name}: no MCP server "${server}" in the registry; nothing changed`);
      return false;
    }
    const plan = this.host.engine.tools.planServerSwitch(server, enabled);
    if (!plan.supported) {
      void vscode.window.showWarningMessage(
        notice(
          `Context Deck can't ${enabled ? 'enable' : 'disable'} "${server}" for this project: ${plan.reason}.`,
        ),
      );
      return false;
    }
    if (plan.changes.length === 0) {
      const notes = plan.notes.length ? ` ${plan.notes.join('; ')}.` : '';
      void vscode.window.showInformationMessage(
        notice(
          `Nothing to change: ${server} is already ${enabled ? 'enabled' : 'disabled'} in ${path.basename(plan.file)}.${notes}`,
        ),
      );
      return false;
    }
    const confirmation = this.host.engine.tools.switchConfirmation(plan, request, this.host.name);
    if (confirmation) {
      const { message, detail, button } = confirmation;
      if ((await vscode.window.showWarningMessage(message, { modal: true, detail }, button)) !== button)
        return false;
    }
    const backup = this.host.engine.tools.writeServerSwitch(plan);
    this.log.info(`${plan.file}: ${plan.changes.join('; ')}${backup ? ` (backup ${backup})` : ''}`);
    await this.tools.rescan();
    if (enabled) {
      void vscode.window.setStatusBarMessage(
        `Context Deck: ${server} ${enabled ? 'enabled' : 'disabled'} for ${this.host.name}`,
        4000,
      );
    } else {
      const undo = 'Undo';
      void vscode.window
        .showInformationMessage(
          notice(
            `Disabled ${server} for ${this.host.name}: ${plan.agent} starts without it from its next session.`,
          ),
          undo,
        )
        .then((choice) => choice === undo && this.set(server, true, 'undo'));
    }
    return true;
  }
}
