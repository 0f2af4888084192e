/**
 * The project memory in VS Code: Search Memory (a live QuickPick), Show Timeline (earlier/later paging),
 * Save Selection to Memory, and per observation Open, Timeline, Forget (with Undo) and Copy. Reads go
 * straight to the project's engine (writer or follower); writes are memory events appended to the log,
 * applied by the project's writer, and shown once this window's database has them (LiveProject.applyChange).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  isWithin,
  memoryCounts,
  sessionAgents,
  type Observation,
  observationState,
  type ObservationType,
  resolveId,
  saveToMemory,
  type SearchHit,
  searchObservations,
  setForgotten,
  shortId,
  timeline,
  type TimelineEntry,
  type TimelineOptions,
} from '../../engine';
import {
  MEMORY_TYPES,
  MEMORY_TYPE_DESCRIPTIONS,
  type MemoryType,
  isMemoryType,
  memoryTypeIcon,
  oneLineClip,
  parseMemoryQuery,
  typingQuery,
} from '../../shared/memory';
import type { MemoryView } from '../../shared/protocol';
import { clockTime, relativeTime } from '../../shared/relativeTime';
import type { LiveProject } from '../project/liveProject';
import { type Log, shortMessage } from '../log';
import { type MemoryDocumentProvider, type ObservationRef, observationUri, refOfUri } from '../documents/memoryDocument';
import { type Projects, chooseProject } from '../project/projects';

/** The shared list and the engine's must not drift apart: this fails to compile when they do. */
export const TYPES_AGREE: [MemoryType, ObservationType] extends [ObservationType, MemoryType] ? true : never =
  true;

const SEARCH_DEBOUNCE_MS = 150;
const SEARCH_LIMIT = 50;
/** Rows of the dashboard's Memory section. */
export const DASHBOARD_ROWS = 10;
const ROW_CHARS = 240;
const LABEL_CHARS = 100;
const TIMELINE_PAGE = 10;

