/**
 * Walking a folder a repository (or a user's config) fills: each real folder is listed once, so two links
 * to `.` can't make the walk exponential (they made it 100% CPU and gigabytes); at most MAX_WALK_ENTRIES
 * entries in all and MAX_WALK_DEPTH levels. Links are followed to folders not listed yet; why the walk
 * left something out is one problem per kind, naming the walked folder.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConfigFileProblem } from '../../shared/tools';

/** Folders deeper than this below the walked one are not read (command namespaces nest 1-3 levels). */
const MAX_WALK_DEPTH = 8;
/** Entries listed per walk, all its subfolders together; past it the rest is not read. */
const MAX_WALK_ENTRIES = 5000;

export interface Listed {
  name: string;
  full: string;
  isDirectory: boolean;
}

export class FolderWalk {
  private readonly visited = new Set<string>();
  private readonly reported = new Set<'full' | 'deep' | 'loop'>();
  private entries = 0;
  private full = false;

  constructor(
    private readonly root: string,
    private readonly problems: ConfigFileProblem[],
  ) {}

  /** A folder's entries in name order, links followed; a missing folder is empty, an unreadable one a problem. */
  list(dir: string): Listed[] {
    let real: string;
    try {
      real = fs.realpathSync(dir);
    } catch (error) {
      this.unreadable(dir, error);
      return [];
    }
    if (this.visited.has(real) || this.full) return [];
    this.visited.add(real);
    const listed: Listed[] = [];
    let folder: fs.Dir | undefined;
    try {
      // One entry at a time: a folder of a million names is not read whole.
      folder = fs.opendirSync(dir);
      for (let entry = folder.readSync(); entry; entry = folder.readSync()) {
        if (++this.entries > MAX_WALK_ENTRIES) {
          this.full = true;
          this.report('full', `holds more than ${MAX_WALK_ENTRIES} entries: the rest is not read`);
          break;
        }
        listed.push(this.entry(dir, entry));
      }
    } catch (error) {
      this.unreadable(dir, error);
    } finally {
      folder?.closeSync();
    }
    return listed.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Whether a folder `depth` levels below the walked one is too deep to read (saying so once). */
  tooDeep(depth: number): boolean {
    if (depth <= MAX_WALK_DEPTH) return false;
    this.report('deep', `nests folders deeper than ${MAX_WALK_DEPTH} levels: deeper ones are not read`);
    return true;
  }

  private entry(dir: string, entry: fs.Dirent): Listed {
    const full = path.join(dir, entry.name);
    if (!entry.isSymbolicLink()) return { name: entry.name, full, isDirectory: entry.isDirectory() };
    let isDirectory = false;
    try {
      isDirectory = fs.statSync(full).isDirectory();
      if (isDirectory && this.visited.has(fs.realpathSync(full))) {
        isDirectory = false;
        this.report(
          'loop',
          `has links to folders it holds (${path.relative(this.root, full)}): they are not followed`,
        );
      }
    } catch {
      // A broken link or a loop of links: nothing to list.
    }
    return { name: entry.name, full, isDirectory };
  }

  /** One problem per kind of omission, however many times it happens. A loop left out leaves nothing unread. */
  private report(kind: 'full' | 'deep' | 'loop', message: string): void {
    if (this.reported.has(kind)) return;
    this.reported.add(kind);
    this.problems.push(
      kind === 'loop' ? { file: this.root, message, readWhole: true } : { file: this.root, message },
    );
  }

  private unreadable(dir: string, error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      this.problems.push({ file: dir, message: `could not be read (${(error as Error).message})` });
  }
}
