import * as path from 'node:path';
import {
  HOOK_SCOPES,
  type HookScope,
  claudeSettingsPath,
  hookInstallState,
  planHookInstall,
  planHookUninstall,
  portableCommandCaveats,
  recorderCommand,
} from '../engine/hookSettings';
import { readSettingsText, writeSettingsWithBackup } from '../engine/jsoncEdit';
import { resolveHome } from '../engine/paths';
import { identifyProject } from '../engine/projectIdentity';
import { installRecorder, recorderRuntime } from '../engine/recorderInstall';
import { UsageError, stringFlag } from './args';
import type { CliCommand } from './command';

function scopeOf(value: string | undefined): HookScope {
  const scope = (value ?? 'project') as HookScope;
  if (!HOOK_SCOPES.includes(scope)) throw new UsageError(`--scope must be one of ${HOOK_SCOPES.join(', ')}`);
  return scope;
}

export const hooksCommand: CliCommand = {
  name: 'hooks',
  usage: 'hooks install|uninstall|status [--scope project|local|user] [--dry-run] [--json]',
  summary: "Connect or disconnect Claude Code: add or remove the recorder's hooks in its settings",
  flags: { withValue: ['scope'], boolean: ['dry-run', 'json'] },
  async run(args, context) {
    const action = args.positionals[0];
    if (action !== 'install' && action !== 'uninstall' && action !== 'status') {
      throw new UsageError('say install, uninstall or status');
    }
    const home = resolveHome(context.home);
    const root = identifyProject(context.project).mainRoot;
    const scopes =
      action === 'status' && !args.flags.has('scope') ? HOOK_SCOPES : [scopeOf(stringFlag(args, 'scope'))];

    if (action === 'status') {
      const states = scopes.map((scope) => {
        const file = claudeSettingsPath(scope, root);
        return { scope, file, ...hookInstallState(file, readSettingsText(file)) };
      });
      if (args.flags.has('json')) context.stdout(JSON.stringify(states));
      else
        for (const state of states)
          context.stdout(
            `${state.scope.padEnd(8)} ${state.missing.length === 0 ? 'connected' : state.installed.length ? `partly connected (missing ${state.missing.join(', ')})` : 'not connected'}  ${state.file}`,
          );
      return 0;
    }

    const scope = scopes[0];
    const file = claudeSettingsPath(scope, root);
    const before = readSettingsText(file);
    const dryRun = args.flags.has('dry-run');
    const install = action === 'install';
    if (install && !dryRun) installRecorder(home, path.join(__dirname, 'hook.js'));
    const command = install ? recorderCommand(scope, recorderRuntime(), home) : undefined;
    const plan = command ? planHookInstall(file, before, command) : planHookUninstall(file, before);
    const caveats = install && scope === 'project' ? portableCommandCaveats(home) : [];
    const written = plan.changes.length > 0 && !dryRun;
    const backup = written ? writeSettingsWithBackup(file, plan.after, home) : undefined;
    if (args.flags.has('json')) {
      context.stdout(JSON.stringify({ file, changes: plan.changes, command, written, backup, caveats }));
    } else if (plan.changes.length === 0) {
      context.stdout([`${file}: nothing to change`, ...caveats].join('\n'));
    } else {
      context.stdout(
        [
          `${file} ${dryRun ? 'would change' : 'changed'}:`,
          ...plan.changes.map((change) => `  - ${change}`),
          ...(command ? [`hook command: ${command}`] : []),
          ...(backup ? [`backup: ${backup}`] : []),
          ...caveats,
        ].join('\n'),
      );
    }
    return 0;
  },
};
