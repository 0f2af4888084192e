/**
 * Context Deck's settings (package.json `contributes.configuration.properties`, each `contextDeck.<key>`),
 * declared once with their defaults and the values they may take: `test/unit/settings.test.ts` holds the
 * manifest to this table. A workspace's settings file may hold anything, so a value read is checked and a
 * wrong one is the default. The host reads them in one module (host/editor/settings.ts); the engine and the CLI
 * take the defaults from here.
 */
import { RANKING_STRATEGIES, type RankingStrategy } from './tools';

/** How selective the next session's context is. */
export const SELECTION_MODES = ['conservative', 'balanced', 'aggressive'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

type Setting<T> =
  | { kind: 'boolean'; default: T }
  | { kind: 'string'; default: T }
  | { kind: 'number'; default: T; minimum: number; maximum?: number }
  | { kind: 'enum'; default: T; values: readonly T[] };

const boolean = (value: boolean): Setting<boolean> => ({ kind: 'boolean', default: value });
const number = (value: number, minimum: number, maximum?: number): Setting<number> => ({
  kind: 'number',
  default: value,
  minimum,
  maximum,
});
const oneOf = <T extends string>(value: T, values: readonly T[]): Setting<T> => ({
  kind: 'enum',
  default: value,
  values,
});

export const SETTINGS = {
  /** Empty: `$CONTEXT_DECK_HOME`, else `~/.context-deck`. */
  home: { kind: 'string', default: '' } as Setting<string>,
  'ingest.pollIntervalSeconds': number(2, 0.5, 60),
  ranking: oneOf<RankingStrategy>('frequency-share', RANKING_STRATEGIES),
  'tools.showBuiltins': boolean(false),
  /** 0: the model's own window. */
  contextWindow: number(0, 0),
  'compactWarning.enabled': boolean(true),
  'compactWarning.promptsLeft': number(2, 0, 100),
  'compactWarning.percent': number(85, 1, 100),
  'compactWarning.tellAgent': boolean(false),
  contextSelection: oneOf<SelectionMode>('balanced', SELECTION_MODES),
  'history.detailDays': number(30, 7, 36500),
  'memory.offerToAgentMode': boolean(true),
};

export type SettingKey = keyof typeof SETTINGS;
export type Settings = { [Key in SettingKey]: (typeof SETTINGS)[Key]['default'] };

function valid<T>(setting: Setting<T>, value: unknown): value is T {
  switch (setting.kind) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        value >= setting.minimum &&
        (setting.maximum === undefined || value <= setting.maximum)
      );
    case 'enum':
      return setting.values.includes(value as T);
  }
}

/** Every setting, from `get` (the configuration's value for a key) where it is valid, else its default. */
export function readSettings(get: (key: SettingKey) => unknown): Settings {
  const settings: Partial<Record<SettingKey, unknown>> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const setting = SETTINGS[key] as Setting<unknown>;
    const value = get(key);
    settings[key] = valid(setting, value) ? value : setting.default;
  }
  return settings as Settings;
}
