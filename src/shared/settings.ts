/**
 * Context Deck's settings (package.json `contributes.configuration.properties`, each `contextDeck.<key>`),
 * declared once with their defaults and the values they may take: `test/unit/settings.test.ts` holds the
 * manifest to this table. A workspace's settings file may hold anything, so a value read is checked and a
 * wrong one is the default. The host reads them in one module (host/editor/settings.ts); the engine and the CLI
 * take the defaults from here.
 */
import { type AgentId, isAgentId } from './agents';
import { RANKING_STRATEGIES, type RankingStrategy } from './tools';

/** How selective the next session's context is. */
export const SELECTION_MODES = ['conservative', 'balanced', 'aggressive'] as const;
export type SelectionMode = (typeof SELECTION_MODES)[number];

/** A number for some of the agents (package.json: an object with a property per agent id). */
type PerAgent = Partial<Record<AgentId, number>>;

type Setting<T> =
  | { kind: 'boolean'; default: T }
  | { kind: 'string'; default: T }
  | { kind: 'number'; default: T; minimum: number; maximum?: number }
  | { kind: 'enum'; default: T; values: readonly T[] }
  | { kind: 'perAgent'; default: T; minimum: number };

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
  /** Per agent, over `contextWindow`: each agent's sessions may run on a model of another window. */
  agentContextWindows: { kind: 'perAgent', default: {}, minimum: 0 } as Setting<PerAgent>,
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

/** The entries of a per-agent value that name an agent and hold a number of at least `minimum`. */
function perAgent(value: unknown, minimum: number): PerAgent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.fromEntries(
    Object.entries(value).filter(
      ([agent, number]) =>
        isAgentId(agent) && typeof number === 'number' && Number.isFinite(number) && number >= minimum,
    ),
  );
}

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
    case 'perAgent':
      return perAgent(value, setting.minimum) !== undefined;
  }
}

/** Every setting, from `get` (the configuration's value for a key) where it is valid, else its default. */
export function readSettings(get: (key: SettingKey) => unknown): Settings {
  const settings: Partial<Record<SettingKey, unknown>> = {};
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const setting = SETTINGS[key] as Setting<unknown>;
    const value = get(key);
    // A per-agent value keeps the entries that are right: one agent's mistake leaves the others' windows.
    settings[key] = !valid(setting, value)
      ? setting.default
      : setting.kind === 'perAgent'
        ? perAgent(value, setting.minimum)
        : value;
  }
  return settings as Settings;
}

/** The context window set for `agent`'s sessions: its own, else the one for all agents; undefined to infer it. */
export function contextWindowFor(settings: Settings, agent: AgentId): number | undefined {
  const window = settings.agentContextWindows[agent] || settings.contextWindow;
  return window > 0 ? window : undefined;
}
