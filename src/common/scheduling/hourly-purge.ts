import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

const PURGE_INTERVAL_MS = 60 * 60_000;

/** Deletes what a table no longer needs, hourly per replica and off every request path; a failed purge waits for the next. */
export abstract class HourlyPurge implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(this.context);
  private timer?: NodeJS.Timeout;

  /** `what` names the rows in the warning: "expired idempotency keys". */
  protected constructor(
    private readonly context: string,
    private readonly what: string,
  ) {}

  protected abstract purge(): Promise<number>;

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), PURGE_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** One purge; 0 when it failed. */
  async run(): Promise<number> {
    try {
      return await this.purge();
    } catch (error) {
      this.logger.warn(`Could not delete ${this.what}: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  }
}
