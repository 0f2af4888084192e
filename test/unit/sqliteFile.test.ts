import assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import type BetterSqlite3 from 'better-sqlite3';
import {
  type Row,
  type SqlValue,
  type SqliteReadLimits,
  SqliteFile,
  SqliteFileError,
} from '../../src/engine/kernel/sqliteFile';
import { walDatabase } from '../support/walDatabase';

// A dev dependency with a native build: the tests write their databases the way SQLite itself does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Database = require('better-sqlite3') as typeof BetterSqlite3;

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-file-'));
  dirs.push(dir);
  return dir;
}

/** A deterministic stream of numbers in [0, 1), so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

/** better-sqlite3's values the way the reader gives them: integers as numbers when safe, blobs as Uint8Arrays. */
function normalized(value: unknown): SqlValue {
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value;
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  return value as SqlValue;
}

function sqlRows(db: BetterSqlite3.Database, sql: string, ...params: unknown[]): Row[] {
  const rows = db
    .prepare(sql)
    .safeIntegers(true)
    .all(...params) as Array<Record<string, unknown>>;
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([key, value]) => [key, normalized(value)])),
  );
}

async function collect(rows: AsyncIterable<Row>): Promise<Row[]> {
  const all: Row[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

async function withFile<T>(
  file: string,
  read: (db: SqliteFile) => Promise<T>,
  limits: SqliteReadLimits = {},
): Promise<T> {
  const db = await SqliteFile.open(file, limits);
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

function digest(file: string): string | undefined {
  return fs.existsSync(file)
    ? crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
    : undefined;
}

/** The tables of opencode's store (packages/opencode/src/session/session.sql.ts), trimmed. */
const OPENCODE_SCHEMA = `
CREATE TABLE \`session\` (
  \`id\` text PRIMARY KEY,
  \`project_id\` text NOT NULL,
  \`directory\` text NOT NULL,
  \`title\` text NOT NULL,
  \`cost\` real DEFAULT 0 NOT NULL,
  \`tokens_input\` integer DEFAULT 0 NOT NULL,
  \`metadata\` blob,
  \`time_created\` integer NOT NULL
);
CREATE TABLE \`message\` (
  \`id\` text PRIMARY KEY,
  \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL,
  \`time_updated\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_message_session_id_session_id_fk\` FOREIGN KEY (\`session_id\`) REFERENCES \`session\`(\`id\`) ON DELETE CASCADE
);
CREATE TABLE \`part\` (
  \`id\` text PRIMARY KEY,
  \`message_id\` text NOT NULL,
  \`session_id\` text NOT NULL,
  \`time_created\` integer NOT NULL,
  \`data\` text NOT NULL,
  CONSTRAINT \`fk_part_message_id_message_id_fk\` FOREIGN KEY (\`message_id\`) REFERENCES \`message\`(\`id\`) ON DELETE CASCADE
);
CREATE INDEX \`message_session_time_created_id_idx\` ON \`message\` (\`session_id\`,\`time_created\`,\`id\`);
CREATE INDEX \`part_message_id_id_idx\` ON \`part\` (\`message_id\`,\`id\`);
CREATE INDEX \`part_session_idx\` ON \`part\` (\`session_id\`);
`;

const sessionId = (n: number) => `ses_${String(n).padStart(4, '0')}`;
const messageId = (n: number) => `msg_${String(n).padStart(6, '0')}`;

/** Sessions, messages and parts in shuffled order, so each session's rows spread over the table. */
function fillOpencode(
  db: BetterSqlite3.Database,
  sizes: { messages: number; parts: number },
  seed = 1,
): void {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const sessions = 40;
  db.transaction(() => {
    const session = db.prepare('INSERT INTO session VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (let i = 0; i < sessions; i++)
      session.run(sessionId(i), `prj_${i % 3}`, `/work/p${i}`, `Session ${i} ✓`, i * 0.25, i * 1000, null, i);
    const message = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < sizes.messages; i++) {
      // Few distinct times: the index orders ties by id.
      const time = 1_700_000_000_000 + pick(50);
      message.run(
        messageId(i),
        sessionId(pick(sessions)),
        time,
        time + 5,
        JSON.stringify({ role: 'user', i }),
      );
    }
    const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < sizes.parts; i++) {
      const owner = pick(sizes.messages);
      // Every 500th part is 200 KB: an overflow chain of about 50 pages.
      const text = i % 500 === 7 ? `${i}:`.padEnd(200_000, 'long part ') : `part ${i} `.repeat(1 + pick(40));
      part.run(`prt_${String(i).padStart(6, '0')}`, messageId(owner), sessionId(owner % sessions), i, text);
    }
  })();
}

describe('SqliteFile reads what SQLite wrote', () => {
  test("opencode's tables: scans, index lookups and every value type equal SQLite's answers", async () => {
    const file = path.join(tempDir(), 'opencode.db');
    const db = new Database(file);
    try {
      db.exec(OPENCODE_SCHEMA);
      fillOpencode(db, { messages: 3000, parts: 6000 });
      // Names quoted every way SQLite allows, a table CHECK, an INTEGER PRIMARY KEY, and every storage class.
      db.exec(
        `CREATE TABLE "kinds" ([key] INTEGER PRIMARY KEY, "v", 'label' TEXT, CHECK (length(label) < 100))`,
      );
      const values: unknown[] = [
        null,
        ...[0, 1, -1, 127, -128, 255, 32767, -32768, 8388607, -8388608, 2147483647, -2147483648],
        ...[2 ** 40, -(2 ** 40), 2 ** 47 - 1, -(2 ** 47), Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER],
        ...[2n ** 53n + 1n, -(2n ** 63n), 2n ** 63n - 1n],
        ...[1.5, -2.25, 1e308, 5e-324, 0.1],
        ...['', 'plain', 'ünïcödé 😀 𝄞', '\uFEFFstarts with a BOM'],
        ...[Buffer.alloc(0), Buffer.from([0, 1, 2, 254, 255])],
      ];
      const kind = db.prepare('INSERT INTO kinds VALUES (?, ?, ?)');
      values.forEach((value, i) => kind.run(i + 1, value, `value ${i}`));
      kind.run(-5, 'negative rowid', 'n');
      kind.run(2n ** 62n, 'huge rowid', 'h');
      assert.ok(Number(db.pragma('page_count', { simple: true })) > 500, 'large enough for interior pages');

      await withFile(file, async (reader) => {
        assert.deepEqual(
          reader.schema(),
          sqlRows(
            db,
            'SELECT type, name, tbl_name AS tableName, rootpage AS rootPage, sql FROM sqlite_schema',
          ),
        );
        for (const table of ['session', 'message', 'part', 'kinds'])
          assert.deepEqual(
            await collect(reader.scan(table)),
            sqlRows(db, `SELECT * FROM ${table} ORDER BY rowid`),
            `scan of ${table}`,
          );

        const messagesOf = (...ids: string[]) =>
          sqlRows(
            db,
            `SELECT * FROM message WHERE session_id IN (${ids.map(() => '?').join()}) ORDER BY session_id, time_created, id`,
            ...ids,
          );
        assert.deepEqual(
          await collect(reader.rowsWhere('message', 'session_id', [sessionId(3)])),
          messagesOf(sessionId(3)),
        );
        assert.deepEqual(
          await collect(
            reader.rowsWhere('message', 'session_id', [
              sessionId(7),
              'ses_absent',
              sessionId(2),
              sessionId(7),
            ]),
          ),
          messagesOf(sessionId(7), sessionId(2)),
        );
        assert.deepEqual(
          await collect(reader.rowsWhere('message', 'session_id', ['ses_absent', 12, null])),
          [],
        );
        const beforeNothing = reader.pagesRead;
        assert.deepEqual(await collect(reader.rowsWhere('kinds', 'v', [])), []);
        assert.equal(reader.pagesRead, beforeNothing, 'no values: no scan');
        assert.deepEqual(
          await collect(
            reader.rowsWhere('part', 'message_id', [messageId(10), messageId(2999), messageId(0)]),
          ),
          sqlRows(
            db,
            'SELECT * FROM part WHERE message_id IN (?, ?, ?) ORDER BY message_id, id',
            messageId(10),
            messageId(2999),
            messageId(0),
          ),
        );
        assert.deepEqual(
          await collect(reader.rowsWhere('part', 'session_id', [sessionId(5)])),
          sqlRows(db, 'SELECT * FROM part WHERE session_id = ? ORDER BY rowid', sessionId(5)),
        );
        // The INTEGER PRIMARY KEY is the rowid: looked up in the table's own b-tree, in rowid order.
        assert.deepEqual(
          await collect(reader.rowsWhere('kinds', 'KEY', [2n ** 62n, 3, -5, 3.5, '3', 3])),
          sqlRows(db, 'SELECT * FROM kinds WHERE key IN (-5, 3, 4611686018427387904) ORDER BY key'),
        );
        // No index on v: a scan with a filter, in rowid order; null matches NULL, 1 matches no text '1'.
        assert.deepEqual(
          await collect(reader.rowsWhere('kinds', 'v', [1.5, 'plain', null, 2n ** 63n - 1n, 127])),
          sqlRows(
            db,
            "SELECT * FROM kinds WHERE v IN (1.5, 'plain', 9223372036854775807, 127) OR v IS NULL ORDER BY rowid",
          ),
        );
      });

      // Through the index a session's rows cost a fraction of the pages a scan reads.
      const viaIndex = await withFile(file, async (reader) => {
        const before = reader.pagesRead;
        await collect(reader.rowsWhere('part', 'session_id', [sessionId(5)]));
        return reader.pagesRead - before;
      });
      const viaScan = await withFile(file, async (reader) => {
        const before = reader.pagesRead;
        await collect(reader.scan('part'));
        return reader.pagesRead - before;
      });
      assert.ok(viaIndex * 2 < viaScan, `${viaIndex} pages through the index, ${viaScan} by a scan`);
    } finally {
      db.close();
    }
  });

  test('unknown tables and columns, and tables this reader does not read, are a SqliteFileError', async () => {
    const file = path.join(tempDir(), 'odd.db');
    const db = new Database(file);
    db.exec(`
      CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT);
      CREATE TABLE kv (k TEXT PRIMARY KEY, v) WITHOUT ROWID;
      CREATE TABLE g (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL, c TEXT);
      INSERT INTO kv VALUES ('k', 1);
      INSERT INTO g (a, c) VALUES (1, 'x');
    `);
    db.close();
    await withFile(file, async (reader) => {
      await assert.rejects(collect(reader.scan('missing')), (error) => error instanceof SqliteFileError);
      await assert.rejects(collect(reader.rowsWhere('t', 'nope', [1])), /has no column nope/);
      await assert.rejects(collect(reader.scan('kv')), /WITHOUT ROWID table: not supported/);
      await assert.rejects(collect(reader.scan('g')), /generated column/);
    });
  });

  for (const pageSize of [512, 65536]) {
    test(`page size ${pageSize}, with rows in the main file and in the WAL`, async () => {
      const file = path.join(tempDir(), 'sized.db');
      const db = new Database(file);
      try {
        db.pragma(`page_size = ${pageSize}`);
        db.exec(OPENCODE_SCHEMA);
        fillOpencode(db, { messages: 1500, parts: 2500 }, pageSize);
        db.pragma('journal_mode = WAL');
        db.pragma('wal_autocheckpoint = 0');
        db.exec(`UPDATE message SET data = data || '${'x'.repeat(300)}' WHERE rowid % 7 = 0`);
        db.exec('DELETE FROM part WHERE rowid % 5 = 0');
        assert.equal(db.pragma('page_size', { simple: true }), pageSize);
        assert.ok(fs.statSync(`${file}-wal`).size > 0);
        await withFile(file, async (reader) => {
          for (const table of ['message', 'part'])
            assert.deepEqual(
              await collect(reader.scan(table)),
              sqlRows(db, `SELECT * FROM ${table} ORDER BY rowid`),
            );
          assert.deepEqual(
            await collect(reader.rowsWhere('message', 'session_id', [sessionId(9), sessionId(1)])),
            sqlRows(
              db,
              'SELECT * FROM message WHERE session_id IN (?, ?) ORDER BY session_id, time_created, id',
              sessionId(9),
              sessionId(1),
            ),
          );
        });
      } finally {
        db.close();
      }
    });
  }

  test('columns added by ALTER TABLE read as their default in older rows', async () => {
    const file = path.join(tempDir(), 'altered.db');
    const db = new Database(file);
    try {
      // A column with REFERENCES and a default other than NULL can be added only without foreign keys.
      db.pragma('foreign_keys = OFF');
      db.exec(`
        CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT);
        INSERT INTO t (name) VALUES ('one'), ('two'), ('three');
        ALTER TABLE t ADD COLUMN score REAL DEFAULT 1.5;
        ALTER TABLE t ADD COLUMN note TEXT DEFAULT 'none';
        ALTER TABLE t ADD COLUMN flag INTEGER DEFAULT -3;
        ALTER TABLE t ADD COLUMN big INTEGER DEFAULT 9223372036854775807;
        ALTER TABLE t ADD COLUMN raw BLOB DEFAULT x'00ff';
        ALTER TABLE t ADD COLUMN extra TEXT;
        ALTER TABLE t ADD COLUMN ref INTEGER DEFAULT 5 REFERENCES t(id) ON DELETE SET DEFAULT;
        INSERT INTO t VALUES (10, 'four', 2.5, 'some', 7, 1, x'01', 'more', 6);
        INSERT INTO t (id, name, note) VALUES (11, 'five', 'none');
        CREATE INDEX t_note ON t (note);
      `);
      await withFile(file, async (reader) => {
        assert.deepEqual(await collect(reader.scan('t')), sqlRows(db, 'SELECT * FROM t ORDER BY rowid'));
        assert.deepEqual(
          await collect(reader.rowsWhere('t', 'note', ['none'])),
          sqlRows(db, "SELECT * FROM t WHERE note = 'none' ORDER BY note, rowid"),
        );
      });
    } finally {
      db.close();
    }
  });

  test('INTEGER PRIMARY KEY is the rowid, except as a column constraint with DESC', async () => {
    const file = path.join(tempDir(), 'keys.db');
    const db = new Database(file);
    try {
      db.exec(`
        CREATE TABLE descending (id INTEGER PRIMARY KEY DESC, v TEXT);
        CREATE TABLE declared_after (v TEXT, id INTEGER, PRIMARY KEY (id DESC));
        INSERT INTO descending VALUES (30, 'a'), (10, 'b'), (20, 'c');
        INSERT INTO declared_after VALUES ('a', 30), ('b', 10), ('c', 20);
      `);
      await withFile(file, async (reader) => {
        // Here id is an ordinary column with its own index: the rowids are 1, 2, 3.
        assert.deepEqual(
          await collect(reader.scan('descending')),
          sqlRows(db, 'SELECT * FROM descending ORDER BY rowid'),
        );
        assert.deepEqual(
          (await collect(reader.scan('declared_after'))).map((row) => row.id),
          [10, 20, 30],
        );
        assert.deepEqual(await collect(reader.rowsWhere('declared_after', 'id', [20])), [{ v: 'c', id: 20 }]);
      });
    } finally {
      db.close();
    }
  });

  for (const encoding of ['UTF-16le', 'UTF-16be']) {
    test(`a ${encoding} database`, async () => {
      const file = path.join(tempDir(), 'utf16.db');
      const db = new Database(file);
      try {
        db.pragma(`encoding = '${encoding}'`);
        db.exec(
          `CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, body TEXT);
           CREATE INDEX t_name ON t (name);
           CREATE INDEX t_body ON t (body);`,
        );
        const names = ['a', 'ünï', '😀 astral', '\uFEFFbom', 'ﬀ ligature', 'Z', ''];
        // Bodies up to 3 KB: index entries with overflow pages.
        const body = (i: number) => `${names[i % 3]} `.repeat(i);
        const insert = db.prepare('INSERT INTO t (name, body) VALUES (?, ?)');
        db.transaction(() => {
          for (let i = 0; i < 400; i++) insert.run(names[i % names.length], body(i));
        })();
        await withFile(file, async (reader) => {
          assert.deepEqual(await collect(reader.scan('t')), sqlRows(db, 'SELECT * FROM t ORDER BY rowid'));
          // Binary order of UTF-16 text is the order of its bytes, which is no code point order.
          assert.deepEqual(
            await collect(reader.rowsWhere('t', 'name', ['😀 astral', 'ﬀ ligature', 'a', 'absent', ''])),
            sqlRows(
              db,
              "SELECT * FROM t WHERE name IN ('😀 astral', 'ﬀ ligature', 'a', '') ORDER BY name, rowid",
            ),
          );
          assert.deepEqual(
            await collect(reader.rowsWhere('t', 'body', [body(399), body(5), body(398), body(250)])),
            sqlRows(
              db,
              'SELECT * FROM t WHERE body IN (?, ?, ?, ?) ORDER BY body',
              body(399),
              body(5),
              body(398),
              body(250),
            ),
          );
        });
      } finally {
        db.close();
      }
    });
  }

  test('indexes that cannot answer the lookup (partial, NOCASE) are passed over; a DESC index is read in its order', async () => {
    const file = path.join(tempDir(), 'indexes.db');
    const db = new Database(file);
    try {
      db.exec(`
        CREATE TABLE plain (id INTEGER PRIMARY KEY, tag TEXT, n INTEGER);
        CREATE INDEX plain_partial ON plain (n) WHERE n > 5;
        CREATE INDEX plain_nocase ON plain (tag COLLATE NOCASE);
        CREATE TABLE ranked (id INTEGER PRIMARY KEY, rank INTEGER, label TEXT);
        CREATE INDEX ranked_desc ON ranked (rank DESC, label);
      `);
      const next = random(7);
      const tags = ['a', 'B', 'c', 'D', 'e', 'F'];
      const plain = db.prepare('INSERT INTO plain (tag, n) VALUES (?, ?)');
      const ranked = db.prepare('INSERT INTO ranked (rank, label) VALUES (?, ?)');
      db.transaction(() => {
        for (let i = 0; i < 600; i++) {
          plain.run(tags[i % tags.length], i % 10);
          ranked.run(Math.floor(next() * 10), `label ${Math.floor(next() * 1000)}`);
        }
      })();
      await withFile(file, async (reader) => {
        // Not in the partial index: only a scan finds them.
        assert.deepEqual(
          await collect(reader.rowsWhere('plain', 'n', [1, 7])),
          sqlRows(db, 'SELECT * FROM plain WHERE n IN (1, 7) ORDER BY rowid'),
        );
        // In NOCASE order, a binary search for 'D' would stop at 'c'.
        assert.deepEqual(
          await collect(reader.rowsWhere('plain', 'tag', ['D', 'a'])),
          sqlRows(db, "SELECT * FROM plain WHERE tag IN ('D', 'a') ORDER BY rowid"),
        );
        assert.deepEqual(
          await collect(reader.rowsWhere('ranked', 'rank', [3, 1, 8])),
          sqlRows(db, 'SELECT * FROM ranked WHERE rank IN (3, 1, 8) ORDER BY rank DESC, label, rowid'),
        );
      });
    } finally {
      db.close();
    }
  });
});

describe('SqliteFile and the WAL', () => {
  test('rows inserted, updated and deleted since the last checkpoint are read, and nothing is written', async () => {
    const dir = tempDir();
    const { file, db } = walDatabase(dir);
    try {
      db.exec(OPENCODE_SCHEMA);
      fillOpencode(db, { messages: 1000, parts: 1500 });
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec(`
        INSERT INTO message SELECT id || '_again', session_id, time_created + 1, time_updated, data FROM message WHERE rowid % 3 = 0;
        UPDATE message SET data = data || '${'y'.repeat(500)}' WHERE rowid % 4 = 0;
        DELETE FROM part WHERE rowid % 3 = 1;
      `);
      const expected = {
        message: sqlRows(db, 'SELECT * FROM message ORDER BY rowid'),
        part: sqlRows(db, 'SELECT * FROM part ORDER BY rowid'),
        ofSession: sqlRows(
          db,
          'SELECT * FROM message WHERE session_id = ? ORDER BY session_id, time_created, id',
          sessionId(4),
        ),
      };
      // The reader's own copy, without the -shm of the open connection: reading must not create one.
      const copy = path.join(tempDir(), 'opencode.db');
      fs.copyFileSync(file, copy);
      fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
      const files = [file, `${file}-wal`, `${file}-shm`, copy, `${copy}-wal`];
      const before = files.map(digest);
      for (const target of [file, copy])
        await withFile(target, async (reader) => {
          assert.deepEqual(await collect(reader.scan('message')), expected.message);
          assert.deepEqual(await collect(reader.scan('part')), expected.part);
          assert.deepEqual(
            await collect(reader.rowsWhere('message', 'session_id', [sessionId(4)])),
            expected.ofSession,
          );
        });
      assert.deepEqual(files.map(digest), before);
      assert.equal(fs.existsSync(`${copy}-shm`), false);
      // The main file alone is the state of the checkpoint: the WAL's rows were needed.
      fs.rmSync(`${copy}-wal`);
      const mainOnly = await withFile(copy, (reader) => collect(reader.scan('message')));
      assert.equal(mainOnly.length, 1000);
    } finally {
      db.close();
    }
  });

  test('an uncommitted transaction, a torn frame and a bad checksum are left out', async () => {
    const { file, db } = walDatabase(tempDir());
    let states: Row[][];
    let walA: Buffer;
    let walB: Buffer;
    let main: Buffer;
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    try {
      db.exec(
        'CREATE TABLE t (id INTEGER PRIMARY KEY, session TEXT, body TEXT); CREATE INDEX t_session ON t (session)',
      );
      const insert = db.prepare('INSERT INTO t (session, body) VALUES (?, ?)');
      db.transaction(() => {
        for (let i = 0; i < 50; i++) insert.run(`s${i % 4}`, `a${i}`);
      })();
      const stateA = sqlRows(db, 'SELECT * FROM t ORDER BY rowid');
      walA = fs.readFileSync(`${file}-wal`);
      // A second transaction spanning many frames.
      db.transaction(() => {
        for (let i = 0; i < 40; i++) insert.run(`s${i % 4}`, `b${i} `.repeat(400));
        db.exec("UPDATE t SET body = 'changed' WHERE id < 10");
      })();
      states = [stateA, sqlRows(db, 'SELECT * FROM t ORDER BY rowid')];
      walB = fs.readFileSync(`${file}-wal`);
      main = fs.readFileSync(file);
    } finally {
      db.close();
    }
    const frame = 24 + pageSize;
    assert.ok(walB.length >= walA.length + 3 * frame, 'the second transaction spans several frames');
    const flipped = Buffer.from(walB);
    flipped[walA.length + 24 + 100] ^= 0xff;
    const cases: Array<[string, Buffer, Row[]]> = [
      ['the whole WAL', walB, states[1]],
      ['a frame torn in the middle', walB.subarray(0, walA.length + frame + 100), states[0]],
      ['a transaction without its commit frame', walB.subarray(0, walB.length - frame), states[0]],
      ['a frame whose checksum fails', flipped, states[0]],
    ];
    for (const [name, wal, expected] of cases) {
      const copy = path.join(tempDir(), 'opencode.db');
      fs.writeFileSync(copy, main);
      fs.writeFileSync(`${copy}-wal`, wal);
      await withFile(copy, async (reader) => {
        assert.deepEqual(await collect(reader.scan('t')), expected, name);
        assert.deepEqual(
          await collect(reader.rowsWhere('t', 'session', ['s1'])),
          expected.filter((row) => row.session === 's1'),
          name,
        );
      });
    }
  });

  test('a WAL rewritten after opening is detected, not mixed in', async () => {
    const { file, db } = walDatabase(tempDir());
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
      db.prepare('INSERT INTO t (body) VALUES (?)').run('in the WAL');
      const copy = path.join(tempDir(), 'opencode.db');
      fs.copyFileSync(file, copy);
      const wal = fs.readFileSync(`${file}-wal`);
      fs.writeFileSync(`${copy}-wal`, wal);
      await withFile(
        copy,
        async (reader) => {
          // As a checkpoint's restart does: the frames are overwritten in place.
          fs.writeFileSync(
            `${copy}-wal`,
            Buffer.concat([wal.subarray(0, 32), Buffer.alloc(wal.length - 32)]),
          );
          await assert.rejects(collect(reader.scan('t')), /changed while reading/);
        },
        { maxPagesCached: 0 },
      );
    } finally {
      db.close();
    }
  });
});

describe('SqliteFile on hostile files', () => {
  /** A table of 2000 rows (an interior root), closed so that everything is in the main file. */
  function bigTable(dir: string): { file: string; root: number; pageSize: number } {
    const file = path.join(dir, 'big.db');
    const db = new Database(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`row ${i} `.repeat(30));
    })();
    const root = Number(db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 't'").pluck().get());
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    return { file, root, pageSize };
  }

  function patched(file: string, patch: (bytes: Buffer) => void): string {
    const copy = path.join(tempDir(), 'patched.db');
    const bytes = fs.readFileSync(file);
    patch(bytes);
    fs.writeFileSync(copy, bytes);
    return copy;
  }

  async function readAll(file: string, limits: SqliteReadLimits = {}): Promise<number> {
    return withFile(
      file,
      async (reader) => {
        let rows = 0;
        for (const entry of reader.schema())
          if (entry.type === 'table') rows += (await collect(reader.scan(entry.name))).length;
        return rows;
      },
      limits,
    );
  }

  test('a row over maxRowBytes is skipped and counted, without reading its overflow chain', async () => {
    const file = path.join(tempDir(), 'large-row.db');
    const db = new Database(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
    db.prepare('INSERT INTO t VALUES (?, ?)').run(1, 'small');
    db.prepare('INSERT INTO t VALUES (?, ?)').run(2, 'x'.repeat(300_000));
    db.prepare('INSERT INTO t VALUES (?, ?)').run(3, 'small too');
    db.close();

    await withFile(
      file,
      async (reader) => {
        assert.deepEqual(
          (await collect(reader.scan('t'))).map((row) => row.id),
          [1, 3],
        );
        assert.equal(reader.skippedRows, 1);
        // Page 1 (the schema) and the table's one leaf, not the 70-odd pages of the chain.
        assert.ok(reader.pagesRead <= 2, `${reader.pagesRead} pages read`);
        assert.deepEqual(await collect(reader.rowsWhere('t', 'id', [2, 3])), [{ id: 3, body: 'small too' }]);
        assert.equal(reader.skippedRows, 2);
        assert.ok(reader.pagesRead <= 2, `${reader.pagesRead} pages read`);
      },
      { maxRowBytes: 100_000 },
    );
    // The same read without the limit follows the chain: the count above is the chain left unread.
    await withFile(file, async (reader) => {
      assert.equal((await collect(reader.scan('t')))[1].body, 'x'.repeat(300_000));
      assert.equal(reader.skippedRows, 0);
      assert.ok(reader.pagesRead > 70, `${reader.pagesRead} pages read`);
    });
  });

  test(
    'an interior page whose child is itself, or past the end, is an error, not a hang',
    { timeout: 10_000 },
    async () => {
      const { file, root, pageSize } = bigTable(tempDir());
      const at = (root - 1) * pageSize;
      // Where the root's first cell, and so its first child pointer, is in the file.
      const firstChild = (bytes: Buffer) => {
        assert.equal(bytes[at], 0x05, 'the root is an interior table page');
        return at + bytes.readUInt16BE(at + 12);
      };
      const looping = patched(file, (bytes) => bytes.writeUInt32BE(root, firstChild(bytes)));
      // No cache: a loop would go through real reads, so the test's timeout could fire.
      await assert.rejects(readAll(looping, { maxPagesCached: 0 }), new RegExp(`page ${root} appears twice`));
      await assert.rejects(
        withFile(looping, (reader) => collect(reader.rowsWhere('t', 'id', [1])), { maxPagesCached: 0 }),
        /loops at page/,
      );
      const pastEnd = patched(file, (bytes) => bytes.writeUInt32BE(0x00ffffff, firstChild(bytes)));
      await assert.rejects(readAll(pastEnd), /page 16777215, referenced from page \d+, is not among/);
      const pageZero = patched(file, (bytes) => bytes.writeUInt32BE(0, at + 8));
      await assert.rejects(readAll(pageZero), /page 0/);
      assert.equal(await readAll(file), 2000);
    },
  );

  test('a b-tree deeper than 64 levels is an error', async () => {
    const { file, root, pageSize } = bigTable(tempDir());
    const pageCount = fs.statSync(file).size / pageSize;
    const chain = Array.from({ length: pageCount }, (_, i) => i + 1).filter(
      (page) => page > 1 && page !== root,
    );
    assert.ok(chain.length > 70);
    // Interior pages without cells, each with only a right child: the next page of the chain.
    const interior = (bytes: Buffer, page: number, child: number) => {
      const at = (page - 1) * pageSize;
      bytes.fill(0, at, at + 12);
      bytes[at] = 0x05;
      bytes.writeUInt16BE(pageSize % 65536, at + 5);
      bytes.writeUInt32BE(child, at + 8);
    };
    const deep = patched(file, (bytes) => {
      interior(bytes, root, chain[0]);
      for (let i = 0; i < 70; i++) interior(bytes, chain[i], chain[i + 1]);
    });
    await assert.rejects(readAll(deep), /deeper than 64 levels/);
  });

  test('an overflow chain that loops, ends early or runs long is an error', async () => {
    const file = path.join(tempDir(), 'overflow.db');
    const db = new Database(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)');
    db.prepare('INSERT INTO t VALUES (1, ?)').run(crypto.randomBytes(20_000));
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    // A fresh file: the schema, the table's leaf, then the chain in order up to the last page.
    const lastPage = fs.statSync(file).size / pageSize;
    const nextOf = (bytes: Buffer, page: number) => bytes.readUInt32BE((page - 1) * pageSize);
    const bytes = fs.readFileSync(file);
    assert.equal(nextOf(bytes, 3), 4);
    assert.equal(nextOf(bytes, lastPage), 0);
    const setNext = (page: number, next: number) =>
      patched(file, (copy) => copy.writeUInt32BE(next, (page - 1) * pageSize));
    await assert.rejects(readAll(setNext(4, 3)), /loops back to page 3/);
    await assert.rejects(readAll(setNext(4, 0)), /ends after \d+ of its \d+ bytes/);
    await assert.rejects(readAll(setNext(lastPage, 2)), /is longer than its \d+ bytes need/);
    assert.equal(await readAll(file), 1);
  });

  test('a truncated file, a file that is no database, an empty file and a folder are errors', async () => {
    const { file } = bigTable(tempDir());
    const dir = tempDir();
    const half = path.join(dir, 'half.db');
    fs.writeFileSync(half, fs.readFileSync(file).subarray(0, fs.statSync(file).size / 2));
    await assert.rejects(
      readAll(half),
      (error) => error instanceof SqliteFileError && /not among/.test(error.message),
    );
    const stub = path.join(dir, 'stub.db');
    fs.writeFileSync(stub, fs.readFileSync(file).subarray(0, 60));
    await assert.rejects(readAll(stub), /not a SQLite database/);
    const text = path.join(dir, 'notes.db');
    fs.writeFileSync(text, 'These are notes, not a database.\n'.repeat(200));
    await assert.rejects(readAll(text), /not a SQLite database/);
    const empty = path.join(dir, 'empty.db');
    fs.writeFileSync(empty, '');
    await assert.rejects(readAll(empty), /empty/);
    await assert.rejects(readAll(dir), /is a folder, not a regular file/);
  });
});

describe('SqliteFile reads one session of a large store in a few pages', () => {
  test('a session of a ~200 MB database through its index', async () => {
    const file = path.join(tempDir(), 'large.db');
    const db = new Database(file);
    const sessions = 100;
    try {
      db.exec(OPENCODE_SCHEMA);
      // Parts of messages this test does not write.
      db.pragma('foreign_keys = OFF');
      const next = random(3);
      const part = db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?)');
      const filler = 'tool output '.repeat(300);
      db.transaction(() => {
        for (let i = 0; i < 60_000; i++) {
          const session = sessionId(Math.floor(next() * sessions));
          part.run(`prt_${String(i).padStart(6, '0')}`, `msg_${i >> 3}`, session, i, `${i} ${filler}`);
        }
      })();
      const pageSize = Number(db.pragma('page_size', { simple: true }));
      const pageCount = Number(db.pragma('page_count', { simple: true }));
      assert.ok(pageCount * pageSize > 190_000_000, `${pageCount * pageSize} bytes`);
      const expected = sqlRows(db, 'SELECT * FROM part WHERE session_id = ? ORDER BY rowid', sessionId(42));
      await withFile(file, async (reader) => {
        const rows = await collect(reader.rowsWhere('part', 'session_id', [sessionId(42)]));
        assert.deepEqual(rows, expected);
        // About one page per row, plus the index: a few percent of the file.
        assert.ok(
          reader.pagesRead < pageCount / 20,
          `${reader.pagesRead} of ${pageCount} pages read for ${rows.length} rows`,
        );
      });
    } finally {
      db.close();
    }
  });
});
