/**
 * The limits of opencode's models, from the catalogue opencode caches (models.dev's `api.json`):
 * `$OPENCODE_MODELS_PATH`, else `$XDG_CACHE_HOME/opencode/models.json` or `~/.cache/opencode/models.json`
 * (packages/opencode/src/provider/models.ts `ModelsDev`, `Global.Path.cache`). Each provider lists its
 * models with `limit: { context, input?, output }`; a session's assistant messages name `providerID` and
 * `modelID`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Json, isObject } from '../jsonValues';

/** The catalogue is a few MB; a larger file is not one opencode wrote. */
const MAX_CATALOGUE_BYTES = 64 * 1024 * 1024;

/** A model's `limit`, in tokens: its whole window, and where given what it reads and writes at most. */
export interface ModelLimits {
  context: number;
  input?: number;
  output?: number;
}

export type LimitsOf = (
  providerId: string | undefined,
  modelId: string | undefined,
) => ModelLimits | undefined;

function opencodeModelsPath(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.OPENCODE_MODELS_PATH?.trim();
  if (configured) return path.resolve(configured);
  const xdg = env.XDG_CACHE_HOME?.trim();
  const home = env.HOME?.trim() || env.USERPROFILE?.trim() || os.homedir();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'opencode', 'models.json');
}

function objectOf(value: unknown): Json | undefined {
  return isObject(value) ? value : undefined;
}

/** The last catalogue read, kept while its file is unchanged (the gauge reads the store on every change). */
let cached: { key: string; catalogue: Record<string, unknown> | undefined } | undefined;

function readCatalogue(env: NodeJS.ProcessEnv): Record<string, unknown> | undefined {
  try {
    const file = opencodeModelsPath(env);
    const stat = fs.statSync(file);
    const key = `${file}:${stat.size}:${stat.mtimeMs}`;
    if (cached?.key !== key) {
      const catalogue =
        stat.size <= MAX_CATALOGUE_BYTES ? objectOf(JSON.parse(fs.readFileSync(file, 'utf8'))) : undefined;
      cached = { key, catalogue };
    }
    return cached.catalogue;
  } catch {
    return undefined;
  }
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

/** Limits by provider and model; none where the catalogue is missing or unreadable, or has no window. */
export function readModelLimits(env: NodeJS.ProcessEnv = process.env): LimitsOf {
  const catalogue = readCatalogue(env);
  return (providerId, modelId) => {
    if (!catalogue || providerId === undefined || modelId === undefined) return undefined;
    const provider = Object.hasOwn(catalogue, providerId) ? objectOf(catalogue[providerId]) : undefined;
    const models = objectOf(provider?.models);
    const model = models && Object.hasOwn(models, modelId) ? objectOf(models[modelId]) : undefined;
    const limit = objectOf(model?.limit);
    const context = positive(limit?.context);
    return context === undefined
      ? undefined
      : { context, input: positive(limit?.input), output: positive(limit?.output) };
  };
}
