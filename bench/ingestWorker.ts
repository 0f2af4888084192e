/**
 * Runs one end-to-end ingest (log files to rows, then a snapshot save) in a fresh process so its peak
 * memory is its own. Prints one JSON line.
 */
import { bundledScript } from '../src/engine/kernel/bundledScript';
import { ProjectEngine } from '../src/engine/project/projectEngine';

async function main(): Promise<void> {
  const [home, project] = process.argv.slice(2);
  // As the extension host does when it starts, before it opens a project: sql.js's code compiled on a worker.
  const warmUpWorker = bundledScript('sqlWarmUpWorker.js');
  const warm = warmUpWorker ? await ProjectEngine.warmUp(warmUpWorker) : false;
  const opening = performance.now();
  const engine = await ProjectEngine.open({
    home,
    folder: project,
    role: 'writer',
    saveDebounceMs: 3_600_000,
  });
  const openMs = performance.now() - opening;
  const started = performance.now();
  const result = await engine.ingest();
  const ingestMs = performance.now() - started;
  const saveStarted = performance.now();
  await engine.save();
  const saveMs = performance.now() - saveStarted;
  const counts = engine.counts();
  await engine.close();
  process.stdout.write(
    `${JSON.stringify({
      warm,
      openMs,
      ingestMs,
      saveMs,
      events: result.events,
      rejected: result.rejected,
      workerChunks: result.workerChunks,
      dbBytes: counts.dbBytes,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    })}\n`,
  );
}

void main();
