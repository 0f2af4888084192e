import * as fs from 'node:fs';
import * as path from 'node:path';

/** Write bytes so that readers see either the old file or the new one, never a torn mix. */
export async function writeFileAtomic(target: string, bytes: Uint8Array): Promise<void> {
  const temp = `${target}.tmp-${process.pid}`;
  const handle = await fs.promises.open(temp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(temp, target);
  await syncDirectory(path.dirname(target));
}

async function syncDirectory(dir: string): Promise<void> {
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
