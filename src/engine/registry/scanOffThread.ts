/**
 * The config scan on a worker thread, for the extension host: a repository's files are read bounded (see
 * boundedRead.ts), and on top of that the host's thread never waits on them. A scan that has not answered
 * after SCAN_TIMEOUT_MS is abandoned as a scan of nothing, which keeps every tool as it was, with a
 * problem saying so. Without the worker's script beside the bundle (running from source) the scan runs on
 * the caller's thread.
 */
import { Worker } from 'node:worker_threads';
import { bundledScript } from '../kernel/bundledScript';
import { type ScanOptions, scanConfigs } from './configScan';
import { configLocations } from '../agents/configLocations';
import type { ConfigScan } from '../agents/toolTypes';

/** Far beyond a real scan (milliseconds); only a file system that stops answering gets here. */
const SCAN_TIMEOUT_MS = 20_000;

/** What an abandoned scan stands for: no scope read, so no tool can be found removed. */
function abandoned(options: ScanOptions, message: string): ConfigScan {
  const locations = configLocations(options);
  return {
    entries: [],
    problems: [{ file: locations.projectRoot, message }],
    scopes: [],
    projectRoot: locations.projectRoot,
    userHome: locations.userHome,
  };
}

export function scanConfigsOffThread(
  options: ScanOptions,
  workerFile = bundledScript('configScanWorker.js'),
  timeoutMs = SCAN_TIMEOUT_MS,
): Promise<ConfigScan> {
  if (!workerFile) return Promise.resolve(scanConfigs(options));
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(workerFile, { workerData: options });
    } catch {
      resolve(scanConfigs(options));
      return;
    }
    const timer = setTimeout(() => {
      // A thread stuck in a system call may outlive this; it holds nothing the host needs.
      void worker.terminate();
      resolve(abandoned(options, `the config scan took longer than ${timeoutMs / 1000} s: it was stopped`));
    }, timeoutMs);
    worker.once('message', (scan: ConfigScan) => {
      clearTimeout(timer);
      resolve(scan);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('the config scan worker ended without an answer'));
    });
  });
}
