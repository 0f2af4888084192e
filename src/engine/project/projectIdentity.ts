import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

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
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function readText(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The repository's shared `.git` folder when `root` is a git worktree (main or linked). */
function gitCommonDir(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory()) return dotGit;
  // A linked worktree has a `.git` file: "gitdir: <repo>/.git/worktrees/<name>", whose `commondir` points back.
  const pointer = readText(dotGit)?.match(/^gitdir:\s*(.+)$/m)?.[1];
  if (!pointer) return undefined;
  const gitDir = path.resolve(root, pointer.trim());
  const common = readText(path.join(gitDir, 'commondir'));
  return common ? path.resolve(gitDir, common) : undefined;
}

function linkedWorktrees(commonDir: string): string[] {
  const dir = path.join(commonDir, 'worktrees');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const roots: string[] = [];
  for (const name of names) {
    // `gitdir` inside each entry holds "<worktree>/.git".
    const gitFile = readText(path.join(dir, name, 'gitdir'));
    if (gitFile) roots.push(realpathOrSelf(path.dirname(gitFile)));
  }
  return roots;
}

/** Identify the project a workspace folder belongs to; linked git worktrees map to their main worktree. */
export function identifyProject(folder: string): ProjectIdentity {
  const root = realpathOrSelf(folder);
  const commonDir = gitCommonDir(root);
  let mainRoot = root;
  let roots = [root];
  if (commonDir && path.basename(commonDir) === '.git') {
    mainRoot = realpathOrSelf(path.dirname(commonDir));
    roots = [...new Set([mainRoot, root, ...linkedWorktrees(commonDir)])];
  }
  const name = path.basename(mainRoot) || 'root';
  const slug = name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40) || 'project';
  const hash = createHash('sha256').update(mainRoot).digest('hex').slice(0, 12);
  return { id: `${slug}-${hash}`, name, mainRoot, roots };
}
