/** Where Codex keeps its files: `$CODEX_HOME`, by default `~/.codex` (codex-rs/core `find_codex_home`). */
import * as os from 'node:os';
import * as path from 'node:path';

export function codexHome(env: NodeJS.ProcessEnv, userHome?: string): string {
  const configured = env.CODEX_HOME?.trim();
  if (configured) return path.resolve(configured);
  return path.join(userHome ?? (env.HOME || env.USERPROFILE || os.homedir()), '.codex');
}

/** Whether `dir` is `root` or inside it (case-insensitive where the file system usually is). */
export function isInside(dir: string, root: string): boolean {
  const fold = (value: string) => {
    const resolved = path.resolve(value);
    return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
  };
  const relative = path.relative(fold(root), fold(dir));
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}
