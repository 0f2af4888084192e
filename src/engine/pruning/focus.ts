/**
 * The current task, from what the user asked and the files the agent is changing, and the `/compact`
 * command that keeps it: never named after tools or servers, which are what is being dropped.
 */
import type { Advice, ContextItem } from './advisor';
import { promptKeywords } from './keywords';

export interface TaskFocus {
  /** Keywords of the latest prompts, the newest prompt's first. */
  keywords: string[];
  /** Files the agent edited, the latest first (base names). */
  editing: string[];
}

const FOCUS_KEYWORDS = 8;
const FOCUS_FILES = 4;

const baseName = (file: string): string => file.split(/[\\/]/).pop() ?? file;

export function taskFocus(prompts: readonly string[], items: readonly ContextItem[]): TaskFocus {
  const edited = items
    .filter((item) => item.type === 'file' && item.editedAt !== undefined)
    .sort((a, b) => b.editedAt! - a.editedAt!);
  return {
    keywords: promptKeywords(prompts.join('\n')).slice(0, FOCUS_KEYWORDS),
    editing: edited.slice(0, FOCUS_FILES).map((item) => baseName(item.name)),
  };
}

/** `/compact` with focus instructions: the current task to keep, and the recommended drops. */
export function compactCommand(advice: Pick<Advice, 'focus' | 'recommendations'>): string {
  const { keywords, editing } = advice.focus;
  const task = [
    ...(keywords.length ? [keywords.join(', ')] : []),
    ...(editing.length ? [`files being edited: ${editing.join(', ')}`] : []),
  ];
  const drop = advice.recommendations
    .filter((rec) => rec.type !== 'session')
    .map((rec) => (rec.type === 'file' ? baseName(rec.item) : rec.item));
  return [
    '/compact',
    task.length
      ? `Keep what matters for the current task: ${task.join('; ')}.`
      : 'Keep the current task, its decisions and open problems.',
    ...(drop.length ? [`Drop the details of: ${drop.join(', ')}.`] : []),
  ].join(' ');
}
