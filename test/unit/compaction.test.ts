/**
 * A year of history in bounded memory: detail older than the window is folded into what the views read
 * (calls per tool and day, one digest per session), the figures the dashboard shows do not move, and
 * nothing folded is counted again when an agent's session file is read again.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { compactHistory, detailCutoff } from '../../src/engine/history/compaction';
import { saveToMemory } from '../../src/engine/memory/memoryEvents';
import { searchObservations } from '../../src/engine/memory/search';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { discoverFromUse, rankTools } from '../../src/engine/registry';
import { importTranscripts } from '../../src/engine/transcripts/importTranscripts';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';
import { promptLine, toolTurnLines, transcriptPath, writeTranscript } from '../support/transcripts';
import { assertIndexAgrees } from '../support/searchIndex';

const DAY = 86_400_000;
const NOW = Date.parse('2026-03-01T12:00:00Z');
const OLD = NOW - 60 * DAY;
const RECENT = NOW - 2 * DAY;

let ws: ReturnType<typeof tempWorkspace>;
let engine: ProjectEngine;
beforeEach(async () => {
  ws = tempWorkspace('cd-compaction-');
  engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer', now: () => NOW });
});
afterEach(async () => {
  await engine.close();
  ws.cleanup();
});

function recordSessions(): void {
  const file = (name: string) => ({ file_path: path.join(ws.project, 'src', name) });
  appendEvents(ws.home, [
    ...sessionEvents({
      sessionId: 'old',
      cwd: ws.project,
      startAt: OLD,
      prompts: ['Refactor the tokenizer so quoted strings survive', 'Now fix the failing parser test'],
      tools: [
        { tool: 'Read', input: file('tokenizer.ts') },
        { tool: 'Edit', input: file('tokenizer.ts') },
        { tool: 'Bash', input: { command: 'npm test' }, error: 'Exit code 1\n1 failing: parser quotes' },
        { tool: 'Write', input: file('quotes.ts') },
      ],
    }),
    ...sessionEvents({
      sessionId: 'recent',
      cwd: ws.project,
      startAt: RECENT,
      prompts: ['Add a gauge for the context window'],
      tools: [
        { tool: 'Read', input: file('gauge.ts') },
        { tool: 'Edit', input: file('gauge.ts') },
      ],
    }),
  ]);
}

/** The dashboard's figures, but the snapshot's size. */
const shown = () => ({ ...engine.counts(), dbBytes: 0 });
const uses = () =>
  Object.fromEntries(
    rankTools(engine, { now: NOW, hideBuiltins: false }).map((tool) => [tool.name, tool.usesTotal]),
  );
const observationsOf = (sessionId: string) =>
  engine.store.all('SELECT source, text FROM observations WHERE session_id = ? ORDER BY at, seq', [
    sessionId,
  ]);

test('detail older than the window is folded: the figures shown stay, each old session becomes one searchable digest', async () => {
  recordSessions();
  const target = { home: ws.home, root: engine.identity.mainRoot };
  saveToMemory(
    target,
    { text: 'Quoted strings keep their escapes', type: 'decision', origin: 'cli' },
    new Date(OLD),
  );
  await engine.ingest();
  discoverFromUse(engine);
  const before = { counts: shown(), uses: uses(), recent: observationsOf('recent') };
  const oldTexts = observationsOf('old').map((row) => String(row.text));
  assert.ok(oldTexts.length >= 4, 'the old session left observations');

  const folded = await engine.foldOldHistory(30);
  assert.ok(folded > 0);
  assert.deepEqual(shown(), before.counts, 'events, calls, failures, prompts and sessions still add up');
  assert.deepEqual(uses(), before.uses, 'tool ranking counts every call');
  assert.deepEqual(observationsOf('recent'), before.recent, 'detail in the window is untouched');

  assert.deepEqual(
    engine.store.all('SELECT DISTINCT session_id FROM tool_calls').map((row) => row.session_id),
    ['recent'],
  );
  assert.equal(engine.store.number('SELECT count(*) FROM prompts'), 1);
  const oldDay = Math.floor(OLD / DAY);
  assert.deepEqual(
    engine.store.all('SELECT tool_name, calls, failures FROM tool_days WHERE day = ? ORDER BY tool_name', [
      oldDay,
    ]),
    [
      { tool_name: 'Bash', calls: 1, failures: 1 },
      { tool_name: 'Edit', calls: 1, failures: 0 },
      { tool_name: 'Read', calls: 1, failures: 0 },
      { tool_name: 'Write', calls: 1, failures: 0 },
    ],
  );

  const digests = observationsOf('old');
  assert.equal(digests.length, 1);
  assert.equal(digests[0].source, 'digest');
  const digest = String(digests[0].text);
  assert.ok(digest.startsWith('Session of 2025-12-31'), digest);
  // The session's story: both asks, each changed file once, and the failure no run fixed.
  for (const kept of [
    'Asked: Refactor the tokenizer so quoted strings survive / Now fix the failing parser test',
    'Changed: src/quotes.ts (new), src/tokenizer.ts (1 edit)',
    'Still open: Tests failed: npm test',
  ])
    assert.ok(digest.includes(kept), `the digest keeps "${kept}": ${digest}`);
  const found = searchObservations(engine.store, { query: 'tokenizer' }).hits;
  assert.deepEqual(
    found.map((hit) => hit.source),
    ['digest'],
  );
  assert.equal(
    searchObservations(engine.store, { query: 'escapes' }).hits[0]?.source,
    'saved',
    'notes saved on purpose are kept as they are',
  );
  assertIndexAgrees(engine.store, 'after the fold');

  assert.equal(await engine.foldOldHistory(30), 0, 'the same day finds nothing more to fold');
});

