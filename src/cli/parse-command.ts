import { UsageError } from './cli.errors.js';
import { COMMANDS, type Command } from './commands.js';

/** A command line whose arguments passed every check: `kind` names its command (`keys create`), the rest are its arguments. */
export type OperatorCommand = { kind: string; json: boolean } & Record<string, unknown>;
export type CliCommand = { kind: 'help' } | OperatorCommand;

export const isHelp = (command: CliCommand): command is { kind: 'help' } => command.kind === 'help';

/** Checks every value that can be checked without the database; a UsageError for anything wrong. */
export function parseCommand(argv: readonly string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given.');
  if (group === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
  const actions = Object.hasOwn(COMMANDS, group) ? COMMANDS[group] : undefined;
  if (!actions) throw new UsageError(`Unknown command "${group}"; the commands are ${COMMAND_LIST.format(Object.keys(COMMANDS))}.`);
  if (isCommand(actions)) return { kind: group, ...actions.parse(argv.slice(1)) };
  const command = action !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (!command) {
    const known = Object.keys(actions).join(', ');
    throw new UsageError(
      action === undefined
        ? `"${group}" needs one of: ${known}.`
        : `Unknown command "${group} ${action}"; "${group}" takes one of: ${known}.`,
    );
  }
  return { kind: `${group} ${action}`, ...command.parse(rest) };
}

/** The command a parsed command line's `kind` names. */
export function commandOf({ kind }: OperatorCommand): Command {
  const [group, action] = kind.split(' ');
  const entry = COMMANDS[group];
  return isCommand(entry) ? entry : entry[action];
}

const isCommand = (entry: Command | Readonly<Record<string, Command>>): entry is Command => typeof entry.parse === 'function';

const COMMAND_LIST = new Intl.ListFormat('en', { type: 'conjunction' });
