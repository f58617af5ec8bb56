import type { NewPet, Pet, Query } from '../contract.js';
import { paginate } from '../pagination.js';
import type { CreateOptions, RequestOptions } from '../request-options.js';
import type { Transport } from '../transport.js';

export type PetListQuery = Omit<Query<'listPets'>, 'cursor'>;

/** The animals: `listPets`, `createPet`, `getPet`. */
export class Pets {
  constructor(private readonly transport: Transport) {}

  /** Every animal, in ascending id order, page after page as you iterate: `for await (const pet of client.pets.list())`. */
  list(query: PetListQuery = {}, { signal }: RequestOptions = {}): AsyncIterable<Pet> {
    return paginate<Pet>(this.transport, { operation: 'listPets', method: 'GET', url: this.transport.url('/pets', query), signal });
  }

  /** Creates an animal; retried under one Idempotency-Key, so it is created once. */
  create(body: NewPet, options: CreateOptions = {}): Promise<Pet> {
    return this.transport.request<Pet>({ operation: 'createPet', method: 'POST', url: this.transport.url('/pets'), body, ...options });
  }

  /**
   * One animal.
   * @deprecated The service deprecated `getPet` and removes it at its sunset (then a GoneError):
   * use {@link Pets.list}. Its first answer is reported to the client's `onDeprecation`.
   */
  get(petId: number, { signal }: RequestOptions = {}): Promise<Pet> {
    return this.transport.request<Pet>({ operation: 'getPet', method: 'GET', url: this.transport.url(`/pets/${petId}`), signal });
  }
}
