/**
 * The engine's one entry for the VS Code host, the CLI and the MCP server, grouped by feature: the project's
 * lifetime, activity (ingest and imports), memory, tools, the context window, advice, and the agents. Nothing
 * outside the engine runs SQL or imports its modules one by one. (The hook recorder has its own, smaller
 * entry: recorder.ts.)
 */

// The project's lifetime: open (as the writer or a reader), ingest, save, and the views derived after ingest.
export { ProjectEngine } from './project/projectEngine';
export type { Role } from '../shared/ingest';
export type { CatchUpResult } from './project/catchUp';
export { afterIngest, DEFAULT_DETAIL_DAYS, FOLD_EVERY_BYTES, FoldAsRead } from './project/derivedViews';
export { identifyProject } from './kernel/projectIdentity';
export { lockHolder, requestSave, saveIfRequested } from './storage/writerLock';
export { warmUpSqlJs } from './kernel/sqlJs';
export { bundledScript } from './kernel/bundledScript';
export { runAtOnce } from './kernel/steps';
export { yieldToHost } from './kernel/yieldToHost';
export { eventsDir, isWithin, projectStateDir, resolveHome } from './kernel/paths';
export { makeHomePrivate, makePrivateDir } from './kernel/privateFiles';

// Activity: the event log read into the project, and past sessions imported from the agents' files.
export { listLogFiles, type IngestResult } from './log/ingest';
export {
  countSessionFiles,
  importTranscripts,
  type TranscriptImportProgress,
  type TranscriptImportResult,
} from './transcripts';
export { sessionFileStamp } from './agents/sessionBytes';
export { latestModel } from './memory/sessions';

// Memory: observations, search, timeline, saving and forgetting (ProjectEngine.memory reads them).
export {
  type BudgetedText,
  fitToBudget,
  formatObservations,
  keepAsDecisions,
  formatSearch,
  formatTimeline,
  isObservationType,
  MAX_GET_IDS,
  MAX_SAVED_TEXT,
  MAX_SEARCH_LIMIT,
  memoryCounts,
  MemoryQueryError,
  type Observation,
  OBSERVATION_TYPES,
  type ObservationType,
  parseTime,
  RANKED_CANDIDATES,
  saveToMemory,
  type SearchHit,
  type SearchResult,
  setForgotten,
  shortId,
  TIMELINE_LIMITS,
  type TimelineOptions,
  type TimelineResult,
} from './memory';
export { parseQuery } from './memory/search';
export { clip, oneLine, shortDate } from './memory/text';

// Tools: the agents' config scanned, tools discovered from use, ranked, and MCP servers switched on and off.
export {
  applyScan,
  type ConfigScan,
  type DiscoveryResult,
  discoverFromUse,
  displayPath,
  planProjectServerEnabled,
  type RankedTool,
  RANKING_STRATEGIES,
  type RankingStrategy,
  rankTools,
  scanConfigs,
  scanConfigsOffThread,
  type ScanOptions,
  type ToolScope,
  writeProjectServerEnabled,
} from './registry';
export { configLocations } from './agents/configLocations';
export {
  serverSwitches,
  toggleConfirmation,
  type ToggleRequest,
  withConfigSwitches,
} from './registry/serverToggle';

// The context window: the live gauge and its breakdown, and what the next session starts with.
export {
  type BreakdownItem,
  type ContextBreakdown,
  ContextGauge,
  type GaugeReading,
  toolResultText,
} from './live';
export {
  type ActiveSession,
  sessionFileOf,
  type SessionGauge,
  sessionGauge,
  sessionOfFile,
} from './live/activeSession';
export { usageLevel } from './live/usageLevel';
export {
  assembleSessionContext,
  assembleSessionContextInSteps,
  sessionContextPath,
  writeSessionContext,
} from './context/sessionContextAssembly';
export { type SelectionMode } from './context/selection';
export { citationNotes } from './context/citations';
export {
  SESSION_CONTEXT_BUDGET,
  type SessionContext,
  TOOL_SECTION_BUDGET,
} from './context/sessionContextText';
export {
  type CompactWarningInput,
  type CompactWarningSettings,
  CompactWarnings,
  compactWarning,
  warningLevel,
} from './context/compactWarning';
export { agentHintDue, agentHintText, agentHintWaiting, leaveAgentHint } from './context/agentHint';

// Advice: what to drop from the context, and the /compact that keeps the task.
export {
  type AdviceState,
  readAdviceState,
  withDisabledServers,
  writeAdviceState,
} from './pruning/adviceState';
export { type Advice } from './pruning/advisor';
export { compactCommand } from './pruning/focus';
export { adviseSession, dismissalKey } from './pruning/sessionAdvice';

// The agents: their adapters, connecting their hooks, and the memory server in their config.
export { AGENT_ADAPTERS, agentTraces, hookSettingsFiles } from './agents';
export { type AgentAdapter, type HookInstaller, type MemoryServerInstaller } from './agents/adapter';
export { type AgentId } from '../shared/agents';
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
export { ViewScheduler, type ViewSettings, type ViewTimers } from './project/viewScheduler';
