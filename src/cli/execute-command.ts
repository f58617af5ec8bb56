import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliCommandsService, type CommandOutput, type OperatorCommand } from './cli-commands.service.js';
import { CliModule } from './cli.module.js';
import { CommandFailedError } from './cli.errors.js';
import { StderrLogger } from './stderr-logger.js';

/** Opens the service's modules and database for one command, and always closes them again. */
export async function executeCommand(command: OperatorCommand): Promise<CommandOutput> {
  const context = await openContext();
  try {
    return await context.get(CliCommandsService).execute(command);
  } finally {
    await context.close();
  }
}

async function openContext(): Promise<INestApplicationContext> {
  try {
    return await NestFactory.createApplicationContext(CliModule.register(), {
      logger: new StderrLogger({ logLevels: ['error', 'warn'] }),
      abortOnError: false,
    });
  } catch (error) {
    // Nest has logged the detail (bad configuration, unreachable database); this is the summary.
    throw new CommandFailedError(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}
