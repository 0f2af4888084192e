/**
 * `npm run bench`: speed figures side by side with native references, printed as tables and written to
 * bench/results.json. Options: --only <section>[,<section>], --sizes 10000,100000; footprint: --big, --quick,
 * --footprint-sizes 0,100000.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchBreakdown } from './breakdown.bench';
import { benchFootprint } from './footprint.bench';
import { benchForecast } from './forecast.bench';
import { benchIngest } from './ingest.bench';
import { benchMemory } from './memory.bench';
import { benchOpencodeStore } from './opencodeStore.bench';
import { benchRecall } from './recall.bench';
import { benchRecorder } from './recorder.bench';
import { benchRedaction } from './redaction.bench';
import { benchRegistry } from './registry.bench';
import { benchTranscripts } from './transcripts.bench';
import { type BenchSection, formatTable } from './report';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
};
const only = option('only')?.split(',');
const sizes = (option('sizes') ?? '10000,100000,1000000').split(',').map(Number);

const SECTIONS: Record<string, () => Promise<BenchSection>> = {
  ingest: () => benchIngest(sizes),
  recorder: () => benchRecorder(),
  redaction: () => benchRedaction(),
  transcripts: () => benchTranscripts(),
  breakdown: () => benchBreakdown(),
  forecast: () => benchForecast(),
  registry: () => benchRegistry(),
  memory: () => benchMemory(),
  recall: () => benchRecall(),
  opencode: () => benchOpencodeStore(),
  footprint: () => benchFootprint(),
};

async function main(): Promise<void> {
  const sections: Record<string, BenchSection> = {};
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (only && !only.includes(name)) continue;
    process.stderr.write(`running ${name}...\n`);
    const section = await run();
    sections[name] = section;
    console.log(`${formatTable(section)}\n`);
  }
  // Sections not run this time keep their last results, so `--only` refreshes part of the file.
  const file = path.join(__dirname, 'results.json');
  let previous: Record<string, unknown> = {};
  try {
    previous =
      (JSON.parse(fs.readFileSync(file, 'utf8')) as { sections?: Record<string, unknown> }).sections ?? {};
  } catch {
    // First run.
  }
  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryBytes: os.totalmem(),
      node: process.version,
    },
    loadAverage: os.loadavg(),
    sections: {
      ...previous,
      ...Object.fromEntries(
        Object.entries(sections).map(([name, section]) => [
          name,
          { ...section, measuredAt: new Date().toISOString() },
        ]),
      ),
    },
  };
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results written to ${path.relative(process.cwd(), file)}`);
}

void main();
