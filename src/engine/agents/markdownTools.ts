/** Tools declared as markdown files: skills (`<name>/SKILL.md`), slash commands and subagents (`*.md`). */
import * as path from 'node:path';
import { MARKDOWN_HEAD_BYTES, readBounded } from '../kernel/boundedRead';
import { FolderWalk } from '../kernel/folderWalk';
import { readFrontMatter } from '../kernel/frontMatter';
import type { ToolScope } from '../../shared/tools';
import type { ConfigEntry, ScanProblem } from './toolTypes';

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
  /** A repository's tools folder: its files are read only where they really are inside it. */
  within?: string;
}

/** The head of a markdown tool (its front matter and first lines), read bounded; a problem when unreadable. */
function readHead(file: string, owner: MarkdownOwner, problems: ScanProblem[]): string | undefined {
  const read = readBounded(file, { maxBytes: MARKDOWN_HEAD_BYTES, head: true, within: owner.within });
  if ('text' in read) return read.text;
  if ('problem' in read) problems.push({ file, message: read.problem });
  return undefined;
}

/** Markdown files below `dir` with their path relative to it, without the extension, as segments. */
function markdownFiles(dir: string, problems: ScanProblem[], nested: boolean): Array<[string, string[]]> {
  const found: Array<[string, string[]]> = [];
  const folders = new FolderWalk(dir, problems);
  const walk = (current: string, segments: string[]) => {
    for (const entry of folders.list(current)) {
      if (entry.isDirectory) {
        if (nested && !folders.tooDeep(segments.length + 1)) walk(entry.full, [...segments, entry.name]);
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
  return new FolderWalk(dir, problems).list(dir).flatMap((entry) => {
    if (!entry.isDirectory) return [];
    const file = path.join(entry.full, 'SKILL.md');
    const text = readHead(file, owner, problems);
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
    const text = readHead(file, owner, problems);
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
    const text = readHead(file, owner, problems);
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
