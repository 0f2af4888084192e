/** Tools declared as markdown files: skills (`<name>/SKILL.md`), slash commands and subagents (`*.md`). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readFrontMatter } from './frontMatter';
import type { ConfigEntry, ScanProblem, ToolScope } from './toolTypes';

/** Longest description kept in the registry; the file has the rest. */
const MAX_DESCRIPTION = 500;

export function clipDescription(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  return trimmed.length > MAX_DESCRIPTION ? `${trimmed.slice(0, MAX_DESCRIPTION - 1)}…` : trimmed;
}

/** Who declares the files: their scope, a name prefix (`<plugin>:` for a plugin's) and whether it is off. */
export interface MarkdownOwner {
  scope: ToolScope;
  prefix: string;
  disabled: boolean;
}

interface Listed {
  name: string;
  full: string;
  isDirectory: boolean;
}

/** A folder's entries with symlinks followed; a missing folder is empty, an unreadable one a problem. */
function list(dir: string, problems: ScanProblem[]): Listed[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      problems.push({ file: dir, message: `could not be read (${(error as Error).message})` });
    return [];
  }
  return entries
    .map((entry) => {
      const full = path.join(dir, entry.name);
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        try {
          isDirectory = fs.statSync(full).isDirectory();
        } catch {
          isDirectory = false;
        }
      }
      return { name: entry.name, full, isDirectory };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function readText(file: string, problems: ScanProblem[]): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({ file, message: `could not be read (${(error as Error).message})` });
    return undefined;
  }
}

/** Markdown files below `dir` with their path relative to it, without the extension, as segments. */
function markdownFiles(dir: string, problems: ScanProblem[], nested: boolean): Array<[string, string[]]> {
  const found: Array<[string, string[]]> = [];
  const walk = (current: string, segments: string[]) => {
    for (const entry of list(current, problems)) {
      if (entry.isDirectory) {
        if (nested) walk(entry.full, [...segments, entry.name]);
      } else if (entry.name.endsWith('.md')) {
        found.push([entry.full, [...segments, entry.name.slice(0, -3)]]);
      }
    }
  };
  walk(dir, []);
  return found;
}

/** `skills/<folder>/SKILL.md`, named by folder as Claude Code names them. */
export function skillEntries(dir: string, owner: MarkdownOwner, problems: ScanProblem[]): ConfigEntry[] {
  return list(dir, problems).flatMap((entry) => {
    const file = path.join(entry.full, 'SKILL.md');
    if (!entry.isDirectory || !fs.existsSync(file)) return [];
    const text = readText(file, problems);
    if (text === undefined) return [];
    return [
      {
        name: `${owner.prefix}${entry.name}`,
        type: 'skill' as const,
        scope: owner.scope,
        source: file,
        line: 1,
        description: clipDescription(readFrontMatter(text).fields.description),
        disabled: owner.disabled,
      },
    ];
  });
}

/** `commands/**\/*.md` as `/<name>`; each subfolder adds a `<folder>:` namespace. */
export function commandEntries(dir: string, owner: MarkdownOwner, problems: ScanProblem[]): ConfigEntry[] {
  return markdownFiles(dir, problems, true).flatMap(([file, segments]) => {
    const text = readText(file, problems);
    if (text === undefined) return [];
    const { fields, body } = readFrontMatter(text);
    // Claude Code shows a command's first line when its front matter has no description.
    const firstLine = body.split('\n').find((line) => line.trim());
    return [
      {
        name: `/${owner.prefix}${segments.join(':')}`,
        type: 'slash_command' as const,
        scope: owner.scope,
        source: file,
        line: 1,
        description: clipDescription(fields.description ?? firstLine?.replace(/^#+\s*/, '')),
        disabled: owner.disabled,
      },
    ];
  });
}

/** `agents/*.md`, named by their front matter `name` (the file name when it has none). */
export function agentEntries(dir: string, owner: MarkdownOwner, problems: ScanProblem[]): ConfigEntry[] {
  return markdownFiles(dir, problems, false).flatMap(([file, segments]) => {
    const text = readText(file, problems);
    if (text === undefined) return [];
    const { fields } = readFrontMatter(text);
    return [
      {
        name: `${owner.prefix}${fields.name?.trim() || segments[0]}`,
        type: 'subagent' as const,
        scope: owner.scope,
        source: file,
        line: 1,
        description: clipDescription(fields.description),
        disabled: owner.disabled,
      },
    ];
  });
}
