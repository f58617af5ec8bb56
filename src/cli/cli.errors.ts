/** The command line itself is wrong: exit code 2, and nothing was opened or changed. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A well-formed command that cannot be carried out, such as revoking an unknown key: exit code 1. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
}
