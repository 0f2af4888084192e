import { useState } from 'preact/hooks';
import type { DashboardState } from '../../src/shared/protocol';
import { useHostMessages } from '../hooks';
import { post } from '../vscode';
import { NoFolder } from './NoFolder';
import { ProjectSection } from './ProjectSection';
import type { RejectList } from './RejectsPanel';

/** The dashboard: a pure view of the last state the host sent. */
export function App() {
  const [state, setState] = useState<DashboardState | null>(null);
  const [rejects, setRejects] = useState<Record<string, RejectList>>({});

  useHostMessages({
    state: (message) => setState(message.state),
    rejects: (message) =>
      setRejects((previous) => ({
        ...previous,
        [message.projectId]: { rejects: message.rejects, total: message.total },
      })),
  });

  if (!state) {
    return (
      <main class="dashboard" aria-busy="true">
        <p class="muted">
          <i class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Loading…
        </p>
      </main>
    );
  }

  const multiRoot = state.projects.length > 1;
  return (
    <main class="dashboard">
      <h1 class="visually-hidden">Context Deck</h1>
      {state.folderOpen === false && <NoFolder />}
      {state.problem && (
        <div class="problem" role="alert">
          <i class="codicon codicon-error" aria-hidden="true" />
          <span class="pre-line">{state.problem}</span>
        </div>
      )}
      {state.projects.map((project) => (
        <ProjectSection
          key={project.id}
          project={project}
          collapsible={multiRoot}
          eventsDir={state.eventsDir}
          rejects={rejects[project.id]}
        />
      ))}
      {state.folderOpen !== false && (
        <footer class="footer">
          <button type="button" class="link-button" onClick={() => post({ type: 'openEventLog' })}>
            <i class="codicon codicon-folder-opened" aria-hidden="true" /> Open event log folder
          </button>
          <button type="button" class="link-button" onClick={() => post({ type: 'ingestNow' })}>
            <i class="codicon codicon-refresh" aria-hidden="true" /> Check for new events
          </button>
        </footer>
      )}
    </main>
  );
}
