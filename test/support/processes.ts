import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(__dirname, '../..');

/** Node arguments that run a TypeScript source file of this repo from any working directory. */
export function tsNodeArgs(sourceFile: string, ...args: string[]): string[] {
  const loader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  return ['--import', loader, path.join(REPO_ROOT, sourceFile), ...args];
}
