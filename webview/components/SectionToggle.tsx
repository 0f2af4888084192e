import { formatCount } from '../format';

interface SectionToggleProps {
  open: boolean;
  onToggle: () => void;
  /** The id of the body this button shows and hides. */
  controls: string;
  title: string;
  /** Shown beside the title once known. */
  count?: number;
}

/** A collapsible section's heading button: chevron, title and item count. */
export function SectionToggle({ open, onToggle, controls, title, count }: SectionToggleProps) {
  return (
    <button
      type="button"
      class="section-toggle"
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <i class={`codicon codicon-chevron-${open ? 'down' : 'right'}`} aria-hidden="true" />
      {title}
      {count !== undefined && <span class="section-count muted">{formatCount(count)}</span>}
    </button>
  );
}
