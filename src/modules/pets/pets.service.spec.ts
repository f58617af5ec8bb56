import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { encodeCursor, ValidationFailedException } from '../../common/index.js';
import type { Pet } from './entities/pet.entity.js';
import { PetStatus } from './pet-status.js';
import { PetNotFoundException } from './pets.exceptions.js';
import { PetsRepository } from './pets.repository.js';
import { PetsService } from './pets.service.js';

const pet = (id: number, status = PetStatus.Available) => ({ id, name: `Pet ${id}`, categoryId: 1, status }) as Pet;

describe('PetsService', () => {
  let service: PetsService;
  const repository = {
    findPage: jest.fn<PetsRepository['findPage']>(),
    findById: jest.fn<PetsRepository['findById']>(),
    create: jest.fn<PetsRepository['create']>(),
  };

  beforeEach(async () => {
    jest.resetAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [PetsService, { provide: PetsRepository, useValue: repository }],
    }).compile();
    service = moduleRef.get(PetsService);
  });

  it('reads the first page from the start with the default size', async () => {
    repository.findPage.mockResolvedValue([pet(1)]);
    await expect(service.list({})).resolves.toEqual({ items: [pet(1)], nextCursor: null });
    expect(repository.findPage).toHaveBeenCalledWith(undefined, 21, undefined);
  });

  it('hands out a cursor after the last animal when there is more, and continues from it', async () => {
    repository.findPage.mockResolvedValue([pet(4, PetStatus.Sold), pet(9, PetStatus.Sold), pet(11, PetStatus.Sold)]);
    const page = await service.list({ limit: 2, status: PetStatus.Sold });
    expect(page.items).toEqual([pet(4, PetStatus.Sold), pet(9, PetStatus.Sold)]);
    repository.findPage.mockResolvedValue([]);
    await service.list({ limit: 2, status: PetStatus.Sold, cursor: page.nextCursor! });
    expect(repository.findPage).toHaveBeenLastCalledWith(9, 3, PetStatus.Sold);
  });

  it.each([
    ['garbage', 'garbage'],
    ['an id below 1', encodeCursor({ after: 0, status: null })],
    ['an id that is not an integer', encodeCursor({ after: '5', status: null })],
    ['another filter', encodeCursor({ after: 5, status: 'sold' })],
  ])('refuses a cursor with %s', async (_case, cursor) => {
    await expect(service.list({ cursor })).rejects.toBeInstanceOf(ValidationFailedException);
    expect(repository.findPage).not.toHaveBeenCalled();
  });

  it('creates with status available unless told otherwise', async () => {
    repository.create.mockImplementation((p) => Promise.resolve({ ...p, id: 1 } as Pet));
    await service.create({ name: 'Rex', categoryId: 3 });
    expect(repository.create).toHaveBeenCalledWith({ name: 'Rex', categoryId: 3, status: PetStatus.Available });
    await service.create({ name: 'Rex', categoryId: 3, status: PetStatus.Pending });
    expect(repository.create).toHaveBeenLastCalledWith({ name: 'Rex', categoryId: 3, status: PetStatus.Pending });
  });

  it('raises not found for an unknown id', async () => {
    repository.findById.mockResolvedValue(null);
    await expect(service.get(5)).rejects.toBeInstanceOf(PetNotFoundException);
  });
});
