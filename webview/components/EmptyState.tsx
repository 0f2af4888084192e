import { agentName } from '../../src/shared/agents';
import type { ConnectionView } from '../../src/shared/protocol';
import { formatCount } from '../format';
import { post } from '../vscode';
import { Breakable } from './Breakable';

interface Props {
  projectId: string;
  connection: ConnectionView;
  eventsDir: string;
  /** Sessions read from the agents' own session files (Import History) before any hook has recorded one. */
  importedSessions: number;
}

/**
 * Shown until the first hook event of a project arrives: how to get the agent's activity into the log. With
 * imported history there is activity to show already; what is missing is live recording.
 */
export function EmptyState({ projectId, connection, eventsDir, importedSessions }: Props) {
  const connectedScope = connection.scopes.find((scope) => scope.status === 'connected');
  return (
    <div class="panel empty" data-testid="empty-state">
      <h3>
        <i class="codicon codicon-plug" aria-hidden="true" />{' '}
        {importedSessions > 0 ? 'History imported, not recording yet' : 'No agent activity recorded yet'}
      </h3>
      {importedSessions > 0 && (
        <p>
          {formatCount(importedSessions)} {importedSessions === 1 ? 'session' : 'sessions'} read from your
          agents' session files {importedSessions === 1 ? 'is' : 'are'} below. New sessions appear live once
          an agent is connected.
        </p>
      )}
      {connectedScope ? (
        <p>
          {agentName(connectedScope.agent)} is connected through <code>{connectedScope.file}</code>. Start a
          session in this folder: its prompts and tool calls appear here as they happen.
        </p>
      ) : (
        <>
          {importedSessions === 0 && (
            <p>
              Context Deck learns what your agent does from its hooks: Claude Code, VS Code's agent, Codex CLI
              or opencode. Connect once and every session from then on shows up here. You see exactly what
              changes in the agent's settings before anything is written.
            </p>
          )}
          <button
            type="button"
            class="primary"
            data-testid="connect-agent"
            onClick={() => post({ type: 'connect', projectId })}
          >
            <i class="codicon codicon-plug" aria-hidden="true" /> Connect an Agent…
          </button>
          <p class="muted">
            From a terminal instead: <code>context-deck hooks install --scope local</code>
          </p>
        </>
      )}
      <p class="muted">Recorded events are kept in:</p>
      <div class="path-row">
        <code class="path" title={eventsDir}>
          <Breakable text={eventsDir} />
        </code>
        <button
          type="button"
          class="icon-button"
          aria-label="Copy the event log folder path"
          title="Copy path"
          onClick={() => post({ type: 'copyText', text: eventsDir })}
        >
          <i class="codicon codicon-copy" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
}
