/**
 * What an agent's file says, read again only when the file changed: for files consulted on every gauge
 * reading or task (Codex's config.toml, Cline's task history and model caches).
 */
import * as fs from 'node:fs';

/** Files remembered at once; past this the memory starts over (a handful are read in practice). */
const MAX_FILES = 16;

/**
 * `read(file)` kept while the file's size, time and inode stay the same; `missing` for a file that cannot be
 * looked at. `read` itself bounds what it reads and turns a bad file into a value.
 */
export class WhileUnchanged<T> {
  private readonly values = new Map<string, { stamp: string; value: T }>();

  constructor(
    private readonly read: (file: string) => T,
    private readonly missing: T,
  ) {}

  get(file: string): T {
    let stamp: string;
    try {
      const stat = fs.statSync(file);
      stamp = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      return this.missing;
    }
    const cached = this.values.get(file);
    if (cached?.stamp === stamp) return cached.value;
    const value = this.read(file);
    if (this.values.size >= MAX_FILES) this.values.clear();
    this.values.set(file, { stamp, value });
    return value;
  }
}
