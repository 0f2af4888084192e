/** The hook commands Connect writes, for the tests and the benchmark that run them as an agent would. */
import { planHookInstall } from '../../src/engine/agents/claudeCode/hookSettings';
import { planCodexConnect } from '../../src/engine/agents/codex/hooksFile';
import { parseJsonc } from '../../src/engine/agents/jsoncEdit';
import { clineHookInstaller } from '../../src/engine/agents/cline/hookFiles';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';
import { planVscodeConnect } from '../../src/engine/agents/vscode/hookFiles';

/** The agents whose hook files hold a command per event (Cline's: a file per hook, its body the command). */
export type HookAgent = 'claude-code' | 'codex' | 'vscode' | 'cline';

interface Hooks {
  hooks: Record<string, Array<{ command?: string; hooks?: Array<{ command: string }> }>>;
}

/** The command an agent's hook file holds for `event`: the team's, as Connect writes it. */
export function hookCommand(agent: HookAgent, event: string): string {
  const recorder = PORTABLE_RECORDER_COMMAND;
  if (agent === 'cline') {
    const plan = clineHookInstaller('linux').planConnect(
      '/p/.clinerules/hooks/TaskStart',
      undefined,
      recorder,
    );
    const command = plan.commands?.[event];
    if (!command) throw new Error(`cline has no ${event} hook`);
    return command;
  }
  const text =
    agent === 'claude-code'
      ? planHookInstall('settings.json', undefined, recorder).after
      : agent === 'codex'
        ? planCodexConnect('hooks.json', undefined, recorder).after
        : planVscodeConnect('context-deck.json', undefined, recorder).after;
  const [entry] = (parseJsonc(text ?? '', 'hooks') as Hooks).hooks[event];
  const command = entry.hooks?.[0].command ?? entry.command;
  if (!command) throw new Error(`${agent} has no ${event} hook`);
  return command;
}
