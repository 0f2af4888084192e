/**
 * Session files that are bombs, damaged or huge, beside good ones where _Import Agent History_ looks: each
 * file is imported or reported on its own, a bomb is refused after a bounded number of bytes with bounded
 * memory, and the import runs in the catch-up process, not on the extension host's thread. The bombs are
 * built byte by byte as RFC 8878 frames: 64 KB of run-length blocks decompress to 2 GiB.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { codexSessions } from '../../src/engine/agents/codex/rolloutFiles';
import { SESSION_LIMITS, readSessionHead, readSessionLines } from '../../src/engine/agents/sessionBytes';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { importTranscripts } from '../../src/engine/transcripts';
import { useBundle } from '../support/bundle';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';
import { largeOpencodeStore } from '../support/walDatabase';
import { toolTurnLines, transcriptPath, writeTranscript } from '../support/transcripts';

const ROLLOUT = path.join(
  FIXTURES_DIR,
  'codex',
  'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.excerpt.jsonl',
);
const ROLLOUT_CWD = '/Users/Sample_User/repos/codemie-ai/codemie-code';
const GOOD_ID = '019e1625-789d-76c0-80ab-3724b5ddb799';
const BOMB_ID = '019e1625-0000-7000-8000-00000000b0b0';
const MIB = 1024 * 1024;
/** The bound for the 76 KB bomb. */
const PEAK_BOUND = 800 * MIB;

const script = useBundle({
  catchUpProcess: 'src/engine/workers/catchUpProcess.ts',
  parseWorker: 'src/engine/workers/parseWorker.ts',
});

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const BLOCK = 128 * 1024;

function blockHeader(type: 'raw' | 'rle', size: number, last: boolean): Buffer {
  const header = (size << 3) | ((type === 'rle' ? 1 : 0) << 1) | (last ? 1 : 0);
  return Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]);
}

/**
 * One zstd frame: `text` stored as raw blocks, then `runs` run-length blocks of 128 KiB of `byte`. The
 * header's window is 128 KiB unless `header` says otherwise.
 */
function frame(text: string, byte: number, runs: number, header = Buffer.from([0x00, 0x38])): Buffer {
  const parts: Buffer[] = [ZSTD_MAGIC, header];
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += BLOCK) {
    const piece = bytes.subarray(at, at + BLOCK);
    parts.push(blockHeader('raw', piece.length, runs === 0 && at + BLOCK >= bytes.length), piece);
  }
  for (let i = 0; i < runs; i++) parts.push(blockHeader('rle', BLOCK, i === runs - 1), Buffer.from([byte]));
  return Buffer.concat(parts);
}

let ws: ReturnType<typeof tempWorkspace>;
let codexHome: string;
let dataHome: string;
const engines: ProjectEngine[] = [];
/** Where each agent keeps its files, inside the test's folder (the import process inherits them). */
const AGENT_HOMES = ['HOME', 'CODEX_HOME', 'XDG_DATA_HOME', 'CLAUDE_CONFIG_DIR'] as const;
const savedEnv = Object.fromEntries(AGENT_HOMES.map((name) => [name, process.env[name]]));
beforeEach(() => {
  ws = tempWorkspace('cd-bombs-');
  const root = path.dirname(ws.home);
  codexHome = path.join(root, 'codex');
  dataHome = path.join(root, 'data');
  Object.assign(process.env, {
    HOME: root,
    CODEX_HOME: codexHome,
    XDG_DATA_HOME: dataHome,
    CLAUDE_CONFIG_DIR: path.join(root, 'claude'),
  });
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const name of AGENT_HOMES)
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  ws.cleanup();
});

/** The real rollout, recorded in this project's folder (and under another session id when asked). */
function rolloutText(sessionId = GOOD_ID): string {
  return fs.readFileSync(ROLLOUT, 'utf8').replaceAll(ROLLOUT_CWD, ws.project).replaceAll(GOOD_ID, sessionId);
}

