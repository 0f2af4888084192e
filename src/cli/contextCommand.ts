import { UsageError, stringFlag } from './args';
import type { CliCommand } from './command';
import { openProject } from './projectSession';
import { SELECTION_MODES, type SelectionMode, SETTINGS } from '../shared/settings';

export const contextCommand: CliCommand = {
  name: 'context',
  usage:
    'context [--json] [--mode conservative|balanced|aggressive] [--agent-type main|plan|build|<subagent>]',
  summary: 'Show (and write for the recorder) the context the next session starts with',
  flags: { withValue: ['mode', 'agent-type'], boolean: ['json'] },
  async run(args, context) {
    const mode = (stringFlag(args, 'mode') ?? SETTINGS.contextSelection.default) as SelectionMode;
    if (!SELECTION_MODES.includes(mode))
      throw new UsageError(`--mode must be one of ${SELECTION_MODES.join(', ')}`);
    // The agent the context is for (opencode's plan or build, a subagent): its own observations weigh more.
    const agentType = stringFlag(args, 'agent-type');
    const engine = await openProject(context, 'auto', 'context-deck context (CLI)', args.flags.has('json'));
    try {
      const sessionContext = engine.context.assemble({ now: Date.now(), mode, agentType });
      // The file the recorder hands every session is the main agent's; another type's is only shown.
      const written =
        engine.role === 'writer' && agentType === undefined && engine.context.write(sessionContext);
      if (args.flags.has('json')) {
        context.stdout(JSON.stringify({ ...sessionContext, file: engine.context.path, written }));
      } else {
        context.stdout(sessionContext.text);
        context.stderr(
          `(${sessionContext.chars} of 6000 characters, tools ${sessionContext.toolsChars} of 500; ${engine.context.path})`,
        );
      }
      return 0;
    } finally {
      await engine.close();
    }
  },
};
