/**
 * Where Cline condenses (or, with auto-condense off, truncates) its context: when the previous request's
 * tokens (in + out + cache writes + cache reads) reach `maxAllowedSize` of the model's window
 * (cline/cline v3.89.2 `core/context/context-management/context-window-utils.ts` getContextWindowInfo, used by
 * `ContextManager.shouldCompactContextWindow`): 27,000 tokens short of a 64k window, 30,000 of 128k, 40,000
 * of 200k (160,000), otherwise the larger of the window less 40,000 and 80% of it. Before 3.70 it was 75% of
 * the window.
 */
import type { ContextLimits } from '../adapter';

export function clineCompactAt(window: number): number {
  switch (window) {
    case 64_000:
      return window - 27_000;
    case 128_000:
      return window - 30_000;
    case 200_000:
      return window - 40_000;
    default:
      return Math.max(window - 40_000, window * 0.8);
  }
}

export const clineContextLimits: ContextLimits = { compactAt: (window) => clineCompactAt(window) };
