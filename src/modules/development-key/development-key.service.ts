import { Injectable } from '@nestjs/common';
import { ApiKeysService } from '../auth/index.js';
import { ClientsService } from '../plans/index.js';

/**
 * Outside production, the first start on an empty database creates a development client on
 * the free plan with one key, so a newcomer can call the API straight away.
 */
@Injectable()
export class DevelopmentKeyService {
  constructor(
    private readonly clients: ClientsService,
    private readonly keys: ApiKeysService,
  ) {}

  /** The new key, or undefined when the database already has clients. */
  async createIfEmpty(): Promise<string | undefined> {
    if (!(await this.clients.isEmpty())) return undefined;
    const client = await this.clients.create('Development', 'free');
    return (await this.keys.issue(client.id)).key;
  }
}
