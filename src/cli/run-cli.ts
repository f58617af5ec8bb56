import { ApiException, CommandFailedError, UsageError, ValidationFailedException } from '../common/index.js';
import { parseCommand } from './parse-command.js';
import { USAGE } from './usage.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

export async function runCli(argv: readonly string[]): Promise<number> {
  // Asked for anywhere, even after a command that is wrong (`keys create --help`).
  if (argv[0] === 'help' || argv.some((arg) => arg === '--help' || arg === '-h')) {
    process.stdout.write(USAGE);
    return EXIT_OK;
  }
  try {
    const command = parseCommand(argv);
    // Loaded only for a command that passed every check: help and bad arguments need neither Nest nor
    // the database, nor a valid environment (importing the configuration module validates it).
    const { executeCommand } = await import('./execute-command.js');
    const output = await executeCommand(command);
    process.stdout.write(`${command.json ? JSON.stringify(output.json) : output.text}\n`);
    return EXIT_OK;
  } catch (error) {
    return report(error);
  }
}

function report(error: unknown): number {
  // A value only the service can judge (a --cursor) is a bad argument too.
  if (error instanceof UsageError || error instanceof ValidationFailedException) {
    process.stderr.write(`error: ${error.message}\nRun with --help to see the commands and their options.\n`);
    return EXIT_USAGE;
  }
  // A module's refusal (an unknown endpoint's 404) is a command that failed, with the message the admin API answers.
  if (error instanceof CommandFailedError || error instanceof ApiException) {
    process.stderr.write(`error: ${error.message}\n`);
    return EXIT_FAILED;
  }
  process.stderr.write(
    `error: the command failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT_FAILED;
}
