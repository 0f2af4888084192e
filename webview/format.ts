/** Counts are shown exactly, grouped the same way whatever the user's locale (tests read them back). */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export { formatBytes } from '../src/shared/formatBytes';
export { formatTokens } from '../src/shared/formatTokens';
export { relativeTime } from '../src/shared/relativeTime';

export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
}

/**
 * Hyphenated words ("auto-compact", a range "3-7") kept whole at the sidebar's width: the browser breaks a line
 * after a hyphen, and a word split there reads as two. U+2011 is the same hyphen, but not a break.
 */
export function keepHyphenatedWords(text: string): string {
  return text.replace(/(?<=\w)-(?=\w)/g, '\u2011');
}
