import type { ConnectionView, ScopeConnection } from '../../src/shared/protocol';
import { agentName } from '../../src/shared/agents';
import { post } from '../vscode';

/** Connected scopes by agent, in the order the host lists them: "Claude Code (project settings)". */
function connectedAgents(
  scopes: ScopeConnection[],
): Array<{ agent: string; labels: string[]; files: string[] }> {
  const byAgent = new Map<string, { agent: string; labels: string[]; files: string[] }>();
  for (const scope of scopes) {
    if (scope.status !== 'connected') continue;
    let entry = byAgent.get(scope.agent);
    if (!entry) byAgent.set(scope.agent, (entry = { agent: scope.agent, labels: [], files: [] }));
    entry.labels.push(scope.label);
    entry.files.push(scope.file);
  }
  return [...byAgent.values()];
}

/** Which agents report to us, through which settings, and a way to change that. */
export function ConnectionStatus({
  projectId,
  connection,
}: {
  projectId: string;
  connection: ConnectionView;
}) {
  const connected = connectedAgents(connection.scopes);
  const problems = connection.scopes.filter(
    (scope) => scope.status === 'unreadable' || scope.status === 'partial',
  );
  return (
    <div class="connection" data-testid="connection-status">
      {connected.length > 0 ? (
        connected.map((entry) => (
          <span class="connection-state connected" key={entry.agent} title={entry.files.join('\n')}>
            <i class="codicon codicon-pass-filled" aria-hidden="true" /> {agentName(entry.agent)} connected (
            {entry.labels.join(', ')})
          </span>
        ))
      ) : (
        <span class="connection-state">
          <i class="codicon codicon-circle-large-outline" aria-hidden="true" /> No agent connected
        </span>
      )}
      <button
        type="button"
        class="link-button"
        data-testid="connect-agent"
        title="Record another agent's sessions, or this one's from other settings"
        onClick={() => post({ type: 'connect', projectId })}
      >
        Connect…
      </button>
      {connected.length > 0 && (
        <button type="button" class="link-button" onClick={() => post({ type: 'disconnect', projectId })}>
          Disconnect…
        </button>
      )}
      {problems.map((scope) => (
        <p class="connection-problem" key={`${scope.agent}:${scope.scope}`}>
          <i class="codicon codicon-warning" aria-hidden="true" />{' '}
          {scope.status === 'partial'
            ? `Some Context Deck hooks are missing from ${scope.file}; connect ${agentName(scope.agent)} again to restore them.`
            : scope.problem}
        </p>
      ))}
    </div>
  );
}
