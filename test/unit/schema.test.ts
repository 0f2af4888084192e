/**
 * A new database's schema, and an older one's upgrade, are built a statement at a time with the extension host
 * free between statements (run at once, they held the host 100-350 ms), and end exactly as the one-go
 * migration does.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { projectStateDir } from '../../src/engine/kernel/paths';
import { ProjectEngine, SNAPSHOT_FILE } from '../../src/engine/project/projectEngine';
import { identifyProject } from '../../src/engine/kernel/projectIdentity';
import { MIGRATIONS, migrate, migrateInSteps, schemaVersion } from '../../src/engine/storage/schema';
import { loadSqlJs } from '../../src/engine/kernel/sqlJs';
import { tempWorkspace } from '../support/events';
import { databaseBefore } from '../support/oldSchema';

const schemaOf = (db: { exec(sql: string): Array<{ values: unknown[][] }> }) =>
  db.exec('SELECT type, name, sql FROM sqlite_schema ORDER BY name')[0]?.values;

test('the schema built a statement at a time equals the one built at once, and the host runs between', async () => {
  const SQL = await loadSqlJs();
  const atOnce = new SQL.Database();
  const inSteps = new SQL.Database();
  try {
    migrate(atOnce);
    let pauses = 0;
    let timerRan = 0;
    // A timer due now stands for the host's other work: it must run during the migration, not after it.
    const timer = setInterval(() => timerRan++, 0);
    await migrateInSteps(inSteps, async () => {
      pauses++;
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    clearInterval(timer);
    assert.deepEqual(schemaOf(inSteps), schemaOf(atOnce));
    assert.equal(schemaVersion(inSteps), MIGRATIONS.length);
    // More pauses than migrations: statements, not migrations, are the steps.
    assert.ok(pauses > MIGRATIONS.length * 2, `${pauses} pauses for ${MIGRATIONS.length} migrations`);
    assert.ok(timerRan > 10, `the host ran ${timerRan} times meanwhile`);
    // A database already current takes no step.
    await migrateInSteps(inSteps, () => assert.fail('no statement to run'));
  } finally {
    atOnce.close();
    inSteps.close();
  }
});

test('a failed statement rolls its migration back and the version stays where it was', async () => {
  // The migration that adds log_files' last_line_len, then seen_size, half done by hand: its first column is
  // missing, its second exists. It fails part way.
  const db = await databaseBefore('last_line_len');
  const version = schemaVersion(db);
  try {
    db.exec('ALTER TABLE log_files ADD COLUMN seen_size INTEGER NOT NULL DEFAULT -1');
    const before = schemaOf(db);
    await assert.rejects(
      migrateInSteps(db, () => Promise.resolve()),
      /duplicate column/,
    );
    assert.equal(schemaVersion(db), version);
    assert.deepEqual(schemaOf(db), before, 'the column its first statement made is rolled back');
  } finally {
    db.close();
  }
});

test('a saved database of the version before opens brought up to date, its rows kept', async () => {
  const ws = tempWorkspace();
  try {
    const old = await databaseBefore('sessions_by_last_event');
    old.run(
      `INSERT INTO sessions (id, started_at, last_event_at, ended_at) VALUES ('kept', 1000, 2000, 2000)`,
    );
    const dir = projectStateDir(ws.home, identifyProject(ws.project).id);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, SNAPSHOT_FILE), old.export());
    old.close();
    const engine = await ProjectEngine.open({ home: ws.home, folder: ws.project, role: 'writer' });
    try {
      assert.equal(schemaVersion(engine.store.db), MIGRATIONS.length);
      assert.equal(engine.store.number("SELECT count(*) FROM sessions WHERE id = 'kept'"), 1);
      assert.ok(
        engine.store.get("SELECT 1 AS found FROM sqlite_schema WHERE name = 'sessions_by_last_event'"),
      );
      assert.deepEqual(engine.warnings, [], 'nothing was set aside');
    } finally {
      await engine.close();
    }
  } finally {
    ws.cleanup();
  }
});

test('an upgrade drops the rows an earlier scan kept for VS Code’s servers under Claude Code’s names, and only those', async () => {
  const db = await databaseBefore('.vscode/mcp.json');
  try {
    const insert = db.prepare(
      `INSERT INTO tool_registry (name, scope, type, origin, source, status, discovered_at, updated_at)
       VALUES (?, 'project', ?, ?, ?, ?, 1, 1)`,
    );
    const rows: Array<[string, string, string, string, string]> = [
      // The rows of before: a VS Code server under Claude Code's name, stale beside the new one.
      ['mcp__stdio-mcp__*', 'mcp_server', 'config', '/repo/.vscode/mcp.json', 'stale'],
      ['mcp__remote__*', 'mcp_server', 'config', 'C:\\repo\\.vscode\\mcp.json', 'active'],
      // Rows that stay: VS Code's own name, Claude Code's servers, a tool seen in use.
      ['mcp_stdio-mcp_*', 'mcp_server', 'config', '/repo/.vscode/mcp.json', 'active'],
      ['mcp__api-server__*', 'mcp_server', 'config', '/repo/.mcp.json', 'active'],
      ['mcp__stdio-mcp__search', 'mcp_tool', 'discovered', '/repo/.vscode/mcp.json', 'active'],
    ];
    for (const row of rows) insert.run(row);
    insert.free();
    migrate(db);
    const names = db.exec('SELECT name FROM tool_registry ORDER BY name')[0]?.values.map(([name]) => name);
    assert.deepEqual(names, ['mcp__api-server__*', 'mcp__stdio-mcp__search', 'mcp_stdio-mcp_*']);
  } finally {
    db.close();
  }
});
