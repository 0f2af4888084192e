import * as fs from 'node:fs';
import * as path from 'node:path';
import { PRIVATE_FILE_MODE } from '../kernel/privateFiles';

/**
 * Write bytes so that readers see either the old file or the new one, never a torn mix. The file is private
 * (0600). A failed write (a full disk) leaves the old file as it was and no temp file behind.
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array): Promise<void> {
  const temp = `${target}.tmp-${process.pid}`;
  try {
    await writeSynced(temp, bytes, 'wx');
    await fs.promises.rename(temp, target);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw new Error(`could not write ${target}: ${(error as Error).message}`, { cause: error });
  }
  await syncDirectory(path.dirname(target));
}

/** Write a private file and wait until its bytes are on disk. */
export async function writeSynced(file: string, bytes: Uint8Array, flags: 'w' | 'wx'): Promise<void> {
  const handle = await fs.promises.open(file, flags, PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename durable; directories can't be opened for sync on Windows, which is fine there.
  try {
    const handle = await fs.promises.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort.
  }
}

/** Move a damaged snapshot out of the way (kept for inspection) and return where it went. */
export function setAside(file: string, now = Date.now()): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const aside = `${file}.damaged-${stamp}`;
  fs.renameSync(file, aside);
  return aside;
}
