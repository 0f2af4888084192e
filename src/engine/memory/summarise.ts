/**
 * The rule-based summariser: which hook events are worth remembering, as one short line each, and of which
 * seed-001 type. Two steps: `analyseEvent`, a pure function of the (neutral) event holding all the costly work
 * (rules, redaction), which may run on a parse worker; then `resolveDraft`, which applies a little
 * per-session state on the thread that writes. Reads (Read, Grep, Glob...) and navigation commands are
 * context, not observations.
 */
import * as path from 'node:path';
import type { AgentEvent, ToolCall, ToolInput, ToolOutcome } from '../agents/types';
import { userPromptText } from '../agents/userPrompt';
import { type CheckIdentity, commandIdentity, commandSegments, fileIdentity } from './checkIdentity';
import { cleanPiece, contentHash, oneLine } from './text';
import type { ObservationSource, ObservationType } from './types';

export interface ObservationDraft {
  type: ObservationType;
  source: ObservationSource;
  text: string;
  agentType: string | null;
}

/** What the summariser remembers about a session between its events. */
export interface SessionState {
  /** The kind of work the latest prompt asked for, which types the edits that follow it. */
  intent?: ObservationType;
  /** The latest test or build run failed: the next passing one is a solution. */
  checkFailed?: boolean;
}

/**
 * An observation before session state is applied. Its type and text are final unless a field below says
 * otherwise; templates cross to the writing thread, so they hold data only.
 */
export interface DraftTemplate extends ObservationDraft {
  /** A prompt's kind of work, which types the edits that follow it. */
  intent?: ObservationType;
  /** An edit of an existing file, typed by the session's intent (a new file is a feature whatever it was for). */
  typedByIntent?: true;
  /** A test or build run; a passing one right after a failing one is a solution, worded "passed again". */
  check?: { label: string; bad: boolean; rest: string };
  /** A run of a check or a call on a file: a failure stays open until the same check passes (resolution.ts). */
  outcome?: { identity: CheckIdentity; failed: boolean };
  /** The file a change names, as shown (within the project where it is), checked before it is recalled. */
  file?: string;
  /** SHA-256 (hex) of what a whole-file write wrote: the file is unchanged while its content still hashes so. */
  fileHash?: string;
  /** Only the session's latest of this source is kept (the agent's report, its compaction summary). */
  latestOfSession?: true;
  /** Not kept: it only settles earlier failures (`outcome`). */
  silent?: true;
}

/**
 * Keyword rules, first match wins: decisions and fixes are told apart from plain problems, a found
 * workaround from a failure, and so on. Used for prompts, subagent results and untyped saves.
 */
