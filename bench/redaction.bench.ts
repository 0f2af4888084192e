/**
 * Redaction: what the corpus of fake secrets (test/support/secretCorpus.ts) leaves in the event log and
 * what it alters of the look-alike non-secrets, and how fast text and hook payloads are redacted. Targets:
 * nothing leaked; at most 1 in 50 non-secrets altered. Run alone with `node --import tsx bench/redaction.bench.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redactText, redactValue } from '../src/engine/redact';
import {
  NON_SECRETS,
  PLACEMENTS,
  SECRETS,
  measureCorpus,
  recordLine,
  recorded,
} from '../test/support/secretCorpus';
import { type BenchSection, formatTable, median, round } from './report';

const RUNS = 7;

/** Source files of the project: text with no secrets in it, as Read results and diffs carry. */
function sourceText(): string {
  const root = path.join(__dirname, '../src');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      // The rule table names every token prefix: no text an agent reads looks like that.
      if (entry.isDirectory()) {
        if (entry.name !== 'redact') walk(file);
      } else if (entry.name.endsWith('.ts')) files.push(fs.readFileSync(file, 'utf8'));
    }
  };
  walk(root);
  return files.join('\n');
}

/** Median seconds of `RUNS` runs of `work` (after one warm-up). */
function seconds(work: () => void): number {
  work();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    work();
    runs.push((performance.now() - started) / 1000);
  }
  return median(runs);
}

export async function benchRedaction(): Promise<BenchSection> {
  const figures = measureCorpus(recorded);
  const payloads = [...SECRETS.map((s) => s.text), ...NON_SECRETS.map(([, text]) => text)].flatMap((text) =>
    PLACEMENTS.map((placement) => placement.payload(text, false)),
  );
  const payloadMb = payloads.reduce((sum, payload) => sum + JSON.stringify(payload).length, 0) / 1e6;
  const source = sourceText();
  const sourceMb = source.length / 1e6;

  const measures = [
    {
      what: 'redactText: project source as one text, no secrets',
      mb: sourceMb,
      work: () => redactText(source),
    },
    {
      what: 'redactValue: hook payloads (corpus texts in every placement)',
      mb: payloadMb,
      work: () => payloads.forEach((payload) => redactValue(payload)),
    },
    {
      what: 'buildRecord: the same payloads to event-log lines',
      mb: payloadMb,
      work: () => payloads.forEach((payload) => recordLine(payload)),
    },
  ].map((measure) => ({ ...measure, seconds: seconds(measure.work) }));

  const leaked = figures.leaks.length;
  const altered = new Set(figures.altered.map((item) => item.kind)).size;
  const alteredOk = altered * 50 <= figures.nonSecrets;
  return {
    title: `Redaction: corpus of ${figures.secrets} fake secrets (${figures.kinds} kinds) x ${figures.placements} placements, ${figures.nonSecrets} look-alikes; speed`,
    columns: ['what', 'MB', 'median ms', 'MB/s', 'notes'],
    rows: [
      [
        'corpus through the recorder',
        '',
        '',
        '',
        `${figures.checks} secret placements: ${leaked} leaked (markers of ${figures.markerKinds.length} rule kinds); ${figures.nonSecrets} non-secrets: ${altered} altered`,
      ],
      ...measures.map((m) => [
        m.what,
        round(m.mb, 2),
        round(m.seconds * 1000),
        round(m.mb / m.seconds),
        `${RUNS} runs`,
      ]),
    ],
    results: {
      secrets: figures.secrets,
      kinds: figures.kinds,
      placements: figures.placements,
      secretPlacements: figures.checks,
      markerKinds: figures.markerKinds,
      leaked,
      leaks: figures.leaks,
      nonSecrets: figures.nonSecrets,
      altered,
      alteredPlacements: figures.altered,
      throughput: Object.fromEntries(
        measures.map((m) => [
          m.what,
          {
            megabytes: round(m.mb, 3),
            medianMs: round(m.seconds * 1000, 2),
            mbPerSecond: round(m.mb / m.seconds, 2),
          },
        ]),
      ),
    },
    targets: [
      `secrets leaked: ${leaked} of ${figures.checks} (target 0): ${leaked === 0 ? 'met' : 'NOT met'}`,
      `non-secrets altered: ${altered} of ${figures.nonSecrets} (target <= 1 in 50): ${alteredOk ? 'met' : 'NOT met'}`,
    ],
  };
}

if (require.main === module) {
  benchRedaction().then(
    (section) => console.log(formatTable(section)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
