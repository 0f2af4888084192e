/**
 * A new database's schema is built a statement at a time with the extension host free between statements (run
 * at once, it held the host 100-350 ms), and ends exactly as the one-go migration does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MIGRATIONS, migrate, migrateInSteps, schemaVersion } from '../../src/engine/storage/schema';
import { loadSqlJs } from '../../src/engine/storage/sqlJs';

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
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    migrate(db);
    // The last migration half done by hand: its first index is missing, its second exists. It fails part way.
    db.exec(`DROP INDEX sessions_by_last_event; PRAGMA user_version = ${MIGRATIONS.length - 1}`);
    const before = schemaOf(db);
    await assert.rejects(
      migrateInSteps(db, () => Promise.resolve()),
      /already exists/,
    );
    assert.equal(schemaVersion(db), MIGRATIONS.length - 1);
    assert.deepEqual(schemaOf(db), before, 'the index its first statement made is rolled back');
  } finally {
    db.close();
  }
});
