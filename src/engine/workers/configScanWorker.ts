/** The config scan worker's entry (bundled as dist/configScanWorker.js): see scanOffThread.ts. */
import { parentPort, workerData } from 'node:worker_threads';
import { type ScanOptions, scanConfigs } from '../registry/configScan';

parentPort?.postMessage(scanConfigs(workerData as ScanOptions));
