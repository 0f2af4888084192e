/**
 * The project memory's commands: Search Memory, Show Timeline, Save Selection to Memory, and per observation
 * Open, Forget (with Undo) and Copy. Reads go straight to the project's engine (writer or follower); writes
 * are memory events appended to the log, applied by the project's writer, and shown once this window's
 * database has them (LiveProject.applyChange).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isWithin, type Observation, type ObservationType, shortId } from '../../engine';
import { MEMORY_TYPES, MEMORY_TYPE_DESCRIPTIONS, memoryTypeIcon, oneLineClip } from '../../shared/memory';
import type { LiveProject } from '../project/liveProject';
import type { Log } from '../editor/log';
import {
  type MemoryDocumentProvider,
  type ObservationRef,
  observationUri,
  refOfUri,
} from '../documents/memoryDocument';
import type { Projects } from '../project/projects';
import { chooseProject } from './chooseProject';
import { asString, type CommandTable } from '../editor/commandIds';
import { ObservationPickers, SEARCH_LIMIT } from './observationPickers';
import { observationRow } from '../views/observationRows';

export class MemoryCommands {
  private readonly pickers: ObservationPickers;

  constructor(
    private readonly projects: Projects,
    private readonly documents: MemoryDocumentProvider,
    log: Log,
  ) {
    this.pickers = new ObservationPickers(this, log);
  }

  table(): CommandTable<
    | 'contextDeck.searchMemory'
    | 'contextDeck.showTimeline'
    | 'contextDeck.saveSelectionToMemory'
    | 'contextDeck.openObservation'
    | 'contextDeck.forgetObservation'
    | 'contextDeck.copyObservation'
    | 'contextDeck.keepAgentNote'
  > {
    return {
      'contextDeck.searchMemory': (projectId, query) =>
        this.searchMemory(asString(projectId), asString(query)),
      'contextDeck.showTimeline': (arg) => this.showTimelineCommand(arg),
      'contextDeck.saveSelectionToMemory': () => this.saveSelection(),
      'contextDeck.openObservation': (arg) => this.openCommand(arg),
      'contextDeck.forgetObservation': (arg) => this.forgetCommand(arg),
      'contextDeck.copyObservation': (arg) => this.copyCommand(arg),
      'contextDeck.keepAgentNote': (projectId) => this.keepAgentNote(asString(projectId)),
    };
  }

  async searchMemory(projectId?: string, initialQuery = ''): Promise<void> {
    const live = await this.projectFor(projectId, 'Search the memory of');
    if (live) this.pickers.searchMemory(live, initialQuery);
  }

  private async showTimelineCommand(arg: unknown): Promise<void> {
    const ref = await this.refOf(arg, false);
    if (ref) {
      const live = this.projects.find(ref.projectId);
      if (live) this.pickers.showTimeline(live, ref.id);
      return;
    }
    const live = await this.projectFor(typeof arg === 'string' ? arg : undefined, 'Show the timeline of');
    if (live) this.pickers.showTimeline(live, undefined);
  }

  // ---- One observation ----------------------------------------------------------------------------------

  async open(ref: ObservationRef, type?: string): Promise<void> {
    const observation = type ? undefined : this.documents.observation(ref);
    const uri = observationUri(ref, type ?? observation?.type ?? 'observation');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  /** Open from the dashboard (project and id) or a command argument. */
  async openObservation(projectId: string, id: string): Promise<void> {
    const live = this.projects.find(projectId);
    if (!live) return;
    const resolved = live.engine.memory.resolveId(id);
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(`Context Deck: ${resolved.error}`);
      return;
    }
    await this.open({ projectId, id: resolved.id });
  }

  private async openCommand(arg: unknown): Promise<void> {
    const ref = await this.refOf(arg, true);
    if (ref) await this.openObservation(ref.projectId, ref.id);
  }

  private async forgetCommand(arg: unknown): Promise<void> {
    const ref = await this.refOf(arg, true);
    const live = ref && this.projects.find(ref.projectId);
    if (live && ref) await this.forget(live, ref.id);
  }

  private async copyCommand(arg: unknown): Promise<void> {
    const ref = await this.refOf(arg, true);
    const observation = ref && this.documents.observation(ref);
    if (observation) await this.copy(observation);
    else if (ref) void vscode.window.showWarningMessage('Context Deck: this observation is not in memory.');
  }

  async copy(observation: Observation): Promise<void> {
    await vscode.env.clipboard.writeText(observation.text);
    vscode.window.setStatusBarMessage(`Context Deck: copied observation ${shortId(observation.id)}`, 2500);
  }

  /** Soft-delete: hidden from search, timeline and injected context, with Undo in the notification. */
  async forget(live: LiveProject, id: string): Promise<boolean> {
    const resolved = live.engine.memory.resolveId(id);
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(`Context Deck: ${resolved.error}`);
      return false;
    }
    const text = live.engine.memory.state(resolved.id)?.text ?? '';
    const observationId = () => resolved.id;
    await this.apply(
      live,
      () => live.engine.memory.setForgotten([resolved.id], true, 'vscode'),
      observationId,
      false,
    );
    const undo = 'Undo';
    void vscode.window
      .showInformationMessage(
        `Forgot ${shortId(resolved.id)} “${oneLineClip(text, 80)}”: it no longer appears in search, the timeline or the agent’s context.`,
        undo,
      )
      .then(async (choice) => {
        if (choice !== undo) return;
        await this.apply(
          live,
          () => live.engine.memory.setForgotten([resolved.id], false, 'vscode'),
          observationId,
          true,
        );
        vscode.window.setStatusBarMessage(`Context Deck: observation ${shortId(resolved.id)} is back`, 3000);
      });
    return true;
  }

  /**
   * An agent's note becomes the user's decision only here: the user picks it, reads it whole, and keeps it.
   * Until then the next session is told it as the agent's words, quoted, and never as a decision.
   */
  async keepAgentNote(projectId?: string): Promise<void> {
    const live = await this.projectFor(projectId, 'Keep an agent’s note of');
    if (!live) return;
    const notes = live.engine.memory.agentNotes();
    if (notes.length === 0) {
      void vscode.window.showInformationMessage(
        'Context Deck: no notes from agents to review. Notes an agent saves with the memory server’s save_observation tool appear here.',
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      notes.map((note) => ({ ...observationRow(note, Date.now()), note })),
      {
        title: 'Keep an agent’s note as your decision',
        placeHolder: 'Notes agents saved, newest first',
        matchOnDetail: true,
      },
    );
    if (!picked) return;
    const keep = 'Keep as My Decision';
    const choice = await vscode.window.showWarningMessage(
      'Keep this note, written by an agent, as your own decision? Every later session will be told it as a decision.',
      { modal: true, detail: picked.note.text },
      keep,
    );
    if (choice !== keep) return;
    const id = picked.note.id;
    await live.applyChange(
      () => live.engine.memory.keepAsDecisions([id], 'vscode'),
      () => live.engine.memory.observation(id)?.source === 'saved',
    );
    this.documents.refresh([id]);
    this.projects.refresh();
    vscode.window.setStatusBarMessage(`Context Deck: ${shortId(id)} is now one of your decisions`, 3000);
  }

  /** Append a memory event, wait until the observation it is about is in memory (or not), then show it. */
  private async apply<T>(
    live: LiveProject,
    write: () => T,
    idOf: (written: T) => string,
    inMemory: boolean,
  ): Promise<T> {
    const written = await live.applyChange(
      write,
      (done) => live.engine.memory.resolveId(idOf(done)).ok === inMemory,
    );
    this.documents.refresh([idOf(written)]);
    this.projects.refresh();
    return written;
  }

  // ---- Save ---------------------------------------------------------------------------------------------

  async saveSelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const selected = editor
      ? editor.selections
          .map((selection) => editor.document.getText(selection))
          .filter((text) => text.trim())
          .join('\n')
      : '';
    const file = editor?.document.uri.scheme === 'file' ? editor.document.uri.fsPath : undefined;
    const live = file
      ? (this.projects.all.find((p) => p.engine.identity.roots.some((root) => isWithin(root, file))) ??
        (await this.projectFor(undefined, 'Save to the memory of')))
      : await this.projectFor(undefined, 'Save to the memory of');
    if (!live) return;
    let text = selected.trim();
    if (!text) {
      text =
        (
          await vscode.window.showInputBox({
            title: `Save to Memory: ${live.name}`,
            prompt: 'Nothing is selected: what should the memory keep?',
            placeHolder: 'e.g. We retry the API 3 times because the gateway drops idle connections',
          })
        )?.trim() ?? '';
      if (!text) return;
    } else if (editor && file) {
      const line = editor.selection.start.line + 1;
      const relative = path.relative(live.engine.identity.mainRoot, file) || path.basename(file);
      text = `${text}\n(from ${relative.split(path.sep).join('/')}, line ${line})`;
    }
    const type = await this.pickType();
    if (!type) return;
    const saved = await this.apply(
      live,
      () => live.engine.memory.save({ text, type, origin: 'vscode' }),
      (done) => done.id,
      true,
    );
    const show = 'Open';
    const choice = await vscode.window.showInformationMessage(
      `Saved to memory as ${type} (${shortId(saved.id)})${saved.cut ? ', cut to the maximum length' : ''}.`,
      show,
    );
    if (choice === show) await this.open({ projectId: live.id, id: saved.id }, type);
  }

  private async pickType(): Promise<ObservationType | undefined> {
    const picked = await vscode.window.showQuickPick(
      MEMORY_TYPES.map((type) => ({
        label: `$(${memoryTypeIcon(type)}) ${type}`,
        detail: MEMORY_TYPE_DESCRIPTIONS[type],
        type,
      })),
      { title: 'Save to Memory: what kind of note is it?', placeHolder: 'Type', matchOnDetail: true },
    );
    return picked?.type;
  }

  // ---- Helpers ------------------------------------------------------------------------------------------

  /**
   * The observation a command is about: a document URI (editor title), `{projectId, id}`, the active
   * observation editor, or, when `pick` is set, one chosen in a search.
   */
  private async refOf(arg: unknown, pick: boolean): Promise<ObservationRef | undefined> {
    if (arg instanceof vscode.Uri) return refOfUri(arg);
    if (typeof arg === 'object' && arg !== null) {
      const { projectId, id } = arg as Record<string, unknown>;
      if (typeof projectId === 'string' && typeof id === 'string') return { projectId, id };
    }
    const active = refOfUri(vscode.window.activeTextEditor?.document.uri);
    if (active) return active;
    if (!pick) return undefined;
    const live = await this.projectFor(undefined, 'Choose an observation of');
    if (!live) return undefined;
    const now = Date.now();
    const picked = await vscode.window.showQuickPick(
      live.engine.memory
        .search({ query: '', limit: SEARCH_LIMIT })
        .hits.map((hit) => observationRow(hit, now)),
      { title: `Choose an observation of ${live.name}`, matchOnDescription: true },
    );
    return picked?.observation ? { projectId: live.id, id: picked.observation.id } : undefined;
  }

  private projectFor(projectId: string | undefined, title: string): Promise<LiveProject | undefined> {
    return chooseProject(this.projects, projectId, title);
  }
}
