/**
 * Where Codex compacts on its own: at 90% of the model's context window, or at
 * `model_auto_compact_token_limit` from `config.toml` when that is lower
 * (codex-rs/protocol/src/openai_models.rs `ModelInfo::auto_compact_token_limit`:
 * `min(configured, context_window * 9 / 10)`; a limit of 0 or less is none). The window Codex reports in
 * its rollouts (`model_context_window`, the gauge's) is the model's effective window, 95% of it
 * (`effective_context_window_percent`, 95 by default), while the 90% is of the whole window.
 */
import * as path from 'node:path';
import { MAX_NESTING } from '../../kernel/jsonConfig';
import { configMaxBytes, readBounded } from '../../kernel/boundedRead';
import { codexHome } from './paths';
import { isTable, parseToml } from './toml';

const EFFECTIVE_PERCENT = 95;

/** `model_auto_compact_token_limit` in `$CODEX_HOME/config.toml`; undefined when unset or unreadable. */
function configuredLimit(env: NodeJS.ProcessEnv): number | undefined {
  const read = readBounded(path.join(codexHome(env), 'config.toml'), { maxBytes: configMaxBytes(undefined) });
  if (!('text' in read)) return undefined;
  let config: unknown;
  try {
    config = parseToml(read.text, { maxDepth: MAX_NESTING });
  } catch {
    return undefined;
  }
  const limit = isTable(config) ? config.model_auto_compact_token_limit : undefined;
  return typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0 ? limit : undefined;
}

/** The context size at which Codex compacts, for the effective `window` its rollout reports. */
export function codexCompactAt(window: number, env: NodeJS.ProcessEnv = process.env): number {
  const whole = Math.floor((window * 100) / EFFECTIVE_PERCENT);
  const byWindow = Math.floor((whole * 9) / 10);
  return Math.min(configuredLimit(env) ?? byWindow, byWindow);
}
