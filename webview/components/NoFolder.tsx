import { post } from '../vscode';

/** Context Deck records per project: without a folder there is nothing to attach agent activity to. */
export function NoFolder() {
  return (
    <section class="panel empty" aria-labelledby="no-folder-title">
      <h2 id="no-folder-title">
        <i class="codicon codicon-folder" aria-hidden="true" /> No folder is open
      </h2>
      <p>Context Deck shows the agent activity of a project. Open the folder your agent works in.</p>
      <button type="button" class="primary" onClick={() => post({ type: 'openFolder' })}>
        Open Folder
      </button>
    </section>
  );
}
