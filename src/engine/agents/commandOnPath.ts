/** Finding a command the way a shell would: the first executable file of that name on PATH. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The first executable file named `command` on PATH (on Windows `command.exe` or `.cmd`), if any. */
export function findOnPath(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): string | undefined {
  const names = platform === 'win32' ? [`${command}.exe`, `${command}.cmd`] : [command];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) return candidate;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}
