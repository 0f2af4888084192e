/**
 * What the next session is told, checked on real whole sessions: the five Claude Code 2.1.39 sessions of one
 * project in test/fixtures/claude-code-sessions/marot-spotter-sessions/ (952 tool calls, 45 failed results,
 * one compaction each), imported as Import Agent History imports them, read back as SessionStart hands them
 * over, fresh and again 45 days later.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assembleSessionContext } from '../../src/engine/context/sessionContextAssembly';
import { ProjectEngine } from '../../src/engine/project/projectEngine';
import { importTranscripts } from '../../src/engine/transcripts';
import { FIXTURES_DIR, tempWorkspace } from '../support/events';

const SESSIONS = path.join(FIXTURES_DIR, 'claude-code-sessions', 'marot-spotter-sessions');
const DAY = 86_400_000;
/** What Claude Code writes as user lines of its own in these sessions. */
const SYSTEM_TEXT = [
  '<task-notification>',
  '<command-',
  '<local-command',
  '<system-reminder>',
  '[Request interrupted',
  'This session is being continued',
];

let ws: ReturnType<typeof tempWorkspace>;
let engine: ProjectEngine;
let now = Date.parse('2026-03-01T00:00:00Z');
let fresh = '';

function section(context: string, title: string): string {
  return new RegExp(`## ${title}\\n[\\s\\S]*?(?=\\n\\n|$)`).exec(context)?.[0] ?? '';
}

before(async () => {
  ws = tempWorkspace('cd-real-sessions-');
  engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer', now: () => now });
  const files = fs.readdirSync(SESSIONS).map((name) => path.join(SESSIONS, name));
  await importTranscripts(engine, { paths: files });
  now = engine.store.number('SELECT max(last_event_at) FROM sessions') + 3_600_000;
  fresh = assembleSessionContext(engine, { now }).text;
});
after(async () => {
  await engine.close();
  ws.cleanup();
});

