/**
 * The sql.js warm-up worker's entry (bundled as dist/sqlWarmUpWorker.js; see warmUpSqlJs in sqlJs.ts): runs
 * the kinds of statement the extension host runs first, on the host's own compiled module, so that their
 * code is compiled before the host needs it. What it writes is thrown away.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { latestModel } from '../memory/sessions';
import { memoryCounts } from '../memory/stats';
import { searchObservations } from '../memory/search';
import { rankTools } from '../registry/ranking';
import { migrate } from '../storage/schema';
import { sqlJsOn } from '../kernel/sqlJs';
import { Store } from '../storage/store';

const { module } = workerData as { module: WebAssembly.Module };

void sqlJsOn(module).then((SQL) => {
  const store = new Store(new SQL.Database());
  migrate(store.db);
  // Reads as the views make them (planner, grouping, sorting, full-text search) and writes of each kind.
  rankTools({ store: store });
  memoryCounts(store);
  latestModel(store);
  searchObservations(store, { query: 'warm up' });
  store.db.exec(
    `CREATE TEMP TABLE warm (id INTEGER PRIMARY KEY, name TEXT UNIQUE, uses INTEGER);
     INSERT INTO warm (name, uses) VALUES ('a', 1) ON CONFLICT (name) DO UPDATE SET uses = uses + 1;
     UPDATE warm SET uses = uses + 1 WHERE name = 'a';
     DELETE FROM warm WHERE uses > 1;`,
  );
  store.close();
  parentPort?.postMessage('warm');
});
