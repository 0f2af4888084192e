import { version } from '../../package.json';
import { type ParsedArgs, UsageError, parseArgs, stringFlag } from './args';
import { breakdownCommand } from './breakdownCommand';
import { contextCommand } from './contextCommand';
import { hooksCommand } from './hooksCommand';
import { gaugeCommand } from './gaugeCommand';
import { importCommand } from './importCommand';
import { ingestCommand } from './ingestCommand';
import { pruneCommand } from './pruneCommand';
import { scanCommand } from './scanCommand';
import { statusCommand } from './statusCommand';
import { forgetCommand } from './forgetCommand';
import { getCommand } from './getCommand';
import { saveCommand } from './saveCommand';
import { searchCommand } from './searchCommand';
import { timelineCommand } from './timelineCommand';
import { toolsCommand } from './toolsCommand';
import type { CliCommand, CliContext } from './command';
import { tableRows } from './table';
import { escapeHidden } from '../shared/visibleText';

const COMMANDS: readonly CliCommand[] = [
  ingestCommand,
  statusCommand,
  hooksCommand,
  importCommand,
  gaugeCommand,
  breakdownCommand,
  scanCommand,
  toolsCommand,
  searchCommand,
  timelineCommand,
  getCommand,
  forgetCommand,
  saveCommand,
  pruneCommand,
  contextCommand,
];

const COMMON_VALUE_FLAGS = ['home', 'project'] as const;

/** Help lines wrap within this many characters: a terminal of ordinary width shows them unbroken. */
const HELP_WIDTH = 100;

/** A command with its positional arguments (`search QUERY`): its options are in its own --help. */
function synopsis(command: CliCommand): string {
  return command.usage.split(/ (?=\[?--)/)[0];
}

function usage(): string {
  const commands = COMMANDS.map((command) => [synopsis(command), command.summary]);
  const options = [
    ['--home DIR', 'Context Deck home (default: $CONTEXT_DECK_HOME or ~/.context-deck)'],
    ['--project DIR', 'The project folder (default: the current directory)'],
    ['--help', "This help; after a command, that command's options"],
    ['--version, -v', 'The version of context-deck'],
  ];
  // One table, so that the descriptions of commands and options start in the same column.
  const rows = tableRows([...commands, ...options], { indent: '  ', width: HELP_WIDTH });
  return [
    'Usage: context-deck <command> [options]',
    '',
    'Commands:',
    ...rows.slice(0, commands.length),
    '',
    'Options:',
    ...rows.slice(commands.length),
  ].join('\n');
}

/**
 * Runs one CLI invocation and returns its exit code: 0 success, 1 failure, 2 bad usage. Names and text from
 * repositories and agents are in what it prints: no escape sequence or bidi override in them reaches the
 * terminal raw (tables show each cell as one visible line; the rest, JSON too, shows them as `\uXXXX`).
 */
export async function runCli(
  argv: readonly string[],
  terminal: Pick<CliContext, 'stdout' | 'stderr'>,
): Promise<number> {
  const io = {
    stdout: (text: string) => terminal.stdout(escapeHidden(text)),
    stderr: (text: string) => terminal.stderr(escapeHidden(text)),
  };
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`context-deck ${version}`);
    return 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`context-deck: unknown command "${name}" (context-deck --help lists them)`);
    return 2;
  }
  // Bad usage is one line, like any failure; the command's --help has the rest.
  const usageError = (error: unknown) => {
    io.stderr(`context-deck ${name}: ${(error as Error).message} (see context-deck ${name} --help)`);
    return 2;
  };
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, {
      withValue: [...COMMON_VALUE_FLAGS, ...(command.flags?.withValue ?? [])],
      boolean: ['help', ...(command.flags?.boolean ?? [])],
    });
  } catch (error) {
    return usageError(error);
  }
  if (args.flags.has('help')) {
    io.stdout(`Usage: context-deck ${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(args, {
      ...io,
      home: stringFlag(args, 'home'),
      project: stringFlag(args, 'project') ?? process.cwd(),
    });
  } catch (error) {
    if (error instanceof UsageError) return usageError(error);
    io.stderr(`context-deck ${name}: ${(error as Error).message.split('\n')[0]}`);
    return 1;
  }
}

/**
 * A reader that stops early (`| head -1`) closes the pipe. What it did not read has nowhere to go, which is
 * no failure: the rest of the output is dropped and the command still finishes what it was doing (a save).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): (text: string) => void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return (text) => {
    if (stream.writable) stream.write(`${text}\n`);
  };
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    stdout: quietOnClosedPipe(process.stdout),
    stderr: quietOnClosedPipe(process.stderr),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`context-deck: ${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
