/**
 * The context breakdown of a 50 MB Claude Code transcript: read from scratch, and kept up to date as
 * lines are appended, beside the gauge's own reading of the same lines (parsing only).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LineReader } from '../src/engine/kernel/appendedLines';
import { ContextGauge } from '../src/engine/live';
import { encodeProjectDir } from '../src/engine/agents/claudeCode/transcriptFiles';
import { parseTranscriptLine } from '../src/engine/agents/claudeCode/transcriptLine';
import { type BenchSection, median, percentile, round } from './report';
import { random, sessionTranscript } from './transcripts.bench';
import { claudeCodeAdapter } from '../src/engine/agents/claudeCode';

const MB = 1024 * 1024;
const TRANSCRIPT_BYTES = 50 * MB;
const APPENDED_LINES = 100;
const APPEND_ROUNDS = 20;
const RUNS = 3;
const TARGET_MB_PER_S = 50;
const TARGET_APPEND_MS = 20;

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;
const collect = () => (globalThis as { gc?: () => void }).gc?.();

/** What the gauge did before the breakdown: read the appended bytes as lines and parse each. */
async function parseOnly(file: string): Promise<number> {
  const handle = await fs.promises.open(file, 'r');
  const reader = new LineReader();
  let parsed = 0;
  try {
    for (let offset = 0; ;) {
      const chunk = await reader.read(handle, offset, 4 * MB);
      if (!chunk) return parsed;
      offset += chunk.length;
      if (chunk.kind === 'lines') for (const line of chunk.lines) if (parseTranscriptLine(line).ok) parsed++;
    }
  } finally {
    await handle.close();
  }
}

export async function benchBreakdown(): Promise<BenchSection> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cd-bench-breakdown-'));
  try {
    fs.mkdirSync(path.join(root, 'project'));
    const project = fs.realpathSync(path.join(root, 'project'));
    const sessionId = '00000000-0000-4000-8000-000000000001';
    const file = path.join(root, 'claude', 'projects', encodeProjectDir(project), `${sessionId}.jsonl`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // One session, and the lines that follow it, to be appended a hundred at a time.
    const lines = sessionTranscript(
      random(7),
      sessionId,
      project,
      Date.parse('2026-09-01T08:00:00Z'),
      TRANSCRIPT_BYTES + 40 * MB,
    )
      .split('\n')
      .filter(Boolean);
    let bytes = 0;
    let head = 0;
    while (bytes < TRANSCRIPT_BYTES) bytes += Buffer.byteLength(lines[head++]) + 1;
    const initial = `${lines.slice(0, head).join('\n')}\n`;
    const megabytes = bytes / MB;

    const parseRuns: number[] = [];
    const scratchRuns: number[] = [];
    let parsed = 0;
    let breakdown = '';
    for (let run = 0; run < RUNS; run++) {
      fs.writeFileSync(file, initial);
      collect();
      let started = process.hrtime.bigint();
      parsed = await parseOnly(file);
      parseRuns.push(seconds(started));
      collect();
      started = process.hrtime.bigint();
      const gauge = new ContextGauge(file, claudeCodeAdapter);
      await gauge.refresh();
      const reading = gauge.reading();
      scratchRuns.push(seconds(started));
      breakdown = `${reading.breakdown.itemCount} items, ${reading.compactions.length} compactions`;
    }

    // Appending: each round adds the next hundred lines and reads the breakdown, as the live host does.
    fs.writeFileSync(file, initial);
    const gauge = new ContextGauge(file, claudeCodeAdapter);
    await gauge.refresh();
    gauge.reading();
    const appendMs: number[] = [];
    const unchangedMs: number[] = [];
    for (let round = 0; round < APPEND_ROUNDS; round++) {
      const from = head + round * APPENDED_LINES;
      fs.appendFileSync(file, `${lines.slice(from, from + APPENDED_LINES).join('\n')}\n`);
      let started = process.hrtime.bigint();
      await gauge.refresh();
      gauge.reading();
      appendMs.push(seconds(started) * 1000);
      started = process.hrtime.bigint();
      gauge.reading();
      unchangedMs.push(seconds(started) * 1000);
    }

    const parseSeconds = median(parseRuns);
    const scratchSeconds = median(scratchRuns);
    const scratchMbps = megabytes / scratchSeconds;
    const appendMedian = median(appendMs);
    const rows: Array<Array<string | number>> = [
      [
        'lines parsed (the gauge reading them)',
        round(megabytes),
        round(parseSeconds * 1000),
        round(megabytes / parseSeconds),
        `${parsed} lines`,
      ],
      [
        'gauge + breakdown from scratch, then reading()',
        round(megabytes),
        round(scratchSeconds * 1000),
        round(scratchMbps),
        breakdown,
      ],
      [
        `${APPENDED_LINES} lines appended: refresh + reading() (median)`,
        '',
        round(appendMedian, 2),
        '',
        `p95 ${round(percentile(appendMs, 95), 2)} ms over ${APPEND_ROUNDS} rounds`,
      ],
      ['reading() with nothing new (median)', '', round(median(unchangedMs), 3), '', 'cached breakdown'],
    ];
    return {
      title: 'Context breakdown of one 50 MB transcript, beside the gauge reading the same lines',
      columns: ['what', 'MB', 'ms', 'MB/s', 'notes'],
      rows,
      results: {
        transcriptBytes: bytes,
        lines: head,
        parseOnly: { seconds: parseSeconds, runs: parseRuns, mbPerSecond: megabytes / parseSeconds },
        fromScratch: { seconds: scratchSeconds, runs: scratchRuns, mbPerSecond: scratchMbps },
        append: {
          lines: APPENDED_LINES,
          medianMs: appendMedian,
          p95Ms: percentile(appendMs, 95),
          runsMs: appendMs,
        },
        readingUnchangedMs: median(unchangedMs),
      },
      targets: [
        `breakdown from scratch: ${round(scratchMbps)} MB/s (target >= ${TARGET_MB_PER_S} MB/s): ${scratchMbps >= TARGET_MB_PER_S ? 'met' : 'NOT met'}`,
        `after appending ${APPENDED_LINES} lines: ${round(appendMedian, 2)} ms median (target <= ${TARGET_APPEND_MS} ms): ${appendMedian <= TARGET_APPEND_MS ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
