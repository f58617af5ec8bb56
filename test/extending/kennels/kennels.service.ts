import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DEFAULT_PAGE_SIZE, pageStart, toPage, ValidationFailedException, type Page, type PageRequest } from '../../../src/common/index.js';
import { AuditLog, type ChangeContext } from '../../../src/modules/audit/index.js';
import { TransactionHost } from '../../../src/platform/database/index.js';
import type { Kennel } from './entities/kennel.entity.js';
import type { KennelsConfig } from './kennels.config.js';
import { KennelNotFoundException } from './kennels.exceptions.js';
import { KennelsRepository } from './kennels.repository.js';

@Injectable()
export class KennelsService {
  private readonly maxPlaces: number;

  constructor(
    private readonly kennels: KennelsRepository,
    private readonly txHost: TransactionHost,
    private readonly audit: AuditLog,
    config: ConfigService,
  ) {
    this.maxPlaces = config.getOrThrow<KennelsConfig>('kennels').maxPlaces;
  }

  async list({ cursor, limit = DEFAULT_PAGE_SIZE }: PageRequest): Promise<Page<Kennel>> {
    return toPage(await this.kennels.findPage(pageStart(cursor, {}), limit + 1), limit, {});
  }

  async get(id: number): Promise<Kennel> {
    const kennel = await this.kennels.findById(id);
    if (!kennel) throw new KennelNotFoundException(id);
    return kennel;
  }

  /** The kennel and its audit event commit together, or neither does. */
  create({ name, places }: Pick<Kennel, 'name' | 'places'>, change: ChangeContext): Promise<Kennel> {
    if (places > this.maxPlaces) throw ValidationFailedException.forField('places', `places must be at most ${this.maxPlaces}`);
    return this.txHost.withTransaction(async () => {
      const kennel = await this.kennels.create({ name, places });
      await this.audit.record(change, { action: 'kennel.created', details: { kennelId: Number(kennel.id), name, places } });
      return kennel;
    });
  }
}
