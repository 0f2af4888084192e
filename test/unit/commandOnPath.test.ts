import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import { agentTraces } from '../../src/engine/agents';
import { findOnPath } from '../../src/engine/agents/commandOnPath';

describe('a command on PATH', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'command-on-path-'));
  after(() => fs.rmSync(root, { recursive: true, force: true }));
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  const empty = path.join(root, 'project');
  fs.mkdirSync(empty);

  test('a folder of the command’s name is no trace of the agent; an executable file is', () => {
    fs.mkdirSync(path.join(bin, 'codex'));
    assert.deepEqual(agentTraces('codex', empty, empty, { PATH: bin }), []);
    fs.writeFileSync(path.join(bin, 'opencode'), '#!/bin/sh\n', { mode: 0o755 });
    assert.deepEqual(agentTraces('opencode', empty, empty, { PATH: bin }), [path.join(bin, 'opencode')]);
  });

  test('on Windows the command is found as .exe or .cmd, on Path as well as PATH', () => {
    fs.writeFileSync(path.join(bin, 'claude.cmd'), '@echo off\n', { mode: 0o755 });
    assert.equal(findOnPath('claude', { Path: bin }, 'win32'), path.join(bin, 'claude.cmd'));
    assert.equal(findOnPath('claude', { PATH: bin }, 'linux'), undefined);
  });
});