describe('five real Claude Code sessions, told to the next session', () => {
  test('no system text, and what is the user’s is only what the user typed', () => {
    const prompts = engine.store.all('SELECT text FROM prompts').map((row) => String(row.text));
    assert.ok(prompts.length >= 5, prompts.join('\n'));
    for (const marker of SYSTEM_TEXT) {
      assert.ok(!fresh.includes(marker), `${marker} in:\n${fresh}`);
      assert.ok(!prompts.some((text) => text.includes(marker)), `${marker} counted as a prompt`);
    }
  });

  test('no compaction as a decision or a finding', () => {
    assert.doesNotMatch(section(fresh, 'Active Decisions'), /compact/i);
    assert.doesNotMatch(section(fresh, 'Recent Findings'), /compacted/i);
  });

  test('no failure shown open after the same check passed', () => {
    const fixed = engine.store
      .all("SELECT text FROM observations WHERE resolved_at IS NOT NULL AND source <> 'digest'")
      .map((row) => String(row.text).slice(0, 60));
    assert.ok(fixed.length >= 3, `${fixed.length} failures were fixed later in these sessions`);
    for (const text of fixed) assert.ok(!fresh.includes(text.replace(/"/g, "'")), `fixed, yet told: ${text}`);
  });

  test('no call that never ran or that the user declined, and no failed look-up, is told as open', () => {
    // In the sessions: failed results that say the call never ran.
    const results = fs
      .readdirSync(SESSIONS)
      .flatMap((name) => fs.readFileSync(path.join(SESSIONS, name), 'utf8').split('\n'))
      .filter((line) => line.includes('"tool_result"'))
      .flatMap((line) => {
        const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
        return Array.isArray(content) ? (content as unknown[]) : [];
      })
      .filter((part): part is { is_error: true; content: string } => {
        const result = part as { type?: string; is_error?: boolean; content?: unknown };
        return (
          result.type === 'tool_result' && result.is_error === true && typeof result.content === 'string'
        );
      })
      .map((result) => result.content);
    assert.ok(results.some((text) => text.startsWith('<tool_use_error>Sibling tool call errored')));
    assert.ok(results.some((text) => text.startsWith("The user doesn't want to proceed")));
    assert.ok(results.some((text) => text.includes('File does not exist')));
    // No use of a tool and no failure of it.
    assert.equal(
      engine.store.number(
        "SELECT count(*) FROM tool_calls WHERE error LIKE '%Sibling tool call errored%' OR error LIKE 'The user doesn''t want%'",
      ),
      0,
    );
    // Every session's story, not only the one told last: what it remembers, and what it holds open.
    const remembered = engine.store.all('SELECT text, open_key FROM observations');
    const neverRan = remembered.filter((row) =>
      /Sibling tool call errored|doesn't want to/.test(String(row.text)),
    );
    assert.deepEqual(neverRan, []);
    const openLookUps = remembered.filter(
      (row) => row.open_key !== null && /^(?:Read|Glob|Grep|TaskOutput) failed/.test(String(row.text)),
    );
    assert.deepEqual(openLookUps, []);
    assert.doesNotMatch(fresh, /Sibling tool call errored|doesn't want to proceed/, fresh);
    assert.doesNotMatch(/^Still open: .*$/m.exec(fresh)?.[0] ?? '', /(?:Read|Glob|Grep) failed/, fresh);
  });

  test('each changed file on one line', () => {
    const changed = /^Changed: (.*)$/m.exec(section(fresh, 'Previous Session'))?.[1] ?? '';
    const files = [...changed.matchAll(/"([^"(]+) \(/g)].map((match) => match[1]);
    assert.ok(files.length > 0, fresh);
    assert.equal(new Set(files).size, files.length, changed);
    const recent = section(fresh, 'Recent Changes').split('\n').slice(1);
    const named = recent.map(
      (line) => /"(?:Created|Rewrote|Modified(?: notebook)?) ([^:(]+?)[:( ]/.exec(line)?.[1],
    );
    assert.equal(new Set(named).size, named.length, recent.join('\n'));
  });

  test("the agent's final report and what its compaction summary left pending are carried", () => {
    const previous = section(fresh, 'Previous Session');
    assert.match(previous, /^Reported: \[agent\] "/m, fresh);
    assert.match(previous, /^Pending as of \d\d:\d\d UTC.*: \[agent\] "/m, fresh);
    assert.ok(fresh.length <= 6000);
  });

  test('45 days later, folded into digests, the previous session is told the same way', async () => {
    now += 45 * DAY;
    while ((await engine.foldOldHistory(30)) > 0);
    assert.equal(engine.store.number("SELECT count(*) FROM observations WHERE source <> 'digest'"), 0);
    const folded = assembleSessionContext(engine, { now }).text;
    const story = (text: string) => section(text, 'Previous Session').split('\n').slice(2).join('\n');
    assert.ok(story(folded).length > 300, folded);
    assert.equal(story(folded), story(fresh));
  });
});

describe('after a real compaction, the session that continues', () => {
  /** Each session as it stood when it compacted: its lines up to the compact boundary. */
  const cut = (name: string): { file: string; at: number } => {
    const lines = fs.readFileSync(path.join(SESSIONS, name), 'utf8').split('\n');
    const boundary = lines.findIndex((line) => line.includes('"subtype":"compact_boundary"'));
    const file = path.join(ws.home, name);
    fs.writeFileSync(file, `${lines.slice(0, boundary).join('\n')}\n`);
    return { file, at: Date.parse(JSON.parse(lines[boundary]).timestamp) };
  };

  for (const name of fs.readdirSync(SESSIONS)) {
    test(`${name.slice(0, 8)}: every ask and every file in flight, and not the previous session again`, async () => {
      ws = tempWorkspace('cd-real-continuation-');
      const { file, at } = cut(name);
      now = at + 60_000;
      engine = await ProjectEngine.open({
        home: ws.home,
        folder: ws.project,
        role: 'writer',
        now: () => now,
      });
      try {
        await importTranscripts(engine, { paths: [file] });
        const { continuation } = assembleSessionContext(engine, { now });
        assert.ok(continuation, 'the live session has a continuation');
        assert.match(continuation, /^## This Session Before the Compaction$/m);
        assert.doesNotMatch(continuation, /## Previous Session|Reported:|Pending as of/);
        for (const marker of SYSTEM_TEXT) assert.ok(!continuation.includes(marker), marker);
        const asks = engine.store.all("SELECT text FROM observations WHERE source = 'prompt'");
        for (const { text } of asks.slice(0, 3))
          assert.ok(
            continuation.includes(
              String(text)
                .replace(/^Asked: /, '')
                .slice(0, 60),
            ),
            String(text),
          );
        // Each file changed before the compaction, as one entry of its own ("path (n edits)").
        const files = engine.store.all("SELECT DISTINCT file FROM observations WHERE source = 'change'");
        assert.ok(files.length > 0);
        for (const { file: changed } of files)
          assert.ok(continuation.includes(`"${String(changed)} (`), `${String(changed)} in flight`);
        assert.ok(continuation.length <= 6000);
      } finally {
        await engine.close();
        ws.cleanup();
      }
    });
  }
});
