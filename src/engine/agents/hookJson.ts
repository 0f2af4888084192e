/**
 * Reading the `hooks` object of an agent's JSON hook settings, the shape Claude Code defined and Codex
 * CLI shares (`hooks.<event>: [{matcher?, hooks: [{type, command, ...}]}]`; VS Code's lists entries
 * directly). Files shaped otherwise are refused, never rewritten.
 */
import type { JsoncDocument } from './jsoncEdit';
import { type Json, isObject } from './jsonValues';

/** The `hooks` object; undefined for an empty file or one without it. Throws on any other shape. */
export function hooksSection(document: JsoncDocument): Json | undefined {
  const root = document.value;
  if (root === undefined) return undefined;
  if (!isObject(root)) throw new Error(`${document.file} does not hold a JSON object`);
  const hooks = root.hooks;
  if (hooks !== undefined && !isObject(hooks))
    throw new Error(`"hooks" in ${document.file} is not an object`);
  return hooks;
}

/** An event's matcher groups (a group that is not an object counts as empty). */
export function groupsOf(hooks: Json | undefined, event: string, file: string): Json[] {
  const groups = hooks?.[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) throw new Error(`"hooks.${event}" in ${file} is not a list`);
  return groups.map((group) => (isObject(group) ? group : {}));
}

/** The first hook entry in `groups` that `isOurs`, with where it is. */
export function findInGroups(
  groups: Json[],
  isOurs: (entry: Json) => boolean,
): { group: number; hook: number; entry: Json } | undefined {
  for (let group = 0; group < groups.length; group++) {
    const hooks = Array.isArray(groups[group].hooks) ? (groups[group].hooks as unknown[]) : [];
    for (let hook = 0; hook < hooks.length; hook++) {
      const entry = hooks[hook];
      if (isObject(entry) && isOurs(entry)) return { group, hook, entry };
    }
  }
  return undefined;
}
