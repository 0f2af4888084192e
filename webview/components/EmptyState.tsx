import { post } from '../vscode';

/** Shown until the first event of a project arrives: how to get the agent's activity into the log. */
export function EmptyState({ eventsDir }: { eventsDir: string }) {
  const example = `"hooks": {
  "PostToolUse": [{ "matcher": "*", "hooks": [{
    "type": "command", "async": true,
    "command": "jq -c . >> '${eventsDir}/claude-code.jsonl'"
  }]}]
}`;
  return (
    <div class="panel empty">
      <h3>
        <i class="codicon codicon-plug" aria-hidden="true" /> No agent activity recorded yet
      </h3>
      <p>
        Context Deck learns what your agent does from its hooks. Each hook event (session start, prompt, tool
        call) is appended as one JSON line to a <code>.jsonl</code> file in the event log folder:
      </p>
      <div class="path-row">
        <code class="path" title={eventsDir}>
          {eventsDir}
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
      {/* Slot for the one-click "Connect Claude Code" button (hook installer) of a later issue. */}
      <div class="connect-slot" data-slot="connect-agent" />
      <details class="manual-setup">
        <summary>Connect Claude Code by hand</summary>
        <p>
          Add hooks to <code>.claude/settings.json</code> (or <code>~/.claude/settings.json</code>) that
          append each hook input to the folder above, for example:
        </p>
        <pre>
          <code>{example}</code>
        </pre>
        <p class="muted">
          Do the same for <code>SessionStart</code>, <code>UserPromptSubmit</code>,{' '}
          <code>PostToolUseFailure</code> and <code>SessionEnd</code>. Counts here update as soon as lines
          arrive.
        </p>
      </details>
    </div>
  );
}
