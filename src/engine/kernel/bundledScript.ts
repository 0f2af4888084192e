import * as fs from 'node:fs';
import * as path from 'node:path';

/** A script shipped beside this bundle in dist/ (the worker threads' entries), if there is one; none from source. */
export function bundledScript(name: string): string | undefined {
  const file = path.join(__dirname, name);
  return fs.existsSync(file) ? file : undefined;
}
