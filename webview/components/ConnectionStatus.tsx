import type { ConnectionView } from '../../src/shared/protocol';
import { post } from '../vscode';

const SCOPE_NAMES = { project: 'project settings', local: 'local project settings', user: 'user settings' };

/** Whether Claude Code reports to us, through which settings, and a way to change that. */
export function ConnectionStatus({
  projectId,
  connection,
}: {
  projectId: string;
  connection: ConnectionView;
}) {
  const connected = connection.scopes.filter((scope) => scope.status === 'connected');
  const problems = connection.scopes.filter(
    (scope) => scope.status === 'unreadable' || scope.status === 'partial',
  );
  return (
    <div class="connection" data-testid="connection-status">
      {connected.length > 0 ? (
        <span class="connection-state connected" title={connected.map((scope) => scope.file).join('\n')}>
          <i class="codicon codicon-pass-filled" aria-hidden="true" /> Claude Code connected (
          {connected.map((scope) => SCOPE_NAMES[scope.scope]).join(', ')})
        </span>
      ) : (
        <span class="connection-state">
          <i class="codicon codicon-circle-large-outline" aria-hidden="true" /> Claude Code not connected
        </span>
      )}
      {connected.length > 0 ? (
        <button type="button" class="link-button" onClick={() => post({ type: 'disconnect', projectId })}>
          Disconnect
        </button>
      ) : (
        <button
          type="button"
          class="link-button"
          data-testid="connect-claude-code"
          onClick={() => post({ type: 'connect', projectId })}
        >
          Connect
        </button>
      )}
      {problems.map((scope) => (
        <p class="connection-problem" key={scope.scope}>
          <i class="codicon codicon-warning" aria-hidden="true" />{' '}
          {scope.status === 'partial'
            ? `Some Context Deck hooks are missing from ${scope.file}; connect again to restore them.`
            : scope.problem}
        </p>
      ))}
    </div>
  );
}
