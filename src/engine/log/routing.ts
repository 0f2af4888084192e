import * as path from 'node:path';
import { isWithin } from '../kernel/paths';

/**
 * Which events belong to a project, by their working directory: inside one of its roots and not inside a
 * nested root open as a project of its own. Plain data, so a parse worker can route too.
 */
export interface Routes {
  roots: readonly string[];
  excludeRoots: readonly string[];
}

/** Decides whether an event's working directory belongs to the project. */
export type Router = (cwd: string) => boolean;

/** A router that remembers its answers: an agent reports the same few directories over and over. */
export function routerFor(routes: Routes): Router {
  const answers = new Map<string, boolean>();
  return (cwd) => {
    let answer = answers.get(cwd);
    if (answer === undefined) {
      const resolved = path.resolve(cwd);
      answer =
        routes.roots.some((root) => isWithin(root, resolved)) &&
        !routes.excludeRoots.some((inner) => isWithin(inner, resolved));
      if (answers.size > 1000) answers.clear();
      answers.set(cwd, answer);
    }
    return answer;
  };
}