test('calls the tool registry has not read are kept until it has', async () => {
  recordSessions();
  await engine.ingest();
  await engine.foldOldHistory(30);
  assert.equal(engine.store.number("SELECT count(*) FROM tool_calls WHERE session_id = 'old'"), 4);
  assert.equal(engine.store.number("SELECT count(*) FROM observations WHERE session_id = 'old'"), 1);
  discoverFromUse(engine);
  await engine.foldOldHistory(30, true);
  assert.equal(engine.store.number("SELECT count(*) FROM tool_calls WHERE session_id = 'old'"), 0);
  assert.equal(engine.store.number('SELECT sum(calls) FROM tool_days'), 4);
});

test('folded in slices or at once, the result is the same', async () => {
  recordSessions();
  await engine.ingest();
  discoverFromUse(engine);
  const other = tempWorkspace('cd-compaction-whole-');
  const whole = await ProjectEngine.open({ home: other.home, folder: other.project, role: 'writer' });
  try {
    const saved = ws;
    ws = other;
    recordSessions();
    ws = saved;
    await whole.ingest();
    discoverFromUse(whole);
    const before = detailCutoff(NOW, 30);
    let slices = 0;
    while (compactHistory(engine.store, before, 1).more) slices++;
    assert.ok(slices >= 4);
    assert.equal(compactHistory(whole.store, before).more, false);
    const folded = (of: ProjectEngine) => ({
      days: of.store.all('SELECT * FROM tool_days ORDER BY day, tool_name'),
      digests: of.store.all("SELECT session_id, type, text, at FROM observations WHERE source = 'digest'"),
    });
    assert.deepEqual(folded(engine), folded(whole));
  } finally {
    await whole.close();
    other.cleanup();
  }
});

test("a folded session's file read again (the session was resumed) adds only what is new", async () => {
  const claudeDir = path.join(path.dirname(ws.project), 'claude');
  const file = transcriptPath(claudeDir, ws.project, 'imported');
  const session = { sessionId: 'imported', cwd: ws.project };
  writeTranscript(file, [
    promptLine({ ...session, text: 'Rename the config loader', at: OLD }),
    ...toolTurnLines({
      ...session,
      turns: [
        { tool: 'Grep', input: { pattern: 'loadConfig' }, resultChars: 200, tokens: 20_000, at: OLD + 1000 },
        {
          tool: 'Edit',
          input: { file_path: 'src/config.ts' },
          resultChars: 50,
          tokens: 21_000,
          at: OLD + 5000,
        },
      ],
    }),
  ]);
  await importTranscripts(engine, { paths: [file] });
  discoverFromUse(engine);
  await engine.foldOldHistory(30);
  const folded = { counts: shown(), uses: uses(), digest: observationsOf('imported') };
  assert.equal(folded.counts.toolCalls, 2);
  assert.equal(folded.digest.length, 1);

  writeTranscript(file, [promptLine({ ...session, text: 'Continue with the tests', at: RECENT })]);
  // Read whole again, as a changed file of another agent is.
  await importTranscripts(engine, { paths: [file], force: true });
  discoverFromUse(engine);
  const after = shown();
  assert.equal(after.toolCalls, folded.counts.toolCalls, 'old calls are not added again');
  assert.equal(after.prompts, folded.counts.prompts + 1, 'the new prompt is');
  assert.deepEqual(uses(), folded.uses);
  const rows = observationsOf('imported');
  assert.deepEqual(rows.slice(0, 1), folded.digest);
  assert.equal(rows.length, 2);
  assert.match(String(rows[1].text), /Continue with the tests/);
});

test('a long session folds into a digest of at most 2,000 characters that begins with what was asked', async () => {
  appendEvents(
    ws.home,
    sessionEvents({
      sessionId: 'long',
      cwd: ws.project,
      startAt: OLD,
      prompts: ['Port the whole storage layer to the new page format'],
      tools: Array.from({ length: 40 }, (_, i) => ({
        tool: 'Write',
        input: { file_path: path.join(ws.project, 'src', 'storage', `pageFormatModule${i}.ts`) },
      })),
    }),
  );
  await engine.ingest();
  discoverFromUse(engine);
  await engine.foldOldHistory(30);
  const [digest] = observationsOf('long').map((row) => String(row.text));
  assert.ok(digest.length <= 2000, `${digest.length} characters`);
  // Each file once, the latest first, within the digest's bound.
  assert.match(
    digest,
    /Changed: src\/storage\/pageFormatModule39\.ts \(new\), src\/storage\/pageFormatModule38\.ts/,
  );
  assert.match(digest, /^Session of 2025-12-31 12:00Z: Asked: Port the whole storage layer/);
  assert.equal(engine.store.number("SELECT count(*) FROM memory_sessions WHERE session_id = 'long'"), 0);
});
