/**
 * The current task, from what the user asked and the files the agent is changing, and the `/compact`
 * command that keeps it: never named after tools or servers, which are what is being dropped.
 */
import type { Recommendation } from '../../shared/context';
import { visibleLine } from '../../shared/visibleText';
import { clip } from '../memory/text';
import type { ContextItem } from '../live/contextItems';
import { promptKeywords } from '../context/keywords';

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

/**
 * Each name or keyword in the command is cut to this: a name is there to be recognised, not read whole. With
 * at most 8 keywords, 4 files and MAX_RECOMMENDATIONS drops the command stays within 1,200 characters.
 */
const NAME_CHARS = 60;

/** A name that reads as one word needs no quotes; anything else (spaces, punctuation, a `!`) is quoted. */
const PLAIN_NAME = /^[\p{L}\p{N}._@/+-]+$/u;

/**
 * A file, skill or server name as the command shows it: one visible line (a line break in a name would be
 * an Enter in the agent's terminal, a bidi override would hide what it says), cut, and quoted when it holds
 * anything but word characters, so that it reads as a name and never as more of the instruction.
 */
function shownName(name: string): string {
  const line = clip(visibleLine(name), NAME_CHARS);
  return PLAIN_NAME.test(line) ? line : JSON.stringify(line);
}

/**
 * `/compact` with focus instructions: the current task to keep, and the recommended drops. One line of
 * visible text whatever the names hold: it is typed into the agent's terminal, where each line is a prompt.
 */
export function compactCommand(advice: {
  focus: TaskFocus;
  recommendations: readonly Recommendation[];
}): string {
  const { keywords, editing } = advice.focus;
  const task = [
    ...(keywords.length ? [keywords.map(shownName).join(', ')] : []),
    ...(editing.length ? [`files being edited: ${editing.map(shownName).join(', ')}`] : []),
  ];
  const drop = advice.recommendations
    .filter((rec) => rec.type !== 'session')
    // A tool result's item is a description of ours ("the 38k-token Bash output `npm test` ..."), not a name.
    .map((rec) => {
      if (rec.type === 'tool_result') return clip(visibleLine(rec.item), NAME_CHARS);
      return shownName(rec.type === 'file' ? baseName(rec.item) : rec.item);
    });
  return [
    '/compact',
    task.length
      ? `Keep what matters for the current task: ${task.join('; ')}.`
      : 'Keep the current task, its decisions and open problems.',
    ...(drop.length ? [`Drop the details of: ${drop.join(', ')}.`] : []),
  ].join(' ');
}
