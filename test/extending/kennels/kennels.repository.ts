import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, type Repository } from 'typeorm';
import { TransactionHost } from '../../../src/platform/database/index.js';
import { Kennel } from './entities/kennel.entity.js';

@Injectable()
export class KennelsRepository {
  constructor(
    @InjectRepository(Kennel) private readonly kennels: Repository<Kennel>,
    private readonly txHost: TransactionHost,
  ) {}

  /** Up to `take` kennels after the id `after` (from the first without), ascending: a keyset page. */
  findPage(after: number | undefined, take: number): Promise<Kennel[]> {
    return this.kennels.find({ where: after === undefined ? {} : { id: MoreThan(after) }, order: { id: 'ASC' }, take });
  }

  findById(id: number): Promise<Kennel | null> {
    return this.kennels.findOneBy({ id });
  }

  /** Through `txHost.tx`: joins the transaction the change runs in. */
  create(kennel: Pick<Kennel, 'name' | 'places'>): Promise<Kennel> {
    const kennels = this.txHost.tx.getRepository(Kennel);
    return kennels.save(kennels.create(kennel));
  }
}
