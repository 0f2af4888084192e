/**
 * sql.js inserting the same rows bare (bareInsert.ts) in a fresh process, started as the ingest's process is
 * (ingestWorker.ts): what the reference costs without a benchmark process's warm code. Prints one JSON line.
 */
import * as fs from 'node:fs';
import * as v8 from 'node:v8';
import { bundledScript } from '../src/engine/kernel/bundledScript';
import { ProjectEngine } from '../src/engine/project/projectEngine';
import { type Rows, sqlJsInsertMs } from './bareInsert';

async function main(): Promise<void> {
  const [rowsFile, batch] = process.argv.slice(2);
  const warmUpWorker = bundledScript('sqlWarmUpWorker.js');
  if (warmUpWorker) await ProjectEngine.warmUp(warmUpWorker);
  const rows = v8.deserialize(fs.readFileSync(rowsFile)) as Rows;
  process.stdout.write(`${JSON.stringify({ insertMs: await sqlJsInsertMs(rows, Number(batch)) })}\n`);
}

void main();
