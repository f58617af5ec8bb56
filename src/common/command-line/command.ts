import type { INestApplicationContext } from '@nestjs/common';

/** The command line itself is wrong: exit code 2, and nothing was opened or changed. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A well-formed command that cannot be carried out, such as revoking an unknown key: exit code 1. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
}

/** What a command prints: `json` with --json, `text` otherwise. */
export interface CommandOutput {
  json: object;
  text: string;
}

/**
 * A command of the operator's command-line tool. `parse` checks every value that can be checked without the database
 * (a UsageError for anything wrong), so that `run` needs no further checks; `run` takes the services it needs from `app`.
 */
export interface CliCommand<A extends { json: boolean } = { json: boolean }> {
  parse(args: string[]): A;
  run(app: Pick<INestApplicationContext, 'get'>, args: A): Promise<CommandOutput>;
}

/** A module's commands, `<name> <action>`, and their lines of the tool's --help under `title`. */
export interface CliCommandGroup {
  name: string;
  title: string;
  help: string;
  commands: Readonly<Record<string, CliCommand>>;
}

/** A command from its two halves, typed together. */
export const cliCommand = <A extends { json: boolean }>(parse: (args: string[]) => A, run: CliCommand<A>['run']) =>
  ({ parse, run }) as CliCommand;
