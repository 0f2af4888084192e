import { resolveId, setForgotten, shortId } from '../engine/memory';
import { lockHolder } from '../engine/writerLock';
import { UsageError } from './args';
import type { CliCommand } from './command';
import { withProjectSnapshot } from './searchCommand';

/** What happens next: the writer applies memory events when it ingests them. */
export function whenApplied(lockPath: string): string {
  return lockHolder(lockPath)
    ? 'The project writer will apply it within seconds.'
    : 'It applies at the next ingest (VS Code does it live; or run: context-deck ingest).';
}

export const forgetCommand: CliCommand = {
  name: 'forget',
  usage: 'forget ID [--undo]',
  summary: 'Hide an observation from memory everywhere (--undo brings it back)',
  flags: { boolean: ['undo'] },
  async run(args, context) {
    if (args.positionals.length !== 1) throw new UsageError('give exactly one observation id');
    const undo = args.flags.has('undo');
    return withProjectSnapshot(context, (engine) => {
      const resolved = resolveId(engine.db, args.positionals[0], { includeForgotten: undo });
      if (!resolved.ok) throw new Error(resolved.error);
      const row = engine.db.get('SELECT text, forgotten_at FROM observations WHERE id = ?', [resolved.id]);
      if (undo && row?.forgotten_at == null)
        throw new Error(`observation ${shortId(resolved.id)} is not forgotten`);
      const text = String(row?.text ?? '');
      setForgotten({ home: engine.home, root: engine.identity.mainRoot }, [resolved.id], !undo, 'cli');
      context.stdout(
        `${undo ? 'Restoring' : 'Forgetting'} ${shortId(resolved.id)}: ${text}\n${whenApplied(engine.lockPath)}` +
          (undo ? '' : `\nUndo with: context-deck forget ${shortId(resolved.id)} --undo`),
      );
      return 0;
    });
  },
};
