import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { resolveId, saveToMemory, setForgotten } from '../../src/engine/memory';
import { resolveHome } from '../../src/engine/kernel/paths';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { ProjectEngine, TYPING_PAUSE_MS } from '../../src/engine/project/projectEngine';
import { MIGRATIONS, schemaVersion } from '../../src/engine/storage/schema';
import { requestSave, saveIfRequested } from '../../src/engine/storage/writerLock';
import { appendEvents, sessionEvents, tempWorkspace } from '../support/events';

let ws: ReturnType<typeof tempWorkspace>;
const engines: ProjectEngine[] = [];

async function open(extra: Partial<Parameters<typeof ProjectEngine.open>[0]> = {}) {
  const engine = await ProjectEngine.open({
    home: ws.home,
    folder: ws.project,
    saveDebounceMs: 10,
    ...extra,
  });
  engines.push(engine);
  return engine;
}

function seed(sessions: number, from = 0) {
  for (let i = from; i < from + sessions; i++) {
    appendEvents(
      ws.home,
      sessionEvents({
        sessionId: `s${i}`,
        cwd: ws.project,
        startAt: 1e12 + i * 1e6,
        tools: [{ tool: 'Read' }],
      }),
    );
  }
}

beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  ws.cleanup();
});

describe('snapshot', () => {
  test('is saved atomically, survives a restart, and prepared statements work after each save', async () => {
    seed(3);
    const engine = await open();
    await engine.ingest();
    await engine.save();
    const bytes = fs.statSync(engine.snapshotPath).size;
    assert.ok(bytes > 0);
    assert.equal(engine.counts().dbBytes, bytes);
    // Statements prepared before the export still answer.
    assert.equal(engine.counts().events, 9);
    seed(1, 3);
    await engine.ingest();
    await engine.save();
    assert.equal(engine.counts().events, 12);
    assert.deepEqual(
      fs.readdirSync(path.dirname(engine.snapshotPath)).filter((name) => name.includes('.tmp-')),
      [],
      'no temp files are left behind',
    );
    await engine.close();
    engines.pop();
    const reopened = await open();
    assert.equal(reopened.counts().events, 12);
    assert.equal(schemaVersion(reopened.store.db), MIGRATIONS.length);
  });

  for (const [name, damage] of [
    ['garbage bytes', (file: string) => fs.writeFileSync(file, 'this is not a database at all'.repeat(200))],
    ['a torn page', (file: string) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2) + 7)],
    [
      'flipped bytes inside a page',
      (file: string) => {
        const bytes = fs.readFileSync(file);
        for (let i = 4096; i < bytes.length; i += 97) bytes[i] ^= 0x5a;
        fs.writeFileSync(file, bytes);
      },
    ],
  ] as const) {
    test(`damaged by ${name}: set aside, warned about, and rebuilt from the event log`, async () => {
      seed(4);
      const first = await open();
      await first.ingest();
      await first.close();
      engines.pop();
      damage(first.snapshotPath);

      const engine = await open();
      assert.equal(engine.warnings.length, 1, engine.warnings.join('\n'));
      assert.match(engine.warnings[0], /damaged .* rebuilt from the event log/);
      const asideFiles = fs
        .readdirSync(path.dirname(engine.snapshotPath))
        .filter((file) => file.includes('.damaged-'));
      assert.equal(asideFiles.length, 1, 'the damaged file is kept for inspection');
      await engine.ingest();
      assert.deepEqual(
        { ...engine.counts(), dbBytes: 0 },
        {
          events: 12,
          rejected: 0,
          sessions: 4,
          toolCalls: 4,
          toolFailures: 0,
          prompts: 0,
          agents: { 'claude-code': 12 },
          dbBytes: 0,
        },
      );
    });
  }

  test('a due save waits for a pause in the user’s typing, then saves', async () => {
    let typedAt = Date.now();
    const saves: number[] = [];
    const engine = await open({
      role: 'writer',
      lastInputAt: () => typedAt,
      onSaved: () => saves.push(Date.now()),
    });
    seed(2);
    const typing = setInterval(() => (typedAt = Date.now()), 100);
    try {
      await engine.ingest();
      // Far past the 10 ms debounce: the save keeps waiting while keys are pressed.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(saves.length, 0, 'no save while the user types');
    } finally {
      clearInterval(typing);
    }
    const stoppedAt = typedAt;
    for (let waited = 0; saves.length === 0 && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(saves.length, 1, 'saved once typing paused');
    assert.ok(saves[0] - stoppedAt >= TYPING_PAUSE_MS, 'after a pause in typing, not at the next key');
    const reader = await open({ role: 'reader' });
    assert.equal(reader.counts().events, engine.counts().events);
  });

  test('a snapshot from a newer schema is set aside rather than misread', async () => {
    seed(1);
    const first = await open();
    await first.ingest();
    first.store.db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 5}`);
    await first.rebuild(); // marks dirty: write something
    first.store.db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 5}`);
    await first.close();
    engines.pop();
    const engine = await open();
    assert.match(engine.warnings.join(), /newer than this version/);
    await engine.ingest();
    assert.equal(engine.counts().events, 3);
  });
});

