import { type Stats, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function readText(p: string): string | undefined {
  try {
    return readFileSync(p, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The repository's shared `.git` folder when `root` is a git worktree (main or linked). */
function gitCommonDir(root: string): string | undefined {
  const dotGit = join(root, '.git');
  let stat: Stats;
  try {
    stat = statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  // A linked worktree has a `.git` file: "gitdir: <repo>/.git/worktrees/<name>", whose `commondir` points back.
  const pointer = readText(dotGit)?.match(/^gitdir:\s*(.+)$/m)?.[1];
  if (!pointer) return undefined;
  const gitDir = resolve(root, pointer.trim());
  const common = readText(join(gitDir, 'commondir'));
  return common ? resolve(gitDir, common) : undefined;
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
  for (const name of names) {
    // `gitdir` inside each entry holds "<worktree>/.git".
    const gitFile = readText(join(dir, name, 'gitdir'));
    if (gitFile) roots.push(realpathOrSelf(dirname(gitFile)));
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