const KEYWORD_TYPES: ReadonlyArray<[ObservationType, RegExp]> = [
  [
    'decision',
    /\b(decided|decide|decision|we(?:'ll| will| should) use|going with|chose|opted|switch(?:ed)? to)\b/i,
  ],
  ['solution', /\b(solution|solved|solves|workaround|resolved|the fix (?:is|was))\b/i],
  ['bugfix', /\b(fix|fixes|fixed|fixing|bugfix|hotfix)\b/i],
  [
    'refactor',
    /\b(refactor\w*|renam\w*|extract\w*|clean(?:ed)? ?up|simplif\w*|restructur\w*|reorganis\w*|reorganiz\w*|dedup\w*)\b/i,
  ],
  [
    'problem',
    /\b(bugs?|errors?|fail\w*|broken|crash\w*|exceptions?|cannot|can't|doesn't work|not working|regression)\b/i,
  ],
  ['warning', /\b(warn\w*|careful|caution|deprecat\w*|beware|avoid|never|do not|don't)\b/i],
  ['pattern', /\b(patterns?|conventions?|always|idioms?|best practices?)\b/i],
  ['success', /\b(pass(?:es|ed|ing)?|succeed\w*|successful\w*|works now)\b/i],
  ['feature', /\b(add\w*|implement\w*|creat\w*|build|new|support\w*|write|introduc\w*)\b/i],
  ['discovery', /\b(found|discover\w*|learn\w*|notic\w*|turns out|realis\w*|realiz\w*|figured out)\b/i],
];

/** The type of text the user wrote (a prompt, a note): decisions are theirs to make. */
export function classifyText(text: string, fallback: ObservationType): ObservationType {
  for (const [type, pattern] of KEYWORD_TYPES) if (pattern.test(text)) return type;
  return fallback;
}

/**
 * The type of text someone else wrote (a subagent's report): any but a decision, so "We decided..." in what
 * an agent read or wrote never becomes one of the user's decisions.
 */
export function classifyReport(text: string, fallback: ObservationType): ObservationType {
  for (const [type, pattern] of KEYWORD_TYPES) if (type !== 'decision' && pattern.test(text)) return type;
  return fallback;
}

/** The agent's report keeps this much: enough for "what was done, what is left" in its own words. */
const REPORT_MAX = 1200;
/** Each part kept of a compaction summary. */
const SUMMARY_PART_MAX = 600;

/**
 * The parts of a compaction summary that tell a next session where the work stands. Claude Code's summary
 * is numbered sections ("7. Pending Tasks:", "8. Current Work:", "9. Optional Next Step:"); a summary
 * without them (Codex's, opencode's) is kept from its start.
 */
const SUMMARY_PARTS: ReadonlyArray<[string, RegExp]> = [
  ['Pending', /pending tasks?/i],
  ['Current work', /current work/i],
  ['Next', /(?:optional )?next steps?/i],
];
const SUMMARY_HEADING =
  /^\s*(?:#+\s*)?(?:\d+\.\s*)?(?:\*\*)?([A-Z][A-Za-z ]{2,40}?)(?:\*\*)?:(?:\*\*)?\s*(.*)$/;

function summaryLine(summary: string): string {
  const sections: Array<{ title: string; body: string[] }> = [];
  for (const line of summary.slice(0, 256 * 1024).split('\n')) {
    const heading = SUMMARY_HEADING.exec(line);
    if (heading) sections.push({ title: heading[1], body: heading[2] ? [heading[2]] : [] });
    else sections.at(-1)?.body.push(line);
  }
  const parts = SUMMARY_PARTS.flatMap(([label, title]) => {
    const section = sections.find((candidate) => title.test(candidate.title));
    const body = section && cleanPiece(section.body.join(' '), SUMMARY_PART_MAX);
    return body ? [`${label}: ${body}`] : [];
  });
  if (parts.length > 0) return `Compaction summary. ${parts.join(' | ')}`;
  const whole = cleanPiece(summary, SUMMARY_PART_MAX * 2);
  return whole ? `Compaction summary: ${whole}` : '';
}

/**
 * A prompt that asks rather than tells: it ends with a question mark, opens with a question word, or asks
 * to find something out ("let's see how it renders").
 */
const QUESTION =
  /\?["'`)\]]*$|^(?:how|what|why|where|when|which|who|whose|explain)\b|\b(?:see|check|find out|test|verify)\s+(?:how|if|whether|what|why)\b/i;

/**
 * The kind of work a prompt asks for: by its keywords; a question without them (to understand, to be
 * shown) is a question, anything else a request for new behaviour.
 */
function promptType(prompt: string): ObservationType {
  return classifyText(prompt, QUESTION.test(prompt) ? 'question' : 'feature');
}

/** Files whose content is never recorded, only that they changed. */
const SENSITIVE_PATH =
  /(^|[\\/])\.env($|\.)|\.(pem|key|p12|pfx|keystore)$|(^|[\\/])id_(rsa|dsa|ecdsa|ed25519)|credentials|secrets?($|[\\/.])/i;

function displayPath(file: string, cwd: string | undefined): string {
  if (cwd && path.isAbsolute(file)) {
    const relative = path.relative(cwd, file);
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative;
  }
  return file;
}

/** Apply and update the session's state: the cheap, ordered half of summarising. */
export function resolveDraft(template: DraftTemplate, session: SessionState): ObservationDraft {
  const { type, source, text, agentType } = template;
  const draft: ObservationDraft = { type, source, text, agentType };
  if (template.intent) session.intent = template.intent;
  if (template.typedByIntent) {
    // Edits take the type of the work the prompt asked for.
    draft.type =
      session.intent === 'bugfix' || session.intent === 'problem'
        ? 'bugfix'
        : session.intent === 'refactor'
          ? 'refactor'
          : 'feature';
  }
  if (template.check) {
    const { label, bad, rest } = template.check;
    if (!bad && session.checkFailed === true) {
      draft.type = 'solution';
      draft.text = `${label} passed again: ${rest}`;
    }
    session.checkFailed = bad;
  }
  return draft;
}

/** What an event would be remembered as, from the event alone (the costly half of summarising). */
export function analyseEvent(event: AgentEvent): DraftTemplate | undefined {
  const agentType = event.agentType ?? 'main';
  const draft = (type: ObservationType, source: ObservationSource, line: string): ObservationDraft => ({
    type,
    source,
    text: line,
    agentType,
  });
  switch (event.kind) {
    case 'tool-end':
    case 'tool-failed':
      return event.tool && toolObservation(event.tool, event.kind === 'tool-failed', event.cwd, agentType);
    case 'prompt': {
      // System text (task notifications, command output, interruptions) is not something the user asked.
      const prompt = userPromptText(event.prompt ?? '') ?? '';
      // "yes", "go on", "/clear": steering, not something to remember.
      if (oneLine(prompt).split(' ').length < 3) return undefined;
      const line = cleanPiece(prompt, 300);
      const type = promptType(line);
      return { ...draft(type, 'prompt', `Asked: ${line}`), intent: type };
    }
    case 'compact': {
      // An event of the session: never a decision, whatever the focus instructions say.
      const instructions = cleanPiece(event.instructions ?? '', 300);
      return event.trigger === 'auto'
        ? draft('warning', 'compaction', 'Context filled up and was compacted automatically')
        : draft(
            'discovery',
            'compaction',
            `Context compacted on request${instructions ? `: ${instructions}` : ''}`,
          );
    }
    case 'compacted': {
      const summary = summaryLine(event.summary ?? '');
      return summary
        ? { ...draft('discovery', 'compact-summary', summary), latestOfSession: true }
        : undefined;
    }
    case 'stop': {
      const message = cleanPiece(event.message ?? '', REPORT_MAX);
      if (oneLine(message).split(' ').length < 3) return undefined;
      return {
        ...draft(classifyReport(message, 'discovery'), 'report', `Reported: ${message}`),
        latestOfSession: true,
      };
    }
    case 'subagent-stop': {
      const message = cleanPiece(event.message ?? '', 400);
      if (!message) return undefined;
      return draft(
        classifyReport(message, 'discovery'),
        'subagent',
        `${agentType} subagent reported: ${message}`,
      );
    }
    default:
      return undefined;
  }
}

function toolObservation(
  call: ToolCall,
  failed: boolean,
  cwd: string | undefined,
  agentType: string,
): DraftTemplate | undefined {
  const outcome = call.outcome ?? { failed };
  // Stopped by the user, or never run: nothing failed.
  if (outcome.interrupted || outcome.notRun) return undefined;
  const { input } = call;
  if (call.kind === 'shell') return commandObservation(input, outcome, agentType);
  if (failed) {
    const target = input.path ?? input.url;
    const where = target ? ` on ${cleanPiece(displayPath(target, cwd), 160)}` : '';
    // Only a change left undone stays open; a failed look-up (a missing file, a read too long) is no work left.
    const changed = call.kind === 'edit' || call.kind === 'write' ? input.path : undefined;
    return {
      type: 'problem',
      source: 'error',
      text: `${call.name} failed${where}: ${detailLine(outcome.error ?? '', 'error')}`,
      agentType,
      ...(changed ? { outcome: { identity: fileIdentity(displayPath(changed, cwd)), failed: true } } : {}),
    };
  }
  switch (call.kind) {
    case 'write':
    case 'edit':
      return changeObservation(call, outcome, cwd, agentType);
    case 'fetch': {
      const url = input.url;
      if (!url) return undefined;
      const prompt = cleanPiece(input.prompt ?? '', 160);
      return {
        type: 'discovery',
        source: 'reference',
        text: `Fetched ${cleanPiece(url, 200)}${prompt ? ` (looking for: ${prompt})` : ''}`,
        agentType,
      };
    }
    case 'web-search': {
      const query = cleanPiece(input.query ?? '', 200);
      return query
        ? { type: 'discovery', source: 'reference', text: `Searched the web for: ${query}`, agentType }
        : undefined;
    }
    default:
      return undefined;
  }
}

function changeObservation(
  call: ToolCall,
  outcome: ToolOutcome,
  cwd: string | undefined,
  agentType: string,
): DraftTemplate | undefined {
  const { input } = call;
  const file = input.path;
  if (!file) return undefined;
  const relative = displayPath(file, cwd);
  const shown = cleanPiece(relative, 200);
  const sensitive = SENSITIVE_PATH.test(file);
  // A change of the file fixes a failed call on it (an edit whose old text was not found).
  const cites = { file: relative, outcome: { identity: fileIdentity(relative), failed: false } };
  const edit = (line: string): DraftTemplate => ({
    type: 'feature',
    source: 'change',
    text: line,
    agentType,
    typedByIntent: true,
    ...cites,
  });
  const lines = (content: string | undefined) => {
    if (content === undefined) return '';
    // A final newline ends the last line; it does not start another.
    const count = content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    return ` (${count} ${count === 1 ? 'line' : 'lines'})`;
  };
  const created = (content: string | undefined): DraftTemplate => ({
    type: 'feature',
    source: 'change',
    text: `Created ${shown}${lines(content)}`,
    agentType,
    ...cites,
  });
  if (call.kind === 'write') {
    const written =
      outcome.created === false ? edit(`Rewrote ${shown}${lines(input.content)}`) : created(input.content);
    return input.content === undefined ? written : { ...written, fileHash: contentHash(input.content) };
  }
  if (input.notebook) return edit(`Modified notebook ${shown}`);
  const edits = input.edits ?? [];
  const first = edits[0] ?? {};
  // An edit creates a file when the first replacement's old text is empty.
  if (first.before === '' || (edits.length === 0 && outcome.created === true)) return created(first.after);
  const count = edits.length > 1 ? ` ${edits.length} edits,` : '';
  return edit(
    sensitive || first.before === undefined || first.after === undefined
      ? `Modified ${shown}${sensitive ? ' (content not recorded)' : ''}`
      : `Modified ${shown}:${count} replaced "${cleanPiece(first.before, 80)}" with "${cleanPiece(first.after, 80)}"`,
  );
}

/** What a shell command is, judged from the whole command line. */
type CommandKind = 'test' | 'lint' | 'build' | 'install' | 'git' | 'other';

const TEST_COMMAND =
  /(?:^|[\s;&|(])(?:(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test(?::\S+)?|jest|vitest|mocha|pytest|py\.test|rspec|phpunit|ctest|tox|(?:cargo|go|deno|dotnet|mix|swift)\s+test|make\s+(?:test|check)|(?:gradlew?|\.\/gradlew|mvn)\s+test)\b|\bnode\s+(?:\S+\s+)*--test\b/;
const LINT_COMMAND =
  /(?:^|[\s;&|(])(?:eslint|prettier\s+(?:--check|-c)|ruff|flake8|pylint|golangci-lint|shellcheck|stylelint|biome|cargo\s+clippy|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?lint)\b/;
const BUILD_COMMAND =
  /(?:^|[\s;&|(])(?:tsc|mypy|webpack|esbuild|rollup|vite\s+build|next\s+build|make|cmake|ninja|cargo\s+(?:build|check)|go\s+(?:build|vet)|gradlew?|\.\/gradlew|mvn|dotnet\s+build|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:build|compile|typecheck|package))\b/;
const INSTALL_COMMAND =
  /(?:^|[\s;&|(])(?:(?:npm|pnpm|yarn|bun)\s+(?:install|i|ci|add)|pip3?\s+install|poetry\s+add|uv\s+(?:add|pip\s+install)|cargo\s+add|go\s+get|gem\s+install|bundle\s+install|(?:apt-get|apt|brew|dnf|yum)\s+install)(?=\s|$)/;
const GIT_KEPT = /^git\s+(?:-C\s+\S+\s+)?(commit|push|merge|rebase|revert|cherry-pick|tag)\b/;
/** What makes a command line of each kind (the part of `git add -A && git commit` that is its check). */
const KIND_COMMANDS: Readonly<Record<Exclude<CommandKind, 'other'>, RegExp>> = {
  test: TEST_COMMAND,
  lint: LINT_COMMAND,
  build: BUILD_COMMAND,
  install: INSTALL_COMMAND,
  git: GIT_KEPT,
};
/** Commands that only look around; a command line made only of these is navigation, not work. */
const READ_ONLY = new Set(
  'ls ll la cd pushd popd pwd cat bat head tail less more echo printf which whereis type whoami id find fd grep egrep rg ag wc file stat tree du df env printenv date uname hostname sleep true false clear history sort uniq cut tr jq yq realpath dirname basename readlink diff cmp man nl column xargs test [ ps pgrep pidof lsof free uptime nproc netstat ss vmstat'.split(
    ' ',
  ),
);
const READ_ONLY_GIT =
  /^git\s+(?:-C\s+\S+\s+)?(status|log|diff|show|branch|remote|rev-parse|ls-files|ls-tree|blame|describe|shortlog|reflog|config|fetch|add|stash|checkout|switch|pull|restore|grep)\b/;

function isNavigation(segment: string): boolean {
  if (READ_ONLY_GIT.test(segment)) return true;
  const first = segment.split(/\s/, 1)[0];
  if (first === 'sed') return !/\s-i/.test(segment);
  return READ_ONLY.has(first);
}

function commandKind(command: string): CommandKind | undefined {
  const parts = commandSegments(command);
  if (parts.length === 0 || parts.every(isNavigation)) return undefined;
  if (TEST_COMMAND.test(command)) return 'test';
  if (LINT_COMMAND.test(command)) return 'lint';
  if (INSTALL_COMMAND.test(command)) return 'install';
  if (BUILD_COMMAND.test(command)) return 'build';
  if (parts.some((part) => GIT_KEPT.test(part))) return 'git';
  // Other git commands (add, checkout, pull...) are routine.
  if (parts.every((part) => isNavigation(part) || part.startsWith('git '))) return undefined;
  return 'other';
}

/**
 * The line of an output that says the most: for checks the last summary-like line (runners print their
 * totals last), for errors the first line naming the error rather than "Exit code 1".
 */
function detailLine(output: string, want: 'summary' | 'error' | 'first'): string {
  const lines = output
    .slice(-64 * 1024)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^exit code \d+$/i.test(line));
  if (lines.length === 0) return '';
  let chosen: string | undefined;
  if (want === 'summary') {
    const reversed = [...lines].reverse();
    chosen =
      reversed.find((line) => /\bpass\w*|\b\d+ (tests?|specs?)\b|✓|✔/i.test(line)) ??
      reversed.find((line) => /\b(fail\w*|errors?|tests?|ok)\b/i.test(line));
  } else if (want === 'error')
    chosen = lines.find((line) => /error|fail|exception|cannot|not found|denied|invalid/i.test(line));
  return cleanPiece(chosen ?? (want === 'summary' ? lines[lines.length - 1] : lines[0]), 160);
}

function commandObservation(
  input: ToolInput,
  outcome: ToolOutcome,
  agentType: string,
): DraftTemplate | undefined {
  const command = input.command;
  if (!command) return undefined;
  const kind = commandKind(command);
  if (!kind) return undefined;
  const failed = outcome.failed;
  const exitCode = outcome.exitCode;
  const output = (failed ? outcome.error : outcome.output) ?? '';
  const shown = cleanPiece(command, 120);
  const dash = (detail: string) => (detail ? ` — ${detail}` : '');
  // A runner that exits 0 but reports failures still failed.
  const bad =
    failed ||
    (exitCode !== undefined && exitCode !== 0) ||
    /\b[1-9]\d* (failed|failing|failures?)\b|\bFAIL\b/.test(output);
  const identity = commandIdentity(command, kind === 'test', (part) =>
    kind === 'other' ? !isNavigation(part) : KIND_COMMANDS[kind].test(part),
  );
  const outcomeOf = identity && { outcome: { identity, failed: bad } };
  const make = (type: ObservationType, line: string): DraftTemplate => ({
    type,
    source: 'command',
    text: line,
    agentType,
    ...outcomeOf,
  });
  switch (kind) {
    case 'test':
    case 'build': {
      const label = kind === 'test' ? 'Tests' : 'Build';
      const rest = `${shown}${dash(detailLine(output, bad ? 'error' : 'summary'))}`;
      return {
        type: bad ? 'problem' : 'success',
        source: 'check',
        text: `${label} ${bad ? 'failed' : 'passed'}: ${rest}`,
        agentType,
        check: { label, bad, rest },
        ...outcomeOf,
      };
    }
    case 'lint':
      return bad
        ? make('warning', `Lint found problems: ${shown}${dash(detailLine(output, 'error'))}`)
        : make('success', `Lint clean: ${shown}`);
    case 'install': {
      if (bad) return make('problem', `Install failed: ${shown}${dash(detailLine(output, 'error'))}`);
      const packages = installedPackages(command);
      return packages.length > 0
        ? make('feature', `Added dependency ${cleanPiece(packages.join(', '), 160)} (${shown})`)
        : make('success', `Installed dependencies: ${shown}`);
    }
    case 'git': {
      if (bad) return make('problem', `Git failed: ${shown}${dash(detailLine(output, 'error'))}`);
      const message = /\bcommit\b.*?\s-a?m\s*(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(command);
      return message
        ? make('success', `Committed: ${cleanPiece(message[1] ?? message[2] ?? message[3], 200)}`)
        : make('success', `Ran ${shown}${dash(detailLine(output, 'first'))}`);
    }
    case 'other': {
      if (bad) return make('problem', `Command failed: ${shown}${dash(detailLine(output, 'error'))}`);
      const first = detailLine(output, 'first');
      // A command that printed nothing and is not a check tells nothing worth keeping, but it still fixes
      // an earlier failure of the same command.
      if (first) return make('discovery', `Ran ${shown} — ${first}`);
      return outcomeOf && { ...make('success', `Ran ${shown}`), silent: true };
    }
  }
}

/**
 * A package as install commands name it: `name`, `@scope/name`, with a version or range (`@^1.2`, `==2.0`,
 * `>=1`) or a module path (`github.com/x/y@v1`). Other words after the verb (a redirect, prose) are not.
 */
const PACKAGE_WORD =
  /^(?:@[\w.-]+\/)?[A-Za-z0-9][\w./-]*(?:\[[\w,-]+\])?(?:(?:@|[=<>~!]=?|\^)[\w.^~*<>=,-]+)?$/;

/** The package arguments of an install command: words after the verb that name packages. */
function installedPackages(command: string): string[] {
  const match = INSTALL_COMMAND.exec(command);
  if (!match) return [];
  // The words up to the end of the simple command or a redirection (whose target is a file).
  const rest = command.slice(match.index + match[0].length).split(/&&|\|\||[;|\n]|\s\d?[<>]/)[0];
  return rest
    .trim()
    .split(/\s+/)
    .filter((word) => word.length <= 100 && PACKAGE_WORD.test(word));
}
