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
