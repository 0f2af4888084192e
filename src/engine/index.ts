/**
 * The engine's one entry for the VS Code host, the CLI and the MCP server: opening a project, ingesting,
 * the agents, memory, registry and context queries. Nothing outside the engine runs SQL or imports its
 * modules one by one. (The hook recorder has its own, smaller entry: recording.ts.)
 */
export { AGENT_ADAPTERS, agentTraces } from './agents';
export { type AgentAdapter, type HookInstaller, type MemoryServerInstaller } from './agents/adapter';
export { HOOK_SCOPES, type HookScope } from './agents/claudeCode/hookSettings';
export { portableCommandCaveats, recorderCommand } from './agents/recorderCommand';
export {
  parseJsonc,
  readSettingsText,
  settingsBackupDir,
  SettingsParseError,
  writeSettingsWithBackup,
} from './agents/jsoncEdit';
export { installServer, serverLaunch, stableServerPath } from './agents/mcpServerConfig';
export { installRecorder, recorderRuntime } from './agents/recorderInstall';
export { type AgentId } from '../shared/agents';
export { agentHintDue, agentHintText, agentHintWaiting, leaveAgentHint } from './context/agentHint';
export {
  type CompactWarningInput,
  type CompactWarningSettings,
  CompactWarnings,
  compactWarning,
  compactWarningSettings,
  warningLevel,
} from './context/compactWarning';
export {
  assembleSessionContext,
  assembleSessionContextInSteps,
  sessionContextPath,
  writeSessionContext,
} from './context/sessionContextAssembly';
export { type SelectionMode } from './context/selection';
export {
  SESSION_CONTEXT_BUDGET,
  type SessionContext,
  TOOL_SECTION_BUDGET,
} from './context/sessionContextText';
export { usageLevel } from './live/usageLevel';
export { listLogFiles } from './log/ingest';
export {
  type BudgetedText,
  fitToBudget,
  formatObservations,
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
export type { IngestResult } from './log/ingest';
export { parseQuery } from './memory/search';
export { clip, oneLine, shortDate } from './memory/text';
export { eventsDir, isWithin, projectStateDir, resolveHome } from './kernel/paths';
export { bundledScript } from './kernel/bundledScript';
export type { CatchUpResult } from './project/catchUp';
export {
  afterIngest,
  DEFAULT_DETAIL_DAYS,
  discoverySteps,
  FOLD_EVERY_BYTES,
  FoldAsRead,
  nextSessionContextSteps,
} from './project/derivedViews';
export { ProjectEngine } from './project/projectEngine';
export type { Role } from '../shared/ingest';
export { identifyProject } from './kernel/projectIdentity';
export { latestModel } from './memory/sessions';
export {
  type AdviceState,
  readAdviceState,
  withDisabledServers,
  writeAdviceState,
} from './pruning/adviceState';
export { type Advice } from './pruning/advisor';
export { compactCommand } from './pruning/focus';
export { adviseSession, dismissalKey } from './pruning/sessionAdvice';
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
  rankToolsInSteps,
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
export { makeHomePrivate, makePrivateDir } from './kernel/privateFiles';
export { lockHolder, requestSave, saveIfRequested } from './storage/writerLock';
export { warmUpSqlJs } from './kernel/sqlJs';
export {
  type BreakdownItem,
  type ContextBreakdown,
  ContextGauge,
  type GaugeReading,
  toolResultText,
} from './live';
export { importTranscripts, type TranscriptImportResult } from './transcripts';
export {
  type ActiveSession,
  newestStore,
  type SessionGauge,
  sessionGauge,
  sessionOfFile,
} from './live/activeSession';
export { findAgentSessionFiles } from './transcripts/agentSessionImport';
export { sessionFileStamp } from './agents/sessionBytes';
export { candidateTranscripts, claudeConfigDirs } from './agents/claudeCode/transcriptFiles';
export { runAtOnce, runInSteps } from './kernel/steps';
export { yieldToHost } from './kernel/yieldToHost';
