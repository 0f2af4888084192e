import * as os from 'node:os';
import * as path from 'node:path';
import {
  AGENT_ADAPTERS,
  type AgentAdapter,
  hookConnection,
  type HookInstaller,
  identifyProject,
  installRecorder,
  portableCommandCaveats,
  readSettingsText,
  recorderCommand,
  recorderRuntime,
  resolveHome,
  writeSettingsPlan,
} from '../engine';
import { UsageError, stringFlag } from './args';
import type { CliCommand } from './command';
import type { HookConnectionStatus } from '../shared/agents';

const STATUS_WORDS: Readonly<Record<HookConnectionStatus, string>> = {
  connected: 'connected',
  partial: 'partly connected (connect again to restore)',
  absent: 'not connected',
  unreadable: 'unreadable',
};

type Connectable = AgentAdapter & { hooks: HookInstaller };

const CONNECTABLE = AGENT_ADAPTERS.filter((adapter): adapter is Connectable => adapter.hooks !== undefined);

/** The agent `--agent` names; without it, the first the adapter list can connect. */
function agentOf(value: string | undefined): Connectable {
  const id = value ?? CONNECTABLE[0].id;
  const adapter = CONNECTABLE.find((candidate) => candidate.id === id);
  if (!adapter)
    throw new UsageError(`--agent must be one of ${CONNECTABLE.map((candidate) => candidate.id).join(', ')}`);
  return adapter;
}

function scopeOf(adapter: Connectable, value: string | undefined): string {
  const scope = value ?? 'project';
  if (!adapter.hooks.scopes.includes(scope))
    throw new UsageError(`--scope must be one of ${adapter.hooks.scopes.join(', ')} for ${adapter.id}`);
  return scope;
}

export const hooksCommand: CliCommand = {
  name: 'hooks',
  usage:
    'hooks install|uninstall|status [--agent claude-code|vscode|codex|opencode|cline] [--scope S] [--dry-run] [--json]',
  summary:
    "Connect or disconnect an agent (default Claude Code): add or remove the recorder's hooks in its settings",
  flags: { withValue: ['scope', 'agent'], boolean: ['dry-run', 'json'] },
  async run(args, context) {
    const action = args.positionals[0];
    if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
      throw new UsageError('say install, uninstall or status');
    }
    const adapter = agentOf(stringFlag(args, 'agent'));
    const home = resolveHome(context.home);
    const root = identifyProject(context.project).mainRoot;
    const scopes =
      action === 'status' && !args.flags.has('scope')
        ? adapter.hooks.scopes
        : [scopeOf(adapter, stringFlag(args, 'scope'))];
    const fileOf = (scope: string) => adapter.hooks.settingsPath(scope, root, os.homedir());

    if (action === 'status') {
      const states = scopes.map((scope) => {
        const file = fileOf(scope);
        const { status, problem } = hookConnection(adapter.hooks, file);
        return {
          agent: adapter.id,
          scope,
          file,
          status,
          problem,
          connected: status === 'connected',
          partial: status === 'partial',
        };
      });
      if (args.flags.has('json')) context.stdout(JSON.stringify(states));
      else
        for (const state of states)
          context.stdout(
            `${state.scope.padEnd(8)} ${STATUS_WORDS[state.status]}  ${state.file}${state.problem ? `: ${state.problem}` : ''}`,
          );
      return 0;
    }

    const scope = scopes[0];
    const file = fileOf(scope);
    const before = readSettingsText(file);
    const dryRun = args.flags.has('dry-run');
    const install = action === 'install';
    if (install && !dryRun) installRecorder(home, path.join(__dirname, 'hook.js'));
    const command = install ? recorderCommand(scope, recorderRuntime(), home) : undefined;
    const plan = command
      ? adapter.hooks.planConnect(file, before, command)
      : adapter.hooks.planDisconnect(file, before);
    const caveats = [
      ...(install && scope === 'project' ? portableCommandCaveats(home, adapter.displayName) : []),
      ...(install && adapter.hooks.afterConnect ? [adapter.hooks.afterConnect] : []),
    ];
    const written = plan.changes.length > 0 && !dryRun;
    // The plan's files, each with its backup (Cline's: a file per hook, executable).
    const backup = written ? writeSettingsPlan(plan, home)[0] : undefined;
    if (args.flags.has('json')) {
      context.stdout(
        JSON.stringify({
          agent: adapter.id,
          file,
          changes: plan.changes,
          // What the hooks run, as written: by event where they differ (SessionStart also prints the context).
          command: plan.commands ? uniqueCommand(plan.commands) : command,
          commands: plan.commands,
          written,
          backup,
          caveats,
        }),
      );
    } else if (plan.changes.length === 0) {
      context.stdout([`${file}: nothing to change`, ...caveats].join('\n'));
    } else {
      context.stdout(
        [
          `${file} ${dryRun ? 'would change' : plan.after === undefined ? 'removed' : 'changed'}:`,
          ...plan.changes.map((change) => `  - ${change}`),
          ...(command ? commandLines(plan.commands ?? { hooks: command }) : []),
          ...(backup ? [`backup: ${backup}`] : []),
          ...caveats,
        ].join('\n'),
      );
    }
    return 0;
  },
};

/** The command all events run but SessionStart, which also prints the session context. */
function uniqueCommand(commands: Record<string, string>): string | undefined {
  return (
    Object.entries(commands).find(([event]) => event !== 'SessionStart')?.[1] ?? Object.values(commands)[0]
  );
}

/** "hook command: …", and SessionStart's where it differs. */
function commandLines(commands: Record<string, string>): string[] {
  const common = uniqueCommand(commands);
  const start = commands.SessionStart;
  return [
    ...(common ? [`hook command: ${common}`] : []),
    ...(start && start !== common ? [`SessionStart command: ${start}`] : []),
  ];
}
