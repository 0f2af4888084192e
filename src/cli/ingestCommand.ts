import { setTimeout as sleep } from 'node:timers/promises';
import { type IntegerRange, numberFlag } from './args';
import type { CliCommand, CliContext } from './command';
import { openProject, refreshDerived, withInterrupt } from './projectSession';
import { SETTINGS } from '../shared/settings';

/** Save at least this often during a long ingest, so an interruption loses little work. */
const DEFAULT_SAVE_INTERVAL_MS = 2000;
/** How often --follow looks for new lines. */
const FOLLOW_POLL_MS = 250;
/** A chunk is held in memory, twice while the parse worker reads ahead: 1 KiB to 64 MiB (default 4 MiB). */
const CHUNK_BYTES: IntegerRange = { min: 1024, max: 64 * 1024 * 1024 };
/** 0 saves after every chunk; a day at most, since an interruption loses what was not saved. */
const SAVE_INTERVAL_MS: IntegerRange = { min: 0, max: 24 * 60 * 60 * 1000 };

/**
 * Runs writes that may fail for a while (a full disk) without stopping the command: each new failure is said
 * once, and so is the recovery. Nothing is lost meanwhile: the event log keeps every event, and what was
 * ingested stays in memory until a save succeeds.
 */
function retryingWrites(context: CliContext): (what: string, write: () => unknown) => Promise<void> {
  let failing: string | undefined;
  return async (what, write) => {
    try {
      await write();
      if (failing) context.stderr(`context-deck ingest: ${what} works again`);
      failing = undefined;
    } catch (error) {
      const message = `${what} failed: ${(error as Error).message}`;
      if (message !== failing) {
        context.stderr(`context-deck ingest: ${message}; trying again, the event log keeps every event`);
      }
      failing = message;
    }
  };
}

export const ingestCommand: CliCommand = {
  name: 'ingest',
  usage: 'ingest [--follow] [--json] [--chunk-bytes N] [--save-interval MS]',
  summary: 'Read new lines of the event log into the project database (--follow: keep reading until stopped)',
  flags: { withValue: ['chunk-bytes', 'save-interval'], boolean: ['json', 'follow'] },
  async run(args, context) {
    // Bad usage is reported before the project is opened (and its writer lock taken).
    const chunkBytes = numberFlag(args, 'chunk-bytes', CHUNK_BYTES);
    const saveInterval = numberFlag(args, 'save-interval', SAVE_INTERVAL_MS) ?? DEFAULT_SAVE_INTERVAL_MS;
    const engine = await openProject(context, 'writer', 'context-deck ingest (CLI)');
    return withInterrupt(engine, async (signal) => {
      const tryWrite = retryingWrites(context);
      let lastSave = Date.now();
      const saveDue = () => Date.now() - lastSave >= saveInterval;
      const saveWhenDue = async () => {
        if (!saveDue()) return;
        lastSave = Date.now();
        await tryWrite('saving the database', () => engine.save());
      };
      const skippedSaid = new Set<string>();
      const showProgress = !args.flags.has('json') && process.stderr.isTTY;
      const ingestOnce = async () => {
        // A long backlog is folded as it is read, as the extension folds it (engine/project/derivedViews.ts).
        const folds = engine.foldAsRead(SETTINGS['history.detailDays'].default);
        const once = await engine.ingest({
          chunkBytes,
          signal,
          onProgress: ({ doneBytes, totalBytes }) => {
            folds.read(doneBytes);
            if (showProgress)
              process.stderr.write(`\ringesting ${Math.floor((100 * doneBytes) / Math.max(1, totalBytes))}%`);
          },
          afterChunk: async () => {
            folds.afterChunk();
            // The engine counts a pass's rows as unsaved only once the pass ends, so without this every save
            // due during a long first pass would find nothing to save.
            if (saveDue()) engine.noteExternalChange();
            await saveWhenDue();
          },
        });
        for (const skipped of once.skipped) {
          if (!skippedSaid.has(skipped)) context.stderr(`warning: ${skipped}`);
          skippedSaid.add(skipped);
        }
        for (const rewritten of once.rewritten) context.stderr(`warning: ${rewritten}`);
        return once;
      };
      const result = await ingestOnce();
      while (args.flags.has('follow') && !signal.aborted) {
        await sleep(FOLLOW_POLL_MS, undefined, { signal }).catch(() => undefined);
        const more = await ingestOnce();
        if (more.events > 0) await tryWrite('writing the session context', () => refreshDerived(engine));
        // Also retries a save that failed, once it is due again.
        await saveWhenDue();
        result.events += more.events;
        result.rejected += more.rejected;
        result.foreign += more.foreign;
        result.bytes += more.bytes;
        result.rewritten.push(...more.rewritten);
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
            `${result.foreign} lines for other projects (${result.bytes} bytes read)`,
        );
      }
      return signal.aborted && !args.flags.has('follow') ? 130 : 0;
    });
  },
};
