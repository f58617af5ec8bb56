import { ConsoleLogger, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AppPartsModule, ClockModule, CommandFailedError, RequestContextModule, type CommandOutput } from '../common/index.js';
import { AdminTokensModule } from '../modules/admin/index.js';
import { AuditModule } from '../modules/audit/index.js';
import { AuthModule } from '../modules/auth/index.js';
import { PlansModule } from '../modules/plans/index.js';
import { UsageRecordsModule } from '../modules/usage/index.js';
import { appConfigModule } from '../platform/config/index.js';
import { DatabaseModule } from '../platform/database/index.js';
import { ALL_COMMANDS, type OperatorCommand } from './parse-command.js';
import { SERVER_PARTS } from './server-catalogues.js';

/** The operator tool's application context: the server's services and database, without HTTP. */
@Module({})
class CliModule {}

/** Nest's console logger with every level on stderr, so stdout carries only the command's output. */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    ...[messages, context, logLevel, , errorStack, params]: Parameters<ConsoleLogger['printMessages']>
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}

/** Opens the service's modules and database for one command, and always closes them again. */
export async function executeCommand(command: OperatorCommand): Promise<CommandOutput> {
  const context = await openContext();
  try {
    return await ALL_COMMANDS[command.kind].run(context, command);
  } finally {
    await context.close();
  }
}

async function openContext(): Promise<INestApplicationContext> {
  try {
    // The server's parts: its scopes and audit actions, and the same checks of the variables. The modules that declare
    // commands are opened too, so their services run them and their listeners hear the tool's changes (a key's event).
    const parts = SERVER_PARTS;
    const infrastructure = [
      appConfigModule(parts.config, { serving: false }),
      AppPartsModule.forRoot(parts),
      RequestContextModule,
      ClockModule,
      EventEmitterModule.forRoot(),
      DatabaseModule,
    ];
    return await NestFactory.createApplicationContext(
      {
        module: CliModule,
        imports: [...infrastructure, PlansModule, AuthModule, AuditModule, UsageRecordsModule, AdminTokensModule, ...parts.cliModules],
      },
      { logger: new StderrLogger({ logLevels: ['error', 'warn'] }), abortOnError: false },
    );
  } catch (error) {
    // Nest has logged the detail (bad configuration, unreachable database); this is the summary.
    throw new CommandFailedError(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
}
