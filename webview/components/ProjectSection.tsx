import type { ProjectView } from '../../src/shared/protocol';
import { formatBytes, formatCount, percent, relativeTime } from '../format';
import { useNow } from '../hooks';
import { useVsCodeState } from '../vscode';
import type { RejectList } from './RejectsPanel';
import { AdvicePanel } from './AdvicePanel';
import { ConnectionStatus } from './ConnectionStatus';
import { Counts } from './Counts';
import { EmptyState } from './EmptyState';
import { Gauge } from './Gauge';
import { MemorySection } from './MemorySection';
import { NextContext } from './NextContext';
import { post } from '../vscode';
import { RejectsPanel } from './RejectsPanel';
import { SectionToggle } from './SectionToggle';
import { ToolsSection } from './ToolsSection';

interface Props {
  project: ProjectView;
  /** With several projects (multi-root) each section can be collapsed. */
  collapsible: boolean;
  eventsDir: string;
  rejects: RejectList | undefined;
}

export function ProjectSection({ project, collapsible, eventsDir, rejects }: Props) {
  // One key per project: several sections share the persisted state object.
  const [collapsed, setCollapsed] = useVsCodeState(`collapsed:${project.id}`, false);
  const [showRejects, setShowRejects] = useVsCodeState(`rejectsOpen:${project.id}`, false);
  const [activityOpen, setActivityOpen] = useVsCodeState(`activityOpen:${project.id}`, true);
  const isCollapsed = collapsible && collapsed;
  const bodyId = `project-body-${project.id}`;
  const headingId = `project-title-${project.id}`;
  const { counts } = project;

  const title = <span class="project-name">{project.name}</span>;

  return (
    <section class="project" aria-labelledby={headingId}>
      <h2 class="project-header" id={headingId} title={project.root}>
        {collapsible ? (
          <button
            type="button"
            class="project-toggle"
            aria-expanded={!isCollapsed}
            aria-controls={bodyId}
            onClick={() => setCollapsed(!isCollapsed)}
          >
            <i class={`codicon codicon-chevron-${isCollapsed ? 'right' : 'down'}`} aria-hidden="true" />
            {title}
          </button>
        ) : (
          <span class="project-title">{title}</span>
        )}
      </h2>
      {!isCollapsed && (
        <div class="project-body" id={bodyId}>
          {project.progress && (
            <IngestProgressBar done={project.progress.doneBytes} total={project.progress.totalBytes} />
          )}
          {project.sharing && (
            <p class="sharing muted" role="status" data-testid="sharing">
              <i class="codicon codicon-sync" aria-hidden="true" /> {project.sharing.message}
            </p>
          )}
          {project.warnings.length > 0 && (
            <ul class="warnings" aria-label="Warnings">
              {project.warnings.map((warning, i) => (
                <li key={i}>
                  <i class="codicon codicon-warning" aria-hidden="true" />
                  <span>{warning}</span>
                </li>
              ))}
            </ul>
          )}
          {counts.events === 0 ? (
            <EmptyState
              projectId={project.id}
              connection={project.connection}
              eventsDir={eventsDir}
              importedSessions={counts.sessions}
            />
          ) : (
            <ConnectionStatus projectId={project.id} connection={project.connection} />
          )}
          {project.gauge && <Gauge projectId={project.id} gauge={project.gauge} />}
          {project.advice && (
            <AdvicePanel
              projectId={project.id}
              advice={project.advice}
              forecast={project.gauge?.forecast ?? null}
            />
          )}
          {project.nextContext && <NextContext projectId={project.id} next={project.nextContext} />}
          {project.transcriptFiles > 0 && project.role === 'writer' && (
            <div class="history-row">
              <button
                type="button"
                class="link-button"
                data-testid="import-history"
                onClick={() => post({ type: 'importHistory', projectId: project.id })}
              >
                <i class="codicon codicon-history" aria-hidden="true" /> Import history
              </button>
              <span class="muted">
                {formatCount(project.transcriptFiles)} session{' '}
                {project.transcriptFiles === 1 ? 'file' : 'files'} of your agents on disk
              </span>
            </div>
          )}
          <section class="activity" aria-labelledby={`activity-${project.id}`}>
            <h3 class="section-header" id={`activity-${project.id}`}>
              <SectionToggle
                open={activityOpen}
                onToggle={() => setActivityOpen(!activityOpen)}
                controls={`activity-body-${project.id}`}
                title="Activity"
              />
            </h3>
            {activityOpen && (
              <div id={`activity-body-${project.id}`}>
                <Counts
                  counts={counts}
                  rejectsOpen={showRejects}
                  onRejectsClick={() => setShowRejects(!showRejects)}
                  projectId={project.id}
                />
                {showRejects && (
                  <RejectsPanel projectId={project.id} rejected={counts.rejected} list={rejects} />
                )}
              </div>
            )}
          </section>
          <ToolsSection projectId={project.id} />
          <MemorySection projectId={project.id} />
          {counts.events > 0 && <Meta project={project} />}
        </div>
      )}
    </section>
  );
}

function IngestProgressBar({ done, total }: { done: number; total: number }) {
  const pct = percent(done, total);
  return (
    <div class="progress" role="status">
      <progress max={total} value={done} aria-label="Reading the event log" />
      <span class="muted">
        Reading the event log… {pct}% ({formatBytes(done)} of {formatBytes(total)})
      </span>
    </div>
  );
}

function Meta({ project }: { project: ProjectView }) {
  const now = useNow();
  return (
    <dl class="meta">
      <dt>Last event</dt>
      <dd>
        {project.lastEventAt === null ? (
          'none yet'
        ) : (
          <time
            dateTime={new Date(project.lastEventAt).toISOString()}
            title={new Date(project.lastEventAt).toLocaleString()}
          >
            {relativeTime(project.lastEventAt, now)}
          </time>
        )}
      </dd>
      <dt>Database</dt>
      <dd>{project.counts.dbBytes > 0 ? formatBytes(project.counts.dbBytes) : 'not saved yet'}</dd>
    </dl>
  );
}
