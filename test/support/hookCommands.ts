/** The hook commands Connect writes, for the tests and the benchmark that run them as an agent would. */
import { planHookInstall } from '../../src/engine/agents/claudeCode/hookSettings';
import { planCodexConnect } from '../../src/engine/agents/codex/hooksFile';
import { parseJsonc } from '../../src/engine/agents/jsoncEdit';
import { PORTABLE_RECORDER_COMMAND } from '../../src/engine/agents/recorderCommand';
import { planVscodeConnect } from '../../src/engine/agents/vscode/hookFiles';

/** The agents whose hook files hold a command per event. */
export type HookAgent = 'claude-code' | 'codex' | 'vscode';

interface Hooks {
  hooks: Record<string, Array<{ command?: string; hooks?: Array<{ command: string }> }>>;
}

/** The command an agent's hook file holds for `event`: the team's, as Connect writes it. */
export function hookCommand(agent: HookAgent, event: string): string {
  const recorder = PORTABLE_RECORDER_COMMAND;
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
