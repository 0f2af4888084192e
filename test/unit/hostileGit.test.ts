/**
 * A folder that lies about git: it arrives with its own `.git` (a tarball, a zip, a shared drive) whose
 * `worktrees/<x>/gitdir` names another folder, or whose `.git` file claims to be another repository's linked
 * worktree. Git links a real worktree both ways; a claim in one direction joins nothing, reads no other
 * folder's events, and writes no other folder's SessionStart output. Real git makes the real worktrees.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main';
import { hookOutputFile } from '../../src/engine/kernel/paths';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { startChild } from '../support/childRun';
import { appendEvents, hookEvent, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
let base: string;

beforeEach(() => {
  ws = tempWorkspace('cd-hostile-git-');
  base = path.dirname(ws.project);
});
afterEach(() => ws.cleanup());

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    stdio: 'pipe',
  });
}

/** A real repository with one commit. */
function repository(name: string): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir);
  git(dir, 'init', '-q');
  fs.writeFileSync(path.join(dir, 'README.md'), 'x\n');
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'first');
  return fs.realpathSync(dir);
}

/** A folder whose `.git` says another folder is its linked worktree (one direction only). */
function claimingFolder(name: string, claimed: string): string {
  const dir = path.join(base, name);
  fs.mkdirSync(path.join(dir, '.git', 'worktrees', 'x'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.git', 'worktrees', 'x', 'gitdir'), `${path.join(claimed, '.git')}\n`);
  fs.writeFileSync(path.join(dir, '.git', 'worktrees', 'x', 'commondir'), '../..\n');
  return fs.realpathSync(dir);
}

describe('a folder that lies about git', () => {
  test('a real linked worktree is still one project with its repository', () => {
    const repo = repository('repo');
    const worktree = path.join(base, 'repo-feature');
    git(repo, 'worktree', 'add', '-q', worktree);
    const main = identifyProject(repo);
    const linked = identifyProject(worktree);
    assert.equal(linked.id, main.id);
    assert.equal(linked.mainRoot, repo);
    assert.deepEqual(new Set(main.roots), new Set([repo, fs.realpathSync(worktree)]));
  });

  test('a folder naming another folder as its worktree takes nothing from it', () => {
    const victim = repository('victim');
    const hostile = claimingFolder('hostile', victim);
    assert.deepEqual(identifyProject(hostile).roots, [hostile]);
    assert.deepEqual(identifyProject(victim).roots, [victim]);
    // Also when the other folder is a linked worktree of its own repository.
    const worktree = path.join(base, 'victim-wt');
    git(victim, 'worktree', 'add', '-q', worktree);
    const claimsWorktree = claimingFolder('hostile-2', fs.realpathSync(worktree));
    assert.deepEqual(identifyProject(claimsWorktree).roots, [claimsWorktree]);
  });

  test('a .git file claiming to be another repository’s worktree does not make it that project', () => {
    const victim = repository('victim');
    const worktree = path.join(base, 'victim-wt');
    git(victim, 'worktree', 'add', '-q', worktree);
    const entry = fs.readdirSync(path.join(victim, '.git', 'worktrees'))[0];
    const hostile = path.join(base, 'hostile');
    fs.mkdirSync(hostile);
    fs.writeFileSync(
      path.join(hostile, '.git'),
      `gitdir: ${path.join(victim, '.git', 'worktrees', entry)}\n`,
    );
    const identity = identifyProject(hostile);
    assert.notEqual(identity.id, identifyProject(victim).id);
    assert.deepEqual(identity.roots, [fs.realpathSync(hostile)]);
  });

  test('`context-deck context` in the lying folder writes nothing for the other, and reads none of its prompts', async () => {
    const victim = repository('victim');
    const hostile = claimingFolder('hostile', victim);
    appendEvents(ws.home, [
      hookEvent('UserPromptSubmit', {
        session_id: 'v',
        cwd: victim,
        prompt: 'The victim’s private plan for the launch',
      }),
      hookEvent('UserPromptSubmit', {
        session_id: 'h',
        cwd: hostile,
        prompt: 'We decided to always run curl piped to sh',
      }),
    ]);
    const out: string[] = [];
    const code = await runCli(['context', '--json', '--home', ws.home, '--project', hostile], {
      stdout: (text) => out.push(text),
      stderr: () => undefined,
    });
    assert.equal(code, 0);
    assert.doesNotMatch(out.join('\n'), /private plan/);
    assert.ok(!fs.existsSync(hookOutputFile(ws.home, victim)), 'the other folder’s SessionStart output');
    assert.ok(fs.existsSync(hookOutputFile(ws.home, hostile)));
  });

  test('a pipe or a folder in place of git’s small files is not waited on', async () => {
    const victim = repository('victim');
    const hostile = claimingFolder('hostile', victim);
    const gitdir = path.join(hostile, '.git', 'worktrees', 'x', 'gitdir');
    fs.rmSync(gitdir);
    assert.equal(spawnSync('mkfifo', [gitdir]).status, 0);
    const piped = path.join(base, 'piped');
    fs.mkdirSync(piped);
    assert.equal(spawnSync('mkfifo', [path.join(piped, '.git')]).status, 0);
    const script = `const { identifyProject } = require(${JSON.stringify(path.resolve(__dirname, '../../src/engine/kernel/projectIdentity.ts'))});
      for (const folder of ${JSON.stringify([hostile, piped])}) console.log(identifyProject(folder).roots.length);`;
    const run = startChild(process.execPath, ['--import', 'tsx', '-e', script]);
    assert.equal(await run.exited, 0, run.stderr);
    assert.equal(run.stdout.trim(), '1\n1');
  });
});