const BUTTONS = {
  timeline: { iconPath: new vscode.ThemeIcon('history'), tooltip: 'Timeline around this observation' },
  forget: { iconPath: new vscode.ThemeIcon('eye-closed'), tooltip: 'Forget (can be undone)' },
  copy: { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy its text' },
} satisfies Record<string, vscode.QuickInputButton>;
const ITEM_BUTTONS = [BUTTONS.timeline, BUTTONS.forget, BUTTONS.copy];

interface ObservationItem extends vscode.QuickPickItem {
  observation?: Observation;
  page?: TimelineOptions;
}

/** What the dashboard's Memory section shows for a search box value and type filters. */
export function memoryView(
  live: LiveProject,
  request: { request: number; query: string; types: readonly string[] },
): MemoryView {
  const db = live.engine.db;
  const parsed = parseMemoryQuery(request.query);
  const types = [...new Set([...request.types.filter(isMemoryType), ...parsed.types])];
  const result = searchObservations(db, {
    query: typingQuery(parsed.query),
    types: types.length > 0 ? types : undefined,
    limit: DASHBOARD_ROWS,
  });
  const counts = memoryCounts(db);
  const agents = sessionAgents(
    db,
    result.hits.flatMap((hit) => hit.sessionId ?? []),
  );
  return {
    request: request.request,
    query: request.query,
    types: request.types.filter(isMemoryType),
    rows: result.hits.map((hit) => ({
      id: hit.id,
      shortId: shortId(hit.id),
      type: hit.type,
      text: oneLineClip(hit.text, ROW_CHARS),
      at: hit.at,
      agent: (hit.sessionId !== null && agents.get(hit.sessionId)) || null,
    })),
    agents: new Set(agents.values()).size,
    more: result.more,
    total: counts.total,
    byType: counts.byType,
  };
}

/** A search hit or timeline entry as a QuickPick row: icon and text, then time of day, age, type and id. */
export function observationItem(
  observation: Observation,
  now: number,
  options: { detail?: string; anchor?: boolean } = {},
): ObservationItem {
  return {
    label: `$(${memoryTypeIcon(observation.type)}) ${oneLineClip(observation.text, LABEL_CHARS)}`,
    description: `${options.anchor ? '$(target) ' : ''}${clockTime(observation.at, now)} · ${relativeTime(observation.at, now)} · ${observation.type} · ${shortId(observation.id)}`,
    detail: options.detail,
    alwaysShow: true,
    buttons: ITEM_BUTTONS,
    observation,
  };
}

/** The snippet is worth a second line when it shows more than the label already does. */
function snippetDetail(hit: SearchHit): string | undefined {
  const label = oneLineClip(hit.text, LABEL_CHARS);
  const snippet = oneLineClip(hit.snippet, 200);
  return snippet && snippet !== label && !label.includes(snippet.replace(/^…|…$/g, '')) ? snippet : undefined;
}

export class MemoryCommands {
  constructor(
    private readonly projects: Projects,
    private readonly documents: MemoryDocumentProvider,
    private readonly log: Log,
  ) {}

  register(): vscode.Disposable[] {
    const guarded = guardedCommand(this.log);
    return [
      guarded('contextDeck.searchMemory', (projectId, query) =>
        this.searchMemory(asString(projectId), asString(query)),
      ),
      guarded('contextDeck.showTimeline', (arg) => this.showTimelineCommand(arg)),
      guarded('contextDeck.saveSelectionToMemory', () => this.saveSelection()),
      guarded('contextDeck.openObservation', (arg) => this.openCommand(arg)),
      guarded('contextDeck.forgetObservation', (arg) => this.forgetCommand(arg)),
      guarded('contextDeck.copyObservation', (arg) => this.copyCommand(arg)),
    ];
  }

  // ---- Search -------------------------------------------------------------------------------------------

  async searchMemory(projectId?: string, initialQuery = ''): Promise<void> {
    const live = await this.projectFor(projectId, 'Search the memory of');
    if (!live) return;
    const pick = vscode.window.createQuickPick<ObservationItem>();
    pick.title = `Search Memory: ${live.name}`;
    pick.placeholder = 'Words, "a phrase", prefix*, A OR B, type:bugfix; empty shows the latest';
    pick.matchOnDescription = false;
    pick.matchOnDetail = false;
    pick.value = initialQuery;
    let timer: NodeJS.Timeout | undefined;
    let disposed = false;
    const run = () => {
      if (disposed) return;
      try {
        const { query, types } = parseMemoryQuery(pick.value);
        const result = searchObservations(live.engine.db, {
          query: typingQuery(query),
          types: types.length > 0 ? types : undefined,
          limit: SEARCH_LIMIT,
        });
        const now = Date.now();
        pick.items = result.hits.map((hit) =>
          observationItem(hit, now, { detail: query ? snippetDetail(hit) : undefined }),
        );
        const total = memoryCounts(live.engine.db).total;
        pick.title =
          `Search Memory: ${live.name} · ` +
          (result.noWords
            ? 'type words to search'
            : query || types.length > 0
              ? `${result.hits.length}${result.more ? '+' : ''} matching of ${total}`
              : `latest of ${total}`);
      } catch (error) {
        this.log.error('memory search failed', error);
        pick.items = [];
        pick.title = `Search Memory: ${shortMessage(error)}`;
      } finally {
        pick.busy = false;
      }
    };
    pick.onDidChangeValue(() => {
      clearTimeout(timer);
      pick.busy = true;
      timer = setTimeout(run, SEARCH_DEBOUNCE_MS);
    });
    pick.onDidAccept(() => {
      const observation = pick.selectedItems[0]?.observation;
      if (!observation) return;
      pick.hide();
      void this.open({ projectId: live.id, id: observation.id }, observation.type);
    });
    pick.onDidTriggerItemButton(({ item, button }) => {
      const observation = item.observation;
      if (!observation) return;
      void this.itemButton(live, observation, button, () => {
        pick.hide();
      }).then(run);
    });
    pick.onDidHide(() => {
      disposed = true;
      clearTimeout(timer);
      pick.dispose();
    });
    run();
    pick.show();
  }

  private async itemButton(
    live: LiveProject,
    observation: Observation,
    button: vscode.QuickInputButton,
    hide: () => void,
  ): Promise<void> {
    if (button === BUTTONS.copy) return this.copy(observation);
    if (button === BUTTONS.forget) {
      await this.forget(live, observation.id);
      return;
    }
    if (button === BUTTONS.timeline) {
      hide();
      await this.showTimeline(live, { anchorId: observation.id });
    }
  }

  // ---- Timeline -----------------------------------------------------------------------------------------

  private async showTimelineCommand(arg: unknown): Promise<void> {
    const ref = await this.refOf(arg, false);
    if (ref) {
      const live = this.projects.find(ref.projectId);
      if (live) await this.showTimeline(live, { anchorId: ref.id });
      return;
    }
    const live = await this.projectFor(typeof arg === 'string' ? arg : undefined, 'Show the timeline of');
    if (live) await this.showTimeline(live, {});
  }

  /** The timeline around an observation (5 before, 5 after) or around now, paging earlier and later. */
  async showTimeline(live: LiveProject, anchor: { anchorId?: string }): Promise<void> {
    let page: TimelineOptions = anchor.anchorId
      ? { anchorId: anchor.anchorId, before: 5, after: 5 }
      : { anchorAt: Date.now(), before: TIMELINE_PAGE, after: 0 };
    const pick = vscode.window.createQuickPick<ObservationItem>();
    pick.placeholder = 'Enter opens an observation; Earlier… and Later… move through time';
    pick.matchOnDescription = true;
    const render = () => {
      const result = timeline(live.engine.db, page);
      const now = Date.now();
      const items: ObservationItem[] = [];
      const hiddenBefore = result.totalBefore - result.shownBefore;
      const hiddenAfter = result.totalAfter - result.shownAfter;
      const first = result.entries[0];
      const last = result.entries[result.entries.length - 1];
      if (hiddenBefore > 0 && first) {
        items.push({
          label: `$(arrow-up) Earlier…`,
          description: `${hiddenBefore.toLocaleString('en-US')} more`,
          alwaysShow: true,
          page: { anchorId: first.id, before: TIMELINE_PAGE, after: 0 },
        });
      }
      const entryItems = result.entries.map((entry: TimelineEntry) =>
        observationItem(entry, now, { anchor: entry.anchor }),
      );
      items.push(...entryItems);
      if (hiddenAfter > 0 && last) {
        items.push({
          label: `$(arrow-down) Later…`,
          description: `${hiddenAfter.toLocaleString('en-US')} more`,
          alwaysShow: true,
          page: { anchorId: last.id, before: 1, after: TIMELINE_PAGE },
        });
      }
      pick.items = items;
      const anchorItem = entryItems.find((item) => item.description?.startsWith('$(target)'));
      const around = result.anchorId
        ? `${shortId(result.anchorId)} (${clockTime(result.anchorAt, now)})`
        : relativeTime(result.anchorAt, now) === 'just now'
          ? 'now'
          : clockTime(result.anchorAt, now);
      pick.title =
        result.entries.length === 0
          ? `Timeline: ${live.name} · nothing in memory yet`
          : `Timeline: ${live.name} · around ${around} · ${result.totalBefore} earlier, ${result.totalAfter} later`;
      const active = anchorItem ?? (page.after === 0 ? entryItems[entryItems.length - 1] : entryItems[0]);
      if (active) pick.activeItems = [active];
    };
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0] ?? pick.activeItems[0];
      if (!item) return;
      if (item.page) {
        page = item.page;
        pick.value = '';
        render();
        return;
      }
      if (item.observation) {
        pick.hide();
        void this.open({ projectId: live.id, id: item.observation.id }, item.observation.type);
      }
    });
    pick.onDidTriggerItemButton(({ item, button }) => {
      const observation = item.observation;
      if (!observation) return;
      if (button === BUTTONS.timeline) {
        page = { anchorId: observation.id, before: 5, after: 5 };
        render();
        return;
      }
      void this.itemButton(live, observation, button, () => pick.hide()).then(render);
    });
    pick.onDidHide(() => pick.dispose());
    render();
    pick.show();
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
    const resolved = resolveId(live.engine.db, id);
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
    const resolved = resolveId(live.engine.db, id);
    if (!resolved.ok) {
      void vscode.window.showWarningMessage(`Context Deck: ${resolved.error}`);
      return false;
    }
    const text = observationState(live.engine.db, resolved.id)?.text ?? '';
    const target = { home: this.projects.home, root: live.engine.identity.mainRoot };
    const observationId = () => resolved.id;
    await this.apply(live, () => setForgotten(target, [resolved.id], true, 'vscode'), observationId, false);
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
          () => setForgotten(target, [resolved.id], false, 'vscode'),
          observationId,
          true,
        );
        vscode.window.setStatusBarMessage(`Context Deck: observation ${shortId(resolved.id)} is back`, 3000);
      });
    return true;
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
      (done) => resolveId(live.engine.db, idOf(done)).ok === inMemory,
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
    const target = { home: this.projects.home, root: live.engine.identity.mainRoot };
    const saved = await this.apply(
      live,
      () => saveToMemory(target, { text, type, origin: 'vscode' }),
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
      searchObservations(live.engine.db, { query: '', limit: SEARCH_LIMIT }).hits.map((hit) => ({
        ...observationItem(hit, now),
        buttons: undefined,
      })),
      { title: `Choose an observation of ${live.name}`, matchOnDescription: true },
    );
    return picked?.observation ? { projectId: live.id, id: picked.observation.id } : undefined;
  }

  private projectFor(projectId: string | undefined, title: string): Promise<LiveProject | undefined> {
    return chooseProject(this.projects, projectId, title);
  }
}

/** Register commands whose failures are logged and shown, never thrown at the caller. */
export function guardedCommand(log: Log) {
  return (id: string, run: (...args: unknown[]) => Promise<unknown>): vscode.Disposable =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        log.error(`${id} failed`, error);
        void vscode.window.showErrorMessage(`Context Deck: ${shortMessage(error)}`);
        return undefined;
      }
    });
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
