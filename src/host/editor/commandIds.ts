/**
 * Every command the manifest contributes, declared once. package.json lists exactly these (a unit test checks
 * both ways), and the extension registers one handler for each (a missing one fails to compile).
 */
export const COMMAND_IDS = [
  'contextDeck.showDashboard',
  'contextDeck.ingestNow',
  'contextDeck.showRejects',
  'contextDeck.rebuildDatabase',
  'contextDeck.profileHost',
  'contextDeck.stopProfilingHost',
  'contextDeck.openEventLog',
  'contextDeck.importHistory',
  'contextDeck.connectAgent',
  'contextDeck.disconnectAgent',
  'contextDeck.previewSessionContext',
  'contextDeck.searchMemory',
  'contextDeck.showTimeline',
  'contextDeck.saveSelectionToMemory',
  'contextDeck.openObservation',
  'contextDeck.forgetObservation',
  'contextDeck.copyObservation',
  'contextDeck.keepAgentNote',
  'contextDeck.addMemoryServer',
  'contextDeck.removeMemoryServer',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];

/** VS Code passes a command whatever its caller gives (a menu's URI, a caller's ids): nothing is trusted. */
type CommandHandler = (...args: unknown[]) => unknown;

/** The handlers of some of the commands; the extension joins them into one table of all of them. */
export type CommandTable<Id extends CommandId = CommandId> = Record<Id, CommandHandler>;

/** The dashboard's webview view, as package.json contributes it. */
export const DASHBOARD_VIEW_ID = 'contextDeck.dashboard';

/** VS Code's own commands that the host runs (a view's focus command comes with the view). */
export const VSCODE_COMMANDS = {
  focusDashboard: `${DASHBOARD_VIEW_ID}.focus`,
  openFolder: 'workbench.action.files.openFolder',
  revealFileInOS: 'revealFileInOS',
  setContext: 'setContext',
  diff: 'vscode.diff',
  manageTrust: 'workbench.trust.manage',
} as const;

/** A command argument that should be a string (a project id, a query): anything else counts as not given. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
