import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { PetsRepository } from '../../src/modules/pets/pets.repository.js';

/**
 * Holds the next creation inside the handler until `release()`: the request is in flight,
 * `entered` resolves once it is, and a retry can be sent meanwhile. Undone by
 * `jest.restoreAllMocks()`.
 */
export function holdNextCreation(app: INestApplication): { entered: Promise<void>; release: () => void } {
  const repository = app.get(PetsRepository);
  const original = repository.create.bind(repository);
  let enter!: () => void;
  const entered = new Promise<void>((resolve) => (enter = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  jest.spyOn(repository, 'create').mockImplementationOnce(async (pet) => {
    enter();
    await gate;
    return original(pet);
  });
  return { entered, release };
}
