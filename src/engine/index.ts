/**
 * The engine's one entry for the VS Code host, the CLI and the MCP server, grouped by feature: the project's
 * lifetime, activity (ingest and imports), memory, tools, the context window, advice, and the agents. What acts
 * on one project is a method of ProjectEngine or of its feature objects (`memory`, `sessions`, `tools`,
 * `context`, `advice`); nothing outside the engine runs SQL or imports its modules one by one. At most 80
 * names (test/unit/engineFacade.test.ts). (The hook recorder has its own, smaller entry: recorder.ts.)
 */

import { ProjectEngine as Engine } from './project/projectEngine';

// The project's lifetime: open (as the writer or a reader), ingest, save, and the views derived after ingest.
/**
 * One project as its users see it: its lifetime and its feature objects (`memory`, `sessions`, `tools`,
 * `context`, `advice`). Its store is left out: SQL stays inside the engine, whose modules take the whole class.
 */
export type ProjectEngine = Omit<Engine, 'store'>;
export const ProjectEngine: {
  open(options: Parameters<typeof Engine.open>[0]): Promise<ProjectEngine>;
  warmUp: (typeof Engine)['warmUp'];
} = Engine;
// Types the host, the CLI and the MCP server only pass on, one group per feature: `MemoryTypes.SearchResult`.
export type * as ActivityTypes from './project/facadeTypes/activity';
export type * as MemoryTypes from './project/facadeTypes/memory';
export type * as ToolTypes from './project/facadeTypes/tools';
export type * as ContextTypes from './project/facadeTypes/context';
export { FOLD_EVERY_BYTES } from './project/derivedViews';
export { identifyProject } from './kernel/projectIdentity';
export { bundledScript } from './kernel/bundledScript';
export { yieldToHost } from './kernel/yieldToHost';
export { eventsDir, isWithin, resolveHome } from './kernel/paths';
export { makeHomePrivate } from './kernel/privateFiles';

// Activity: the event log read into the project, and past sessions imported from the agents' files.
export { listLogFiles } from './log/ingest';
export { sessionFileStamp } from './agents/sessionBytes';

// Memory: observations, search, timeline, saving and forgetting (ProjectEngine.memory reads them).
export {
  fitToBudget,
  formatObservations,
  formatSearch,
  formatTimeline,
  isObservationType,
  MAX_GET_IDS,
  MAX_SAVED_TEXT,
  MAX_SEARCH_LIMIT,
  MemoryQueryError,
  type Observation,
  OBSERVATION_TYPES,
  type ObservationType,
  parseTime,
  shortId,
  TIMELINE_LIMITS,
} from './memory';
export { parseQuery } from './memory/search';
export { clip, oneLine, shortDate } from './memory/text';

// Tools: the agents' config scanned, tools discovered from use, ranked, and MCP servers switched on and off.
export { displayPath, type RankedTool, scanConfigs, scanConfigsOffThread } from './registry';
export { configLocations } from './agents/configLocations';
export { serverSwitches, withConfigSwitches } from './registry/serverToggle';

// The context window: the live gauge and its breakdown, and what the next session starts with.
export { type BreakdownItem, type GaugeReading, toolResultText } from './live';
export { sessionGauge, sessionOfFile } from './live/activeSession';
export { usageLevel } from './live/usageLevel';
export { citationNotes } from './context/citations';
export { SESSION_CONTEXT_BUDGET, TOOL_SECTION_BUDGET } from './context/sessionContextText';
export { CompactWarnings, compactWarning, warningLevel } from './context/compactWarning';
export { agentHintDue, agentHintText, agentHintWaiting, leaveAgentHint } from './context/agentHint';

// Advice: what to drop from the context, and the /compact that keeps the task.
export { compactCommand } from './pruning/focus';
export { adviseSession, dismissalKey } from './pruning/sessionAdvice';

// The agents: their adapters, connecting their hooks, and the memory server in their config.
export { AGENT_ADAPTERS, agentTraces, hookSettingsFiles } from './agents';
export { type AgentAdapter, type HookInstaller, type MemoryServerInstaller } from './agents/adapter';
export { hookConnection } from './agents/hookConnection';
export { portableCommandCaveats, recorderCommand } from './agents/recorderCommand';
export { installRecorder, recorderRuntime, writeSettingsPlan } from './agents/recorderInstall';
export { installServer, serverLaunch, stableServerPath } from './agents/mcpServerConfig';
export {
  readSettingsText,
  settingsBackupDir,
  SettingsParseError,
  writeSettingsWithBackup,
} from './agents/jsoncEdit';
