/** What the shipped CLI prints for names a repository chose: one visible line each, no escape byte raw. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { tempWorkspace } from '../support/events';
import { useShippedBundle } from '../support/shipped';

const shipped = useShippedBundle();

/** A skill folder name that clears the screen, retitles the terminal, starts a line and reverses its text. */
const HOSTILE = 'evil\u202egpj.exe\u001b[2J\u001b]0;pwned\u0007\r\nsecond\u0085line\u009b31m';

/** Bytes a terminal acts on rather than shows: controls other than the line feed, and reordering marks. */
// eslint-disable-next-line no-control-regex
const ACTED_ON = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

let ws: ReturnType<typeof tempWorkspace>;
beforeEach(() => {
  ws = tempWorkspace();
  const skill = path.join(ws.project, '.claude', 'skills', HOSTILE);
  fs.mkdirSync(skill, { recursive: true });
  fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\ndescription: a skill\n---\nDo things.\n');
});
afterEach(() => ws.cleanup());

function tools(...flags: string[]): string {
  const empty = path.join(ws.home, 'empty');
  fs.mkdirSync(empty, { recursive: true });
  const run = spawnSync(
    process.execPath,
    [
      shipped('cli'),
      'tools',
      '--home',
      ws.home,
      '--project',
      ws.project,
      '--user-home',
      empty,
      '--claude-dir',
      empty,
      ...flags,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stderr, ACTED_ON);
  return run.stdout;
}

test('tools: a skill name with escape sequences, line breaks and a bidi override is one visible row', () => {
  const out = tools();
  assert.doesNotMatch(out, ACTED_ON);
  const rows = out.split('\n').filter((line) => line.includes('evil'));
  assert.equal(rows.length, 1, out);
  assert.match(rows[0], /^active +evil gpj\.exe \[2J ]0;pwned second line 31m +skill +project /);
  assert.ok(
    !out.includes('second\n') && !out.startsWith('second'),
    "no row starts with the name's second line",
  );
});

test('tools --json: the exact name for programs, with hidden characters escaped rather than raw', () => {
  const out = tools('--json');
  assert.doesNotMatch(out, ACTED_ON);
  const skill = (JSON.parse(out) as Array<{ name: string }>).find((tool) => tool.name.startsWith('evil'));
  assert.equal(skill?.name, HOSTILE);
});
