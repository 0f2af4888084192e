import type { NextContextView } from '../../src/shared/protocol';
import { formatCount } from '../format';
import { post, useVsCodeState } from '../vscode';
import { SectionToggle } from './SectionToggle';
import './next-context.css';

function Budget({
  label,
  used,
  budget,
  testId,
}: {
  label: string;
  used: number;
  budget: number;
  testId: string;
}) {
  return (
    <div class="budget">
      <div class="budget-head">
        <span>{label}</span>
        <span class="muted" data-testid={testId}>
          {formatCount(used)} of {formatCount(budget)} chars
        </span>
      </div>
      <meter
        min={0}
        max={budget}
        value={Math.min(used, budget)}
        aria-label={`${label}: ${used} of ${budget} characters`}
      />
    </div>
  );
}

/** How much of its budgets the next session's starting context takes, with the exact text one click away. */
export function NextContext({ projectId, next }: { projectId: string; next: NextContextView }) {
  const [open, setOpen] = useVsCodeState(`nextOpen:${projectId}`, true);
  const bodyId = `next-body-${projectId}`;
  return (
    <section class="next-context" aria-labelledby={`next-${projectId}`} data-testid="next-context">
      <h3 class="section-header" id={`next-${projectId}`}>
        <SectionToggle
          open={open}
          onToggle={() => setOpen(!open)}
          controls={bodyId}
          title="Next session starts with"
        />
      </h3>
      {open && (
        <div id={bodyId}>
          <Budget
            label="Starting context"
            used={next.chars}
            budget={next.budget}
            testId="next-context-chars"
          />
          <Budget
            label="Tools list in it"
            used={next.toolsChars}
            budget={next.toolsBudget}
            testId="next-context-tools"
          />
          <button
            type="button"
            class="link-button"
            onClick={() => post({ type: 'previewContext', projectId })}
          >
            <i class="codicon codicon-open-preview" aria-hidden="true" /> Preview exactly what it receives
          </button>
        </div>
      )}
    </section>
  );
}
