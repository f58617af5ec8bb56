import { UsageError, type CliCommand } from '../common/index.js';
import { COMMANDS } from './commands.js';
import { MODULE_COMMANDS } from './server-catalogues.js';

/** A command line whose arguments passed every check: `kind` names its command (`keys create`), the rest are its arguments. */
export type OperatorCommand = { kind: string; json: boolean } & Record<string, unknown>;
export type CommandLine = { kind: 'help' } | OperatorCommand;

/** The tool's own commands, then those the modules declare (`@ModuleParts({ cliCommands })`). */
const ALL_COMMANDS: Readonly<Record<string, CliCommand | Readonly<Record<string, CliCommand>>>> = { ...COMMANDS };
for (const { name, commands } of MODULE_COMMANDS) {
  if (Object.hasOwn(ALL_COMMANDS, name)) throw new Error(`Two modules declare the command "${name}".`);
  Object.assign(ALL_COMMANDS, { [name]: commands });
}

export const isHelp = (command: CommandLine): command is { kind: 'help' } => command.kind === 'help';

/** Checks every value that can be checked without the database; a UsageError for anything wrong. */
export function parseCommand(argv: readonly string[]): CommandLine {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given.');
  if (group === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) return { kind: 'help' };
  const actions = Object.hasOwn(ALL_COMMANDS, group) ? ALL_COMMANDS[group] : undefined;
  if (!actions) throw new UsageError(`Unknown command "${group}"; the commands are ${COMMAND_LIST.format(Object.keys(ALL_COMMANDS))}.`);
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
export function commandOf({ kind }: OperatorCommand): CliCommand {
  const [group, action] = kind.split(' ');
  const entry = ALL_COMMANDS[group];
  return isCommand(entry) ? entry : entry[action];
}

const isCommand = (entry: CliCommand | Readonly<Record<string, CliCommand>>): entry is CliCommand => typeof entry.parse === 'function';

const COMMAND_LIST = new Intl.ListFormat('en', { type: 'conjunction' });
