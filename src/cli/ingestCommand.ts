import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError, numberFlag } from './args';
import type { CliCommand } from './command';
import { openProject, refreshDerived, withInterrupt } from './projectSession';

/** Save at least this often during a long ingest, so an interruption loses little work. */
const DEFAULT_SAVE_INTERVAL_MS = 2000;
/** How often --follow looks for new lines. */
const FOLLOW_POLL_MS = 250;

export const ingestCommand: CliCommand = {
  name: 'ingest',
  usage: 'ingest [--follow] [--json] [--chunk-bytes N] [--save-interval MS]',
  summary: 'Read new lines of the event log into the project database (--follow: keep reading until stopped)',
  flags: { withValue: ['chunk-bytes', 'save-interval'], boolean: ['json', 'follow'] },
  async run(args, context) {
    const engine = await openProject(context, 'writer', 'context-deck ingest (CLI)');
    return withInterrupt(engine, async (signal) => {
      const saveInterval = args.flags.has('save-interval')
        ? Number(args.flags.get('save-interval'))
        : DEFAULT_SAVE_INTERVAL_MS;
      if (!Number.isFinite(saveInterval) || saveInterval < 0)
        throw new UsageError('--save-interval needs milliseconds (0 or more)');
      let lastSave = Date.now();
      const showProgress = !args.flags.has('json') && process.stderr.isTTY;
      const ingestOnce = () =>
        engine.ingest({
          chunkBytes: numberFlag(args, 'chunk-bytes'),
          signal,
          onProgress: showProgress
            ? ({ doneBytes, totalBytes }) =>
                process.stderr.write(
                  `\ringesting ${Math.floor((100 * doneBytes) / Math.max(1, totalBytes))}%`,
                )
            : undefined,
          afterChunk: async () => {
            if (Date.now() - lastSave >= saveInterval) {
              await engine.save();
              lastSave = Date.now();
            }
          },
        });
      const result = await ingestOnce();
      while (args.flags.has('follow') && !signal.aborted) {
        await sleep(FOLLOW_POLL_MS, undefined, { signal }).catch(() => undefined);
        const more = await ingestOnce();
        if (more.events > 0) refreshDerived(engine);
        result.events += more.events;
        result.rejected += more.rejected;
        result.foreign += more.foreign;
        result.bytes += more.bytes;
        result.restarted.push(...more.restarted);
        result.workerChunks += more.workerChunks;
      }
      if (showProgress) process.stderr.write('\r\x1b[K');
      refreshDerived(engine);
      await engine.save();
      if (args.flags.has('json')) {
        context.stdout(
          JSON.stringify({ ...result, project: engine.identity.id, interrupted: signal.aborted }),
        );
      } else {
        context.stdout(
          `${engine.identity.name}: ${result.events} new events, ${result.rejected} rejected lines, ` +
            `${result.foreign} lines for other projects (${result.bytes} bytes read)` +
            (result.restarted.length ? `; re-read from the start: ${result.restarted.join(', ')}` : ''),
        );
      }
      return signal.aborted && !args.flags.has('follow') ? 130 : 0;
    });
  },
};
