import { shortId } from '../engine';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { writeMemory } from './memoryWrite';

export const forgetCommand: CliCommand = {
  name: 'forget',
  usage: 'forget ID [--undo]',
  summary: 'Hide an observation from memory everywhere (--undo brings it back)',
  flags: { boolean: ['undo'] },
  async run(args, context) {
    if (args.positionals.length !== 1) throw new UsageError('give exactly one observation id');
    const undo = args.flags.has('undo');
    const { value: forgotten, pendingWith } = await writeMemory(
      context,
      'context-deck forget (CLI)',
      (engine) => {
        const resolved = engine.memory.resolveId(args.positionals[0], { includeForgotten: undo });
        if (!resolved.ok) throw new Error(resolved.error);
        const state = engine.memory.state(resolved.id);
        if (undo && !state?.forgotten)
          throw new Error(`observation ${shortId(resolved.id)} is not forgotten`);
        engine.memory.setForgotten([resolved.id], !undo, 'cli');
        return { id: shortId(resolved.id), text: state?.text ?? '' };
      },
    );
    const done = pendingWith === undefined;
    const verb = undo ? (done ? 'Restored' : 'Restoring') : done ? 'Forgot' : 'Forgetting';
    context.stdout(
      [
        `${verb} ${forgotten.id}: ${forgotten.text}`,
        ...(done ? [] : [`Saved to the event log; ${pendingWith} will pick it up.`]),
        ...(undo ? [] : [`Undo with: context-deck forget ${forgotten.id} --undo`]),
      ].join('\n'),
    );
    return 0;
  },
};
