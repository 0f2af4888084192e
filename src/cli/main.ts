import { type ParsedArgs, UsageError, parseArgs, stringFlag } from './args';
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

const COMMANDS: readonly CliCommand[] = [
  ingestCommand,
  statusCommand,
  hooksCommand,
  importCommand,
  gaugeCommand,
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

function usage(): string {
  const lines = [
    'Usage: context-deck <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.usage.padEnd(34)} ${command.summary}`),
    '',
    'Options for every command:',
    '  --home DIR      Context Deck home (default: $CONTEXT_DECK_HOME or ~/.context-deck)',
    '  --project DIR   the project folder (default: the current directory)',
    '  --help          show this help',
  ];
  return lines.join('\n');
}

/** Runs one CLI invocation and returns its exit code: 0 success, 1 failure, 2 bad usage. */
export async function runCli(
  argv: readonly string[],
  io: Pick<CliContext, 'stdout' | 'stderr'>,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr(`context-deck: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  let args: ParsedArgs;
  try {
    args = parseArgs(rest, {
      withValue: [...COMMON_VALUE_FLAGS, ...(command.flags?.withValue ?? [])],
      boolean: ['help', ...(command.flags?.boolean ?? [])],
    });
  } catch (error) {
    io.stderr(`context-deck ${name}: ${(error as Error).message}\nUsage: context-deck ${command.usage}`);
    return 2;
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
    if (error instanceof UsageError) {
      io.stderr(`context-deck ${name}: ${error.message}\nUsage: context-deck ${command.usage}`);
      return 2;
    }
    io.stderr(`context-deck ${name}: ${(error as Error).message.split('\n')[0]}`);
    return 1;
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
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
