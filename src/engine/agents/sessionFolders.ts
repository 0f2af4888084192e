/** Finding an agent's session files in the folders it keeps them in. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The files below `dir` that `wanted` picks (shown the entries of their folder too), in no set order; at
 * most `maxDepth` folders down. A folder that cannot be read holds nothing.
 */
export function filesBelow(
  dir: string,
  wanted: (entry: fs.Dirent, folder: readonly fs.Dirent[]) => boolean,
  maxDepth = Infinity,
): string[] {
  const found: string[] = [];
  const pending = [{ dir, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(next.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(next.dir, entry.name);
      if (entry.isDirectory()) {
        if (next.depth < maxDepth) pending.push({ dir: full, depth: next.depth + 1 });
      } else if (entry.isFile() && wanted(entry, entries)) found.push(full);
    }
  }
  return found;
}
