/**
 * A model's limits as the user's or the project's opencode config declares them
 * (`provider.<provider>.models.<model>.limit`: `context`, `input`, `output`), as opencode merges its config
 * files for a session run in a folder (a later file's figure wins). A provider of one's own (an
 * OpenAI-compatible server) is declared there, not in the models.dev catalogue opencode caches.
 */
import { readConfig } from '../jsonServers';
import { isObject } from '../jsonValues';
import type { ModelLimits } from './modelCatalogue';
import { opencodeConfigFiles } from './mcpConfig';

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

export function configuredModelLimits(
  directory: string | undefined,
  userHome: string,
  env: NodeJS.ProcessEnv,
  providerId: string,
  modelId: string,
): ModelLimits | undefined {
  const merged: Partial<ModelLimits> = {};
  for (const file of opencodeConfigFiles(directory, userHome, env)) {
    const limit = readConfig(file).config?.valueAt(['provider', providerId, 'models', modelId, 'limit']);
    if (!isObject(limit)) continue;
    for (const key of ['context', 'input', 'output'] as const) {
      const value = positive(limit[key]);
      if (value !== undefined) merged[key] = value;
    }
  }
  return merged.context === undefined ? undefined : { ...merged, context: merged.context };
}
