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
import { WhileUnchanged } from '../unchangedFile';

const EFFECTIVE_PERCENT = 95;

/** `model_auto_compact_token_limit` in a config.toml; undefined when unset or unreadable. */
function limitIn(file: string): number | undefined {
  const read = readBounded(file, { maxBytes: configMaxBytes(undefined) });
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

/** Asked at every gauge reading: the file is read again only when it changed. */
const configuredLimits = new WhileUnchanged(limitIn, undefined);

/** The context size at which Codex compacts, for the effective `window` its rollout reports. */
export function codexCompactAt(window: number, env: NodeJS.ProcessEnv = process.env): number {
  const whole = Math.floor((window * 100) / EFFECTIVE_PERCENT);
  const byWindow = Math.floor((whole * 9) / 10);
  return Math.min(configuredLimits.get(path.join(codexHome(env), 'config.toml')) ?? byWindow, byWindow);
}
