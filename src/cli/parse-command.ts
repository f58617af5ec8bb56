import { UsageError, type CliCommand } from '../common/index.js';
import { COMMANDS } from './commands.js';
import { SERVER_PARTS } from './server-catalogues.js';

/** A command line whose arguments passed every check: `kind` names its command (`keys create`), the rest are its arguments. */
export type OperatorCommand = { kind: string; json: boolean } & Record<string, unknown>;

/** Every command by its words, its `kind`: the tool's own, then those the modules declare (`@ModuleParts({ cliCommands })`). */
export const ALL_COMMANDS: Readonly<Record<string, CliCommand>> = { ...COMMANDS };
const groupOf = (kind: string) => kind.split(' ')[0];
for (const { name, commands } of SERVER_PARTS.cliCommands) {
  if (Object.keys(ALL_COMMANDS).map(groupOf).includes(name)) throw new Error(`Two modules declare the command "${name}".`);
  for (const [action, command] of Object.entries(commands)) Object.assign(ALL_COMMANDS, { [`${name} ${action}`]: command });
}

/** Checks every value that can be checked without the database; a UsageError for anything wrong. */
export function parseCommand(argv: readonly string[]): OperatorCommand {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given.');
  const kinds = Object.keys(ALL_COMMANDS);
  // A command of one word (`usage`); "keys create" quoted as one argument is none.
  if (!group.includes(' ') && kinds.includes(group)) return { kind: group, ...ALL_COMMANDS[group].parse(argv.slice(1)) };
  const actions = kinds.filter((kind) => groupOf(kind) === group).map((kind) => kind.slice(group.length + 1));
  if (actions.length === 0) {
    throw new UsageError(`Unknown command "${group}"; the commands are ${COMMAND_LIST.format(new Set(kinds.map(groupOf)))}.`);
  }
  if (action === undefined || !actions.includes(action)) {
    const known = actions.join(', ');
    throw new UsageError(
      action === undefined
        ? `"${group}" needs one of: ${known}.`
        : `Unknown command "${group} ${action}"; "${group}" takes one of: ${known}.`,
    );
  }
  return { kind: `${group} ${action}`, ...ALL_COMMANDS[`${group} ${action}`].parse(rest) };
}

const COMMAND_LIST = new Intl.ListFormat('en', { type: 'conjunction' });
