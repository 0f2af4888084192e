import * as vscode from 'vscode';
import { type Observation, shortId } from '../../engine';
import { observationMarkdown } from '../views/observationMarkdown';
import type { Projects } from '../project/projects';

export const MEMORY_SCHEME = 'context-deck-memory';

/** Where an observation document points: its project and full id. */
export interface ObservationRef {
  projectId: string;
  id: string;
}

/** The document of one observation, read-only: `context-deck-memory:/<type>-<shortId>.md?<project>#<id>`. */
export function observationUri(ref: ObservationRef, type: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: MEMORY_SCHEME,
    path: `/${type}-${shortId(ref.id)}.md`,
    query: ref.projectId,
    fragment: ref.id,
  });
}

export function refOfUri(uri: vscode.Uri | undefined): ObservationRef | undefined {
  if (uri?.scheme !== MEMORY_SCHEME || !uri.query || !uri.fragment) return undefined;
  return { projectId: uri.query, id: uri.fragment };
}

/** Read-only documents of observations, rendered from the project's database when opened or refreshed. */
export class MemoryDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly projects: Projects) {}

  /** The observation behind a document, or undefined when it is gone (forgotten, or its project closed). */
  observation(ref: ObservationRef): Observation | undefined {
    const live = this.projects.find(ref.projectId);
    if (!live) return undefined;
    return live.engine.memory.observation(ref.id);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const ref = refOfUri(uri);
    if (!ref) return 'Not a Context Deck observation.\n';
    const live = this.projects.find(ref.projectId);
    if (!live) return `The project of observation ${shortId(ref.id)} is not open in this window.\n`;
    const observation = this.observation(ref);
    if (!observation) {
      return (
        `# Observation ${shortId(ref.id)} is not in memory\n\n` +
        'It was forgotten, or is not recorded yet. Forgotten observations never appear in search, the timeline ' +
        'or the context the agent starts with.\n'
      );
    }
    return observationMarkdown(observation);
  }

  /** Render the open documents of these observations (all open ones when none given) again. */
  refresh(ids?: readonly string[]): void {
    for (const document of vscode.workspace.textDocuments) {
      const ref = refOfUri(document.uri);
      if (ref && (!ids || ids.includes(ref.id))) this.changed.fire(document.uri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
