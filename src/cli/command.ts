import type { FlagSpec, ParsedArgs } from './args';

export interface CliContext {
  stdout(text: string): void;
  stderr(text: string): void;
  /** --home as given (resolved by the engine's rules), or undefined. */
  home: string | undefined;
  /** --project, or the current directory. */
  project: string;
}

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  flags?: Partial<FlagSpec>;
  run(args: ParsedArgs, context: CliContext): Promise<number>;
}
