/**
 * The context window of opencode's models, from the catalogue opencode caches (models.dev's `api.json`):
 * `$OPENCODE_MODELS_PATH`, else `$XDG_CACHE_HOME/opencode/models.json` or `~/.cache/opencode/models.json`
 * (packages/opencode/src/provider/models.ts `ModelsDev`, `Global.Path.cache`). Each provider lists its
 * models with `limit: { context, output }`; a session's assistant messages name `providerID` and `modelID`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Json, isObject } from '../jsonValues';

/** The catalogue is a few MB; a larger file is not one opencode wrote. */
const MAX_CATALOGUE_BYTES = 64 * 1024 * 1024;

export type WindowOf = (providerId: string | undefined, modelId: string | undefined) => number | undefined;

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

/** Context windows by provider and model; none where the catalogue is missing or unreadable. */
export function readModelWindows(env: NodeJS.ProcessEnv = process.env): WindowOf {
  const catalogue = readCatalogue(env);
  return (providerId, modelId) => {
    if (!catalogue || providerId === undefined || modelId === undefined) return undefined;
    const provider = Object.hasOwn(catalogue, providerId) ? objectOf(catalogue[providerId]) : undefined;
    const models = objectOf(provider?.models);
    const model = models && Object.hasOwn(models, modelId) ? objectOf(models[modelId]) : undefined;
    const context = objectOf(model?.limit)?.context;
    return typeof context === 'number' && Number.isFinite(context) && context > 0 ? context : undefined;
  };
}
