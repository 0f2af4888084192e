/** Search Memory (a live QuickPick) and Show Timeline (earlier/later paging), with each row's buttons. */
import * as vscode from 'vscode';
import type { Observation, MemoryTypes } from '../../engine';
import { parseMemoryQuery, typingQuery } from '../../shared/memory';
import type { Log } from '../editor/log';
import { shortMessage } from '../views/errorText';
import type { LiveProject } from '../project/liveProject';
import { type ObservationRow, firstTimelinePage, searchRows, timelineRows } from '../views/observationRows';

const SEARCH_DEBOUNCE_MS = 150;
export const SEARCH_LIMIT = 50;

const BUTTONS = {
  timeline: { iconPath: new vscode.ThemeIcon('history'), tooltip: 'Timeline around this observation' },
  forget: { iconPath: new vscode.ThemeIcon('eye-closed'), tooltip: 'Forget (can be undone)' },
  copy: { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy its text' },
} satisfies Record<string, vscode.QuickInputButton>;
const ITEM_BUTTONS = [BUTTONS.timeline, BUTTONS.forget, BUTTONS.copy];

type ObservationItem = ObservationRow & vscode.QuickPickItem;

/** A row with its buttons where it is an observation (not a page step). */
function withButtons(row: ObservationRow): ObservationItem {
  return row.observation ? { ...row, buttons: ITEM_BUTTONS } : row;
}

/** What a row's Enter and buttons do (MemoryCommands). */
interface ObservationActions {
  open(ref: { projectId: string; id: string }, type?: string): Promise<void>;
  forget(live: LiveProject, id: string): Promise<boolean>;
  copy(observation: Observation): Promise<void>;
}

export class ObservationPickers {
  constructor(
    private readonly actions: ObservationActions,
    private readonly log: Log,
  ) {}

  searchMemory(live: LiveProject, initialQuery: string): void {
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
        const result = live.engine.memory.search({
          query: typingQuery(query),
          types: types.length > 0 ? types : undefined,
          limit: SEARCH_LIMIT,
        });
        const total = live.engine.memory.counts().total;
        const shown = searchRows(live.name, { query, types, result, total }, Date.now());
        pick.items = shown.rows.map(withButtons);
        pick.title = shown.title;
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
      void this.actions.open({ projectId: live.id, id: observation.id }, observation.type);
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
    if (button === BUTTONS.copy) return this.actions.copy(observation);
    if (button === BUTTONS.forget) {
      await this.actions.forget(live, observation.id);
      return;
    }
    if (button === BUTTONS.timeline) {
      hide();
      this.showTimeline(live, observation.id);
    }
  }

  /** The timeline around an observation (5 before, 5 after) or around now, paging earlier and later. */
  showTimeline(live: LiveProject, anchorId: string | undefined): void {
    let page: MemoryTypes.TimelineOptions = firstTimelinePage(anchorId, Date.now());
    const pick = vscode.window.createQuickPick<ObservationItem>();
    pick.placeholder = 'Enter opens an observation; Earlier… and Later… move through time';
    pick.matchOnDescription = true;
    const render = () => {
      const shown = timelineRows(live.name, live.engine.memory.timeline(page), page, Date.now());
      const items = shown.rows.map(withButtons);
      pick.items = items;
      pick.title = shown.title;
      const active = items[shown.rows.indexOf(shown.active as ObservationRow)];
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
        void this.actions.open({ projectId: live.id, id: item.observation.id }, item.observation.type);
      }
    });
    pick.onDidTriggerItemButton(({ item, button }) => {
      const observation = item.observation;
      if (!observation) return;
      if (button === BUTTONS.timeline) {
        page = firstTimelinePage(observation.id, Date.now());
        render();
        return;
      }
      void this.itemButton(live, observation, button, () => pick.hide()).then(render);
    });
    pick.onDidHide(() => pick.dispose());
    render();
    pick.show();
  }
}
