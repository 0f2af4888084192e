import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { AGENT_ADAPTERS, adviseSession, compactCommand, dismissalKey, type ContextTypes } from '../../engine';
import type { AdviceActionKind, AdviceView } from '../../shared/protocol';
import type { LiveProject } from './liveProject';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import { type AgentId, agentName } from '../../shared/agents';
import { isSessionActive } from '../../shared/sessionActivity';
import { visibleLine } from '../../shared/visibleText';
import { terminalLine, terminalLineProblem } from '../views/terminalLine';

/**
 * How a terminal running the agent can be recognised from its command line or its name: by the command
 * its adapter declares (agents' `traces.command`); for a session of no known agent, any agent's.
 */
function terminalPattern(agent: AgentId | undefined): RegExp | undefined {
  const commands = AGENT_ADAPTERS.filter((adapter) => agent === undefined || adapter.id === agent).flatMap(
    (adapter) => (adapter.traces.command ? [adapter.traces.command] : []),
  );
  return commands.length ? new RegExp(`\\b(${commands.join('|')})\\b`, 'i') : undefined;
}

/** Child processes of a process (Linux /proc; elsewhere the terminal's name is all we have). */
function childCommandLines(pid: number): string[] {
  try {
    const children = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return children.flatMap((child) => {
      const line = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8').replace(/\0/g, ' ');
      return [line, ...childCommandLines(Number(child))];
    });
  } catch {
    return [];
  }
}

/** The terminal where the agent runs: by the processes inside it, else by its name. */
async function findAgentTerminal(agent: AgentId | undefined): Promise<vscode.Terminal | undefined> {
  const pattern = terminalPattern(agent);
  if (!pattern) return undefined;
  for (const terminal of vscode.window.terminals) {
    const pid = await terminal.processId;
    if (pid && childCommandLines(pid).some((line) => pattern.test(line))) return terminal;
  }
  return vscode.window.terminals.find((terminal) => pattern.test(terminal.name));
}

interface Undoable {
  label: string;
  revert(): void;
}

/**
 * Pruning advice for each project's live session, and the actions behind its buttons. Pins and
 * dismissals are stored per project (the CLI honours them too); the last one can be undone.
 */
export class ContextAdvice {
  private lastAdvice = new Map<string, ContextTypes.Advice>();
  private undoable = new Map<string, Undoable>();

  constructor(
    private readonly log: Log,
    private readonly refresh: () => void,
  ) {}

  private state(live: LiveProject): ContextTypes.AdviceState {
    return live.engine.advice.state();
  }

  view(live: LiveProject): AdviceView | null {
    const reading = live.gauge.reading();
    const now = Date.now();
    // A session no longer active has nothing to act on: advice about it would only alarm.
    if (!reading || !isSessionActive(reading.updatedAt, now)) return null;
    let advice: ContextTypes.Advice;
    // The servers as the Tools section shows them, so a server just disabled leaves the advice with it.
    const servers = live.tools.servers();
    try {
      advice = adviseSession(reading, {
        now,
        servers: servers.enabled,
        state: live.engine.advice.state(servers.disabled),
      });
    } catch (error) {
      this.log.warn(`pruning advice for ${live.name}: ${shortMessage(error)}`);
      return null;
    }
    this.lastAdvice.set(live.id, advice);
    if (advice.phase === 'silent') return null;
    return {
      phase: advice.phase,
      warnings: advice.warnings,
      recommendations: advice.recommendations,
      totalSavingTokens: advice.totalSavingTokens,
      compactCommand: compactCommand(advice),
      undo: this.undoable.get(live.id) ? { label: this.undoable.get(live.id)!.label } : null,
    };
  }

  async act(live: LiveProject, itemId: string, action: AdviceActionKind): Promise<void> {
    const advice = this.lastAdvice.get(live.id);
    const item = advice?.scored.find((candidate) => candidate.id === itemId);
    const name = item?.name ?? itemId;
    switch (action) {
      case 'compact':
        await this.compact(advice, live.gauge.agent);
        return;
      case 'closeFile':
        await this.closeEditors(name);
        return;
      case 'disableServer':
        // Undo only what happened: the user may have cancelled the confirmation.
        if (await live.tools.setServerEnabled(name, false)) {
          this.undoable.set(live.id, {
            label: `Re-enable ${name}`,
            revert: () => void live.tools.setServerEnabled(name, true, 'undo'),
          });
        }
        this.refresh();
        return;
      case 'pin':
        this.update(live, `Unpin ${name}`, (state) => ({
          ...state,
          pinned: [...new Set([...state.pinned, itemId])],
        }));
        return;
      case 'dismiss':
        if (!item) return;
        this.update(live, `Bring back ${name}`, (state) => ({
          ...state,
          dismissed: [...state.dismissed, dismissalKey(item)],
        }));
        return;
    }
  }

  undo(live: LiveProject): void {
    const last = this.undoable.get(live.id);
    if (!last) return;
    this.undoable.delete(live.id);
    last.revert();
    this.refresh();
  }

  private update(
    live: LiveProject,
    undoLabel: string,
    change: (state: ContextTypes.AdviceState) => ContextTypes.AdviceState,
  ): void {
    const before = this.state(live);
    live.engine.advice.setState(change(before));
    this.undoable.set(live.id, {
      label: undoLabel,
      revert: () => live.engine.advice.setState(before),
    });
    this.refresh();
  }

  /**
   * `/compact` with focus instructions for the agent's terminal, or for the clipboard when there is none: the
   * user reads the exact line first (and may edit it); Enter sends it as one line, Escape sends nothing.
   */
  private async compact(advice: ContextTypes.Advice | undefined, agent: AgentId | undefined): Promise<void> {
    // Restricted Mode types nothing into a terminal: the line is copied instead.
    const terminal = vscode.workspace.isTrusted ? await findAgentTerminal(agent) : undefined;
    // A process can rename its terminal: its name is shown as one visible line too.
    const target = terminal && visibleLine(terminal.name);
    const name = agent ? agentName(agent) : 'the agent';
    const confirmed = await vscode.window.showInputBox({
      title: terminal ? `Send to ${name} in "${target}"` : `Copy for ${name}`,
      prompt: terminal
        ? `Enter sends this line to ${name}, Escape cancels. You can edit it first.`
        : `No terminal running ${name} was found: Enter copies this line to paste into ${name}.`,
      value: advice ? compactCommand(advice) : '/compact',
      ignoreFocusOut: true,
      validateInput: terminalLineProblem,
    });
    const line = confirmed === undefined ? undefined : terminalLine(confirmed);
    if (line === undefined) return;
    if (terminal) {
      terminal.show(false);
      // The extension API has no bracketed paste; none is needed for one line: its Enter is the only one.
      terminal.sendText(line, true);
      void vscode.window.setStatusBarMessage(`Context Deck: sent /compact to "${target}"`, 4000);
      return;
    }
    await vscode.env.clipboard.writeText(line);
    void vscode.window.showInformationMessage(
      `Copied /compact to the clipboard: no terminal running ${name} was found. Paste it into ${name}.`,
    );
  }

  private async closeEditors(file: string): Promise<void> {
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.fsPath === file);
    if (tabs.length > 0) {
      await vscode.window.tabGroups.close(tabs);
      void vscode.window.setStatusBarMessage(
        `Context Deck: closed ${tabs.length} editor(s) of ${file}`,
        4000,
      );
      return;
    }
    void vscode.window.showInformationMessage(
      `Nothing to close: no editor of ${file} is open. Claude Code still holds what it read; compact to drop it.`,
    );
  }
}
