/**
 * Writing another tool's settings file for real: backups under Context Deck's home, the file's mode and
 * symlinks kept, the file replaced atomically unless that would split a hard link.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { writeSettingsWithBackup } from '../../src/engine/agents/jsoncEdit';
import { tempWorkspace } from '../support/events';

const BEFORE = '{\n  "env": { "API_TOKEN": "secret" }\n}\n';
const AFTER = '{\n  "env": { "API_TOKEN": "secret" },\n  "hooks": {}\n}\n';

let ws: ReturnType<typeof tempWorkspace>;
let claudeDir: string;
let file: string;

beforeEach(() => {
  ws = tempWorkspace('cd-settings-write-');
  claudeDir = path.join(ws.project, '.claude');
  file = path.join(claudeDir, 'settings.json');
  fs.mkdirSync(claudeDir);
});
afterEach(() => ws.cleanup());

const modeOf = (target: string) => fs.statSync(target).mode & 0o777;

describe('writing a settings file', () => {
  test('the backup goes under Context Deck’s home, not beside the file', () => {
    fs.writeFileSync(file, BEFORE);
    const backup = writeSettingsWithBackup(file, AFTER, ws.home, Date.parse('2026-05-01T10:20:30.456Z'));
    assert.equal(backup, path.join(ws.home, 'backups', '2026-05-01T10-20-30-456Z-settings.json'));
    assert.equal(fs.readFileSync(backup, 'utf8'), BEFORE);
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER);
    assert.deepEqual(fs.readdirSync(claudeDir), ['settings.json'], 'nothing else lands in .claude/');
  });

  test('a file keeps its mode (0600 stays 0600, so does its backup); a new file gets the umask’s default', () => {
    fs.writeFileSync(file, BEFORE, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    const backup = writeSettingsWithBackup(file, AFTER, ws.home)!;
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(backup), 0o600);

    const previous = process.umask(0o027);
    try {
      fs.chmodSync(file, 0o664); // Bits the umask would take from a new file.
      writeSettingsWithBackup(file, BEFORE, ws.home);
      assert.equal(modeOf(file), 0o664);
      const created = path.join(claudeDir, 'settings.local.json');
      assert.equal(writeSettingsWithBackup(created, AFTER, ws.home), undefined);
      assert.equal(modeOf(created), 0o640);
    } finally {
      process.umask(previous);
    }
  });

  test('a symlinked settings file is written through to its target and stays a symlink', () => {
    const dotfiles = path.join(ws.home, '..', 'dotfiles');
    fs.mkdirSync(dotfiles);
    const target = path.join(dotfiles, 'claude-settings.json');
    fs.writeFileSync(target, BEFORE, { mode: 0o600 });
    fs.chmodSync(target, 0o600);
    fs.symlinkSync('../../dotfiles/claude-settings.json', file);

    const backup = writeSettingsWithBackup(file, AFTER, ws.home)!;
    assert.ok(fs.lstatSync(file).isSymbolicLink());
    assert.equal(fs.readlinkSync(file), '../../dotfiles/claude-settings.json');
    assert.equal(fs.readFileSync(target, 'utf8'), AFTER);
    assert.equal(modeOf(target), 0o600);
    assert.equal(fs.readFileSync(backup, 'utf8'), BEFORE);
    assert.deepEqual(fs.readdirSync(dotfiles), ['claude-settings.json'], 'no temp file left behind');

    // A link whose target doesn't exist yet: the target is created, the link kept.
    const local = path.join(claudeDir, 'settings.local.json');
    fs.symlinkSync(path.join(dotfiles, 'local.json'), local);
    writeSettingsWithBackup(local, AFTER, ws.home);
    assert.ok(fs.lstatSync(local).isSymbolicLink());
    assert.equal(fs.readFileSync(path.join(dotfiles, 'local.json'), 'utf8'), AFTER);
  });

  test('the file is replaced by a rename, except a hard link, which is rewritten in place', () => {
    fs.writeFileSync(file, BEFORE);
    const inode = fs.statSync(file).ino;
    writeSettingsWithBackup(file, AFTER, ws.home);
    assert.notEqual(fs.statSync(file).ino, inode, 'a new file renamed over the old one');
    assert.deepEqual(fs.readdirSync(claudeDir), ['settings.json'], 'no temp file left behind');

    const other = path.join(ws.home, '..', 'shared-settings.json');
    fs.linkSync(file, other);
    writeSettingsWithBackup(file, BEFORE, ws.home);
    assert.equal(fs.readFileSync(other, 'utf8'), BEFORE, 'both names still show the same file');
    assert.equal(fs.statSync(file).ino, fs.statSync(other).ino);
  });
});