function writeRollout(name: string, content: string | Buffer): string {
  const dir = path.join(codexHome, 'sessions', '2026', '05', '11');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** A cold rollout whose first line names this project and whose rest is 2 GiB of zeros: 86 KB on disk. */
function zeroBomb(): string {
  const meta = rolloutText(BOMB_ID).split('\n')[0] + '\n';
  return writeRollout(
    `rollout-2026-05-11T12-00-00-${BOMB_ID}.jsonl.zst`,
    frame(meta, 0, (2048 * MIB) / BLOCK),
  );
}

async function openWriter(): Promise<ProjectEngine> {
  const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
  engines.push(engine);
  return engine;
}

describe('bombs and damaged session files', () => {
  test('a rollout of under 100 KB that decompresses to 2 GiB is refused after 256 MiB, in the import process, and the good rollout beside it is imported', async () => {
    const bomb = zeroBomb();
    assert.ok(fs.statSync(bomb).size < 100 * 1024);
    writeRollout(`rollout-2026-05-11T11-26-55-${GOOD_ID}.jsonl`, rolloutText());
    const engine = await openWriter();
    const result = await engine.importInChild(script('catchUpProcess'), {}).then(
      (imported) => imported,
      (error: Error) => assert.fail(`the import failed as a whole: ${error.message}`),
    );
    assert.equal(result.files, 1, 'the good rollout is read');
    assert.ok(result.toolCalls > 0 && result.sessions > 0);
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0], new RegExp(`${BOMB_ID}.*more than 256 MiB of text`));
    assert.ok(result.peakRssBytes < PEAK_BOUND, `peak ${Math.round(result.peakRssBytes / MIB)} MiB`);
    // The host adopted what the process saved: its own engine reads the rows.
    assert.equal(
      engine.store.number('SELECT count(*) FROM sessions WHERE id = ?', [GOOD_ID]),
      1,
      'the good session is in the database the host now holds',
    );
  });

  test('a frame that declares a 2 GiB single segment, or a window of 2 TiB, is refused before anything is decoded', () => {
    const meta = rolloutText(BOMB_ID).split('\n')[0] + '\n';
    // Single segment, 8-byte content size of 2 GiB: a decoder would set 2 GiB aside for it.
    const size = Buffer.alloc(8);
    size.writeBigUInt64LE(2n * 1024n * 1024n * 1024n);
    const segment = writeRollout(
      'rollout-segment.jsonl.zst',
      frame(meta, 0, 1, Buffer.from([0xe0, ...size])),
    );
    assert.throws(() => readSessionLines(segment, () => undefined), /decompresses to more than 256 MiB/);
    // Window descriptor exponent 31: 2^41 bytes.
    const window = writeRollout('rollout-window.jsonl.zst', frame(meta, 0, 1, Buffer.from([0x00, 31 << 3])));
    assert.throws(() => readSessionLines(window, () => undefined), /asks for a 2097152 MiB window/);
    assert.throws(() => readSessionHead(window, 100), /window/);
  });

  test('a rollout of empty lines stops at the line bound; a line too long to keep is skipped and counted', async () => {
    const newlines = writeRollout('rollout-lines.jsonl.zst', frame('', 0x0a, 64));
    assert.throws(() => readSessionLines(newlines, () => undefined), /more than 1000000 lines/);
    // 40 MiB of one line between good lines: the good ones are read, the long one is a skipped line.
    const lines = rolloutText().split('\n');
    const file = writeRollout(
      `rollout-2026-05-11T11-26-55-${GOOD_ID}.jsonl.zst`,
      Buffer.concat([
        frame(lines[0] + '\n', 0x61, (40 * MIB) / BLOCK),
        frame('\n' + lines.slice(1).join('\n'), 0, 0),
      ]),
    );
    const plain = await codexSessions.read(ROLLOUT);
    const read = await codexSessions.read(file);
    assert.equal(read.skipped, plain.skipped + 1);
    assert.equal(read.items.length, plain.items.length);
    assert.ok(SESSION_LIMITS.lineBytes < 40 * MIB);
  });

  test("a damaged opencode database and a damaged rollout are reported; every other file, Claude Code's too, is imported", async () => {
    writeRollout(`rollout-2026-05-11T11-26-55-${GOOD_ID}.jsonl`, rolloutText());
    const claudeSession = 'claude-beside-a-bad-store';
    writeTranscript(
      transcriptPath(process.env.CLAUDE_CONFIG_DIR!, ws.project, claudeSession),
      toolTurnLines({
        sessionId: claudeSession,
        cwd: ws.project,
        turns: [
          {
            tool: 'Read',
            input: { file_path: 'a.ts' },
            resultChars: 40,
            tokens: 1000,
            at: Date.parse('2026-05-11T12:00:00Z'),
          },
        ],
      }),
    );
    fs.mkdirSync(path.join(dataHome, 'opencode'), { recursive: true });
    const database = path.join(dataHome, 'opencode', 'opencode.db');
    fs.writeFileSync(database, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(8192, 0xa5)]));
    // Its first lines name this project; a later frame is cut short.
    const meta = rolloutText(BOMB_ID).split('\n')[0] + '\n';
    const damaged = writeRollout(
      `rollout-2026-05-11T12-00-00-${BOMB_ID}.jsonl.zst`,
      Buffer.concat([frame(meta, 0x20, 40), frame('more', 0, 2).subarray(0, -2)]),
    );
    const engine = await openWriter();
    const result = await importTranscripts(engine);
    assert.equal(result.files, 2, 'the rollout and the transcript');
    assert.ok(result.toolCalls > 1);
    assert.equal(engine.store.number('SELECT count(*) FROM sessions WHERE id = ?', [claudeSession]), 1);
    assert.equal(result.problems.length, 2, result.problems.join('\n'));
    assert.ok(result.problems.some((problem) => problem.startsWith(`${damaged}: cannot be read (cut short`)));
    assert.ok(result.problems.some((problem) => problem.startsWith(`${database}: cannot be read`)));
  });
});

describe("opencode's store of every project's sessions", () => {
  test("a 300 MB store costs the import process less memory than its size: only this project's rows are read", async () => {
    fs.mkdirSync(path.join(dataHome, 'opencode'), { recursive: true });
    // Other projects' sessions: the bulk of the store, none of this project's.
    const file = largeOpencodeStore(path.join(dataHome, 'opencode'), ws.project, 200);
    const size = fs.statSync(file).size;
    assert.ok(size > 300 * MIB, `${Math.round(size / MIB)} MiB`);
    const result = await (await openWriter()).importInChild(script('catchUpProcess'));
    assert.deepEqual(result.problems, []);
    assert.equal(result.sessions, 1, 'the one session of this project');
    assert.equal(result.toolCalls, 1);
    assert.ok(result.peakRssBytes < size, `peak ${Math.round(result.peakRssBytes / MIB)} MiB`);
  });
});
