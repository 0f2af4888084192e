/**
 * Where opencode compacts a session: once a reply's tokens reach the usable part of the window
 * (packages/opencode/src/session/overflow.ts `usable`, `isOverflow`). That is the model's input limit, where
 * the catalogue gives one, less a reserve; else the window less the most the model may write (its output
 * limit, at most 32,000: provider/transform.ts `maxOutputTokens`, `OUTPUT_TOKEN_MAX`) and less the reserve.
 * The reserve is the config's `compaction.reserved`, else the smaller of 20,000 and that output. With
 * `compaction.auto: false` it never compacts on its own.
 */
import type { ContextLimits } from '../adapter';
import { readConfig } from '../jsonServers';
import { isObject } from '../jsonValues';
import { opencodeConfigFiles } from './mcpConfig';
import type { ModelLimits } from './modelCatalogue';

const OUTPUT_TOKEN_MAX = 32_000;
const COMPACTION_BUFFER = 20_000;

/** The `compaction` settings of opencode's config that move its compact point. */
export interface CompactionConfig {
  auto?: boolean;
  reserved?: number;
}

export function opencodeCompactAt(limits: ModelLimits, config: CompactionConfig = {}): number {
  if (config.auto === false) return limits.context;
  const maxOutput = Math.min(limits.output ?? 0, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX;
  const reserved = config.reserved ?? Math.min(COMPACTION_BUFFER, maxOutput);
  return limits.input
    ? Math.max(0, limits.input - reserved)
    : Math.max(0, limits.context - maxOutput - reserved);
}

/**
 * The `compaction` settings as opencode merges its config files for a session run in `directory` (the user's
 * alone without one): a later file's key wins.
 */
export function compactionConfig(
  directory: string | undefined,
  userHome: string,
  env: NodeJS.ProcessEnv,
): CompactionConfig {
  const merged: CompactionConfig = {};
  for (const file of opencodeConfigFiles(directory, userHome, env)) {
    const compaction = readConfig(file).config?.valueAt(['compaction']);
    if (!isObject(compaction)) continue;
    if (typeof compaction.auto === 'boolean') merged.auto = compaction.auto;
    const reserved = compaction.reserved;
    if (typeof reserved === 'number' && Number.isFinite(reserved) && reserved >= 0)
      merged.reserved = reserved;
  }
  return merged;
}

/**
 * A window known only by its size (a setting, no catalogue): the output is taken at its cap. A session whose
 * model the catalogue knows carries its own point (SessionItem `usage.compactAt`).
 */
export const opencodeContextLimits: ContextLimits = {
  compactAt: (window) => opencodeCompactAt({ context: window }),
};
