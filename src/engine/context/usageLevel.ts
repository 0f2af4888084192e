/**
 * How full the context window is, in the bands the design uses everywhere (status bar colours, gauge,
 * pruning phases): under 70% nothing to say, then 70, 80, 90, and 95% where compaction comes first.
 */
export type UsageLevel = 'ok' | 'elevated' | 'high' | 'critical' | 'compact';

export function usageLevel(percent: number): UsageLevel {
  if (percent >= 95) return 'compact';
  if (percent >= 90) return 'critical';
  if (percent >= 80) return 'high';
  if (percent >= 70) return 'elevated';
  return 'ok';
}
