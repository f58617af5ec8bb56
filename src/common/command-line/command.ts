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

/** A tool command: `parse` checks all it can without the database (a UsageError), so `run`, given `app` for its services, need not. */
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

export const cliCommand = <A extends { json: boolean }>(parse: (args: string[]) => A, run: CliCommand<A>['run']) =>
  ({ parse, run }) as CliCommand;
