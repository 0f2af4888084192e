/**
 * "The same check": what a later run must match for a failure to count as fixed (see the README's Memory
 * section). A command is identified by its program and its subcommand, flags and values left out, so that
 * `git push` is fixed by `git push --set-upstream origin main` and `mix credo` by `mix credo --strict`.
 * Test runs also name their targets (the test files or test ids on the command line): a failure of
 * `pytest tests/a.py` is fixed by a passing `pytest tests/a.py` or by a passing full run, `pytest`; a
 * failed full run only by a passing full run. A failed change of a file (an edit whose old text was not
 * found) is fixed by a later successful change of that file.
 */

/** A check's identity: `key` is the command (or `file:<path>`), `target` its test targets, '' for all. */
export interface CheckIdentity {
  key: string;
  target: string;
}

/** Programs that run another program named in their first argument. */
const RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'exec', 'time', 'nice', 'sudo', 'env', 'command']);
/** Programs whose first two words name what they do (`npm run lint`, `poetry run pytest`, `python -m pytest`). */
const TWO_WORD = new Set(['run', '-m']);
/** Navigation that leads a command line (`cd app && ...`): not what it checks. */
const LEADING = /^(?:cd|pushd|source|\.|export|set)\b/;
/** A word naming a test target: a path, a file with an extension, or a test id (`a.py::test_x`, `a_test.exs:12`). */
const TARGET = /[\\/]|\.\w{1,6}(?::\d+)?$|::/;

/** The simple commands of a command line, with leading `VAR=value` assignments dropped. */
export function commandSegments(command: string): string[] {
  return (
    command
      // A separator inside quotes (`rg 'a|b'`) separates nothing.
      .replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, (quoted) => quoted.replace(/[|;&\n]/g, ' '))
      .split(/&&|\|\||[;|\n]/)
      .map((part) => part.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ''))
      .filter(Boolean)
  );
}

function simpleCommands(command: string): string[] {
  return commandSegments(command).filter((part) => !LEADING.test(part));
}

function programName(word: string): string {
  return word.replace(/^.*[\\/]/, '').replace(/\.(?:exe|cmd|bat)$/i, '');
}

/**
 * The identity of a command line: the program and subcommand of the command that does the work (`isWork`,
 * say the `git commit` of `git add -A && git commit`, else the first), and its targets.
 */
export function commandIdentity(
  command: string,
  withTargets: boolean,
  isWork: (simpleCommand: string) => boolean = () => true,
): CheckIdentity | undefined {
  const commands = simpleCommands(command);
  const first = commands.find(isWork) ?? commands[0];
  if (!first) return undefined;
  const wordList = first.split(/\s+/).filter(Boolean);
  while (wordList.length > 1 && RUNNERS.has(programName(wordList[0]))) wordList.shift();
  const program = programName(wordList[0] ?? '');
  if (!program) return undefined;
  const rest = wordList.slice(1);
  const key = [program];
  let index = 0;
  // The subcommand: the first word that is not a flag, a value or a target (and a second after `run`, `-m`).
  for (; index < rest.length && key.length < 3; index++) {
    const word = rest[index];
    if (TWO_WORD.has(word) && key.length === 1) {
      key.push(word);
      continue;
    }
    if (word.startsWith('-') || TARGET.test(word) || /[=$"'`]/.test(word)) break;
    key.push(word);
    if (key.length === 2 && !TWO_WORD.has(key[1])) break;
  }
  const targets = withTargets
    ? rest
        .slice(index)
        .filter((word) => !word.startsWith('-') && TARGET.test(word))
        .map((word) => word.replace(/:\d+$/, ''))
    : [];
  return { key: key.join(' '), target: [...new Set(targets)].sort().join(' ') };
}

/** The identity of a tool call on a file. */
export function fileIdentity(file: string): CheckIdentity {
  return { key: `file:${file}`, target: '' };
}
