import type { UsageLevel } from '../../shared/context';

/** The band a percentage of the window falls in (src/shared/context.ts says what each band means). */
export function usageLevel(percent: number): UsageLevel {
  if (percent >= 95) return 'compact';
  if (percent >= 90) return 'critical';
  if (percent >= 80) return 'high';
  if (percent >= 70) return 'elevated';
  return 'ok';
}
