import { useEffect } from 'preact/hooks';
import { formatCount } from '../format';
import { post } from '../vscode';
import type { RejectView } from '../../src/shared/ingest';

/** The rejected lines of one project's log that the panel shows: the newest, and how many in all. */
export interface RejectList {
  rejects: RejectView[];
  total: number;
}

interface Props {
  projectId: string;
  /** The current rejected count; when it changes while open, the list is asked for again. */
  rejected: number;
  list: RejectList | undefined;
}

/** Why lines were rejected. Samples are agent data: rendered as text, never as markup. */
export function RejectsPanel({ projectId, rejected, list }: Props) {
  useEffect(() => {
    post({ type: 'showRejects', projectId });
  }, [projectId, rejected]);

  return (
    <div class="panel rejects" id={`rejects-${projectId}`} aria-label="Rejected lines" aria-busy={!list}>
      {!list ? (
        <p class="muted">Loading rejected lines…</p>
      ) : list.total === 0 ? (
        <p class="muted">No lines were rejected. Every line in the event log was a valid event.</p>
      ) : (
        <>
          <p class="muted">
            {list.rejects.length < list.total
              ? `The newest ${formatCount(list.rejects.length)} of ${formatCount(list.total)} rejected lines:`
              : `${formatCount(list.total)} rejected ${list.total === 1 ? 'line' : 'lines'}, kept aside and never dropped silently:`}
          </p>
          <ol class="reject-list">
            {list.rejects.map((reject) => (
              <li key={`${reject.file}:${reject.offset}`}>
                <div class="reject-reason" data-testid="reject-reason">
                  {reject.reason}
                </div>
                <div class="reject-where" title={reject.file}>
                  {baseName(reject.file)}, at byte {formatCount(reject.offset)}
                </div>
                <code class="reject-sample code-block">{reject.sample}</code>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
