import { type Stats, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readBounded } from './boundedRead';
import { sha256Hex } from './sha256';

export interface ProjectIdentity {
  /** Stable id: readable name plus a hash of the main worktree's path. */
  id: string;
  name: string;
  /** The main worktree (or the folder itself outside git). */
  mainRoot: string;
  /** Every folder whose events belong to this project: the main worktree and its linked worktrees. */
  roots: string[];
}

/** A `.git` file is one line; anything larger is not git's. */
const MAX_POINTER_BYTES = 4096;
/** Worktrees looked at, at most: a `.git/worktrees` of thousands of entries is not a real repository's. */
const MAX_WORKTREES = 256;

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** A small file of git's, read bounded: a folder's `.git` may hold a pipe or a huge file in its place. */
function readText(p: string): string | undefined {
  const read = readBounded(p, { maxBytes: MAX_POINTER_BYTES });
  return 'text' in read ? read.text.trim() : undefined;
}

/** The folder a worktree's `.git` file points to ("gitdir: <repo>/.git/worktrees/<name>"), if it is one. */
function gitDirOfFile(worktree: string): string | undefined {
  // Not a file (a folder: a main worktree), larger than git writes it, or missing: no pointer.
  const pointer = readText(join(worktree, '.git'))?.match(/^gitdir:\s*(.+)$/m)?.[1];
  return pointer ? realpathOrSelf(resolve(worktree, pointer.trim())) : undefined;
}

/**
 * Whether git links `worktree` to `entry` (`<common>/worktrees/<name>`) both ways: the entry's `gitdir`
 * names the worktree's `.git` file, and that file names the entry. A folder that arrives with its own
 * `.git` (a tarball, a shared drive) can claim any other folder in one direction only, so a claim alone
 * never joins two folders into one project.
 */
function linkedBothWays(worktree: string, entry: string): boolean {
  const named = readText(join(entry, 'gitdir'));
  if (!named || realpathOrSelf(resolve(entry, named)) !== realpathOrSelf(join(worktree, '.git')))
    return false;
  return gitDirOfFile(worktree) === realpathOrSelf(entry);
}

/** The repository's shared `.git` folder when `root` is a git worktree (main, or linked both ways). */
function gitCommonDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  let stat: Stats;
  try {
    stat = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  const gitDir = gitDirOfFile(root);
  if (!gitDir || basename(dirname(gitDir)) !== 'worktrees' || !linkedBothWays(root, gitDir)) return undefined;
  const common = readText(join(gitDir, 'commondir'));
  const commonDir = common ? realpathOrSelf(resolve(gitDir, common)) : undefined;
  // The entry must be one of the repository's own: `<common>/worktrees/<name>`.
  return commonDir && dirname(dirname(gitDir)) === commonDir ? commonDir : undefined;
}

function linkedWorktrees(commonDir: string): string[] {
  const dir = join(commonDir, 'worktrees');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const roots: string[] = [];
  for (const name of names.slice(0, MAX_WORKTREES)) {
    // `gitdir` inside each entry holds "<worktree>/.git"; the worktree's `.git` file must point back.
    const entry = join(dir, name);
    const gitFile = readText(join(entry, 'gitdir'));
    if (!gitFile) continue;
    const worktree = realpathOrSelf(dirname(resolve(entry, gitFile)));
    if (linkedBothWays(worktree, entry)) roots.push(worktree);
  }
  return roots;
}

/** Identify the project a workspace folder belongs to; linked git worktrees map to their main worktree. */
export function identifyProject(folder: string): ProjectIdentity {
  const root = realpathOrSelf(folder);
  const commonDir = gitCommonDir(root);
  let mainRoot = root;
  let roots = [root];
  if (commonDir && basename(commonDir) === '.git') {
    mainRoot = realpathOrSelf(dirname(commonDir));
    roots = [...new Set([mainRoot, root, ...linkedWorktrees(commonDir)])];
  }
  const name = basename(mainRoot) || 'root';
  const slug = name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'project';
  const hash = sha256Hex(mainRoot).slice(0, 12);
  return { id: `${slug}-${hash}`, name, mainRoot, roots };
}
