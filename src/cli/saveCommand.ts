import { type ObservationType, shortId } from '../engine';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { writeMemory } from './memoryWrite';
import { typesFlag } from './memoryFlags';

export const saveCommand: CliCommand = {
  name: 'save',
  usage: 'save TEXT [--type T] [--json]',
  summary: 'Save a note to the project memory (types: decision, problem, warning, pattern...)',
  flags: { withValue: ['type'], boolean: ['json'] },
  async run(args, context) {
    const text = args.positionals.join(' ');
    if (!text.trim()) throw new UsageError('give the text to save');
    const types = typesFlag(args);
    if (types && types.length > 1) throw new UsageError('give one --type');
    const type: ObservationType | undefined = types?.[0];
    const { value: saved, pendingWith } = await writeMemory(context, 'context-deck save (CLI)', (engine) =>
      engine.memory.save({ text, type, origin: 'cli' }),
    );
    const id = shortId(saved.id);
    context.stdout(
      args.flags.has('json')
        ? JSON.stringify({
            id: saved.id,
            text: saved.text,
            type: type ?? null,
            cut: saved.cut,
            applied: pendingWith === undefined,
          })
        : pendingWith === undefined
          ? `Saved as ${id}. See it with: context-deck get ${id}`
          : `Saved as ${id} to the event log; ${pendingWith} will pick it up.`,
    );
    return 0;
  },
};