describe('single writer', () => {
  test('a second opener follows read-only and sees the writer’s saves', async () => {
    seed(2);
    const writer = await open({ purpose: 'window A' });
    const reader = await open({ purpose: 'window B' });
    assert.equal(writer.role, 'writer');
    assert.equal(reader.role, 'reader');
    assert.equal((await reader.ingest()).events, 0, 'readers never ingest');
    await writer.ingest();
    await writer.save();
    assert.equal(await reader.reloadIfChanged(), true);
    assert.equal(reader.counts().events, 6);
    assert.equal(await reader.reloadIfChanged(), false, 'nothing new, no reload');
    await assert.rejects(reader.rebuild(), /only the window that writes/);
  });

  test('the reader takes over when the writer closes', async () => {
    seed(1);
    const writer = await open();
    const reader = await open();
    assert.equal(await reader.tryPromote(), false);
    await writer.ingest();
    await writer.close();
    assert.equal(await reader.tryPromote(), true);
    assert.equal(reader.role, 'writer');
    assert.equal(reader.counts().events, 3, 'it starts from the writer’s last snapshot');
    seed(1, 1);
    await reader.ingest();
    assert.equal(reader.counts().events, 6);
  });

  test('a lock left by a dead process is recovered', async () => {
    const identity = identifyProject(ws.project);
    const lockPath = path.join(ws.home, 'projects', identity.id, 'writer.lock');
    fs.mkdirSync(path.dirname(lockPath), { recursive: true });
    // A pid that certainly is dead: a child that already exited.
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    fs.writeFileSync(
      lockPath,
      JSON.stringify({ pid: Number(dead), hostname: os.hostname(), since: 1, purpose: 'crashed' }),
    );
    const engine = await open();
    assert.equal(engine.role, 'writer');
  });

  test('a follower’s forget shows there as soon as the writer has ingested it, not after the save debounce', async () => {
    const writer = await open({ purpose: 'window A', saveDebounceMs: 60_000 });
    const follower = await open({ purpose: 'window B' });
    const target = { home: ws.home, root: writer.identity.mainRoot };
    const saved = saveToMemory(target, {
      text: 'We retry the API 3 times',
      type: 'decision',
      origin: 'vscode',
    });
    await writer.ingest();
    await writer.save();
    await follower.reloadIfChanged();
    assert.ok(resolveId(follower.store, saved.id).ok);

    // The follower's side (LiveProject.applyChange), then the writer's ingest pass (LiveProject.runIngest).
    requestSave(follower.lockPath);
    setForgotten(target, [saved.id], true, 'vscode');
    assert.ok((await writer.ingest()).bytes > 0);
    assert.equal(await saveIfRequested(writer), true);
    assert.equal(await follower.reloadIfChanged(), true);
    assert.equal(resolveId(follower.store, saved.id).ok, false, 'forgotten in the follower too');

    // Without a request the writer keeps its debounce (a minute here): the follower would wait for it.
    setForgotten(target, [saved.id], false, 'vscode');
    assert.ok((await writer.ingest()).bytes > 0);
    assert.equal(await saveIfRequested(writer), false, 'one request, one save');
    assert.equal(await follower.reloadIfChanged(), false);
  });

  test('a live lock holder is respected and named when writing is demanded', async () => {
    await open({ purpose: 'VS Code window' });
    await assert.rejects(open({ role: 'writer' }), /VS Code window, pid \d+/);
  });
});

describe('project identity and home', () => {
  test('linked git worktrees map to their main worktree', () => {
    const repo = path.join(ws.project, 'repo');
    fs.mkdirSync(repo);
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const linked = path.join(ws.project, 'linked');
    assert.equal(git('worktree', 'add', '-q', linked).status, 0);
    const main = identifyProject(repo);
    const other = identifyProject(linked);
    assert.equal(other.id, main.id);
    assert.equal(other.mainRoot, fs.realpathSync(repo));
    assert.ok(
      main.roots.includes(fs.realpathSync(linked)),
      'the main worktree also routes its linked worktrees',
    );
  });

  test('home: setting beats CONTEXT_DECK_HOME beats ~/.context-deck', () => {
    assert.equal(resolveHome('/a/b', { CONTEXT_DECK_HOME: '/c' }), '/a/b');
    assert.equal(resolveHome('', { CONTEXT_DECK_HOME: '/c' }), '/c');
    assert.equal(resolveHome(undefined, {}), path.join(os.homedir(), '.context-deck'));
    assert.equal(resolveHome('~/x', {}), path.join(os.homedir(), 'x'));
  });
});
