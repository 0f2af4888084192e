/** Counts are shown exactly, grouped the same way whatever the user's locale (tests read them back). */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export { relativeTime } from '../src/shared/relativeTime';

export function percent(done: number, total: number): number {
  return total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
}
