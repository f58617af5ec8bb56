import { jest } from '@jest/globals';
import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { Request, Response } from 'express';
import { PetStatus } from './pet-status.js';
import { PetsController } from './pets.controller.js';
import { PetNotFoundException } from './pets.exceptions.js';
import { PetsService } from './pets.service.js';

const rex = { id: 7, name: 'Rex', categoryId: 3, status: PetStatus.Available };

describe('PetsController (service mocked)', () => {
  const pets = { list: jest.fn<PetsService['list']>(), create: jest.fn<PetsService['create']>(), get: jest.fn<PetsService['get']>() };
  let controller: PetsController;
  const request = {} as Request;
  const response = () => ({ setHeader: jest.fn() });

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [PetsController],
      providers: [
        { provide: PetsService, useValue: pets },
        { provide: ConfigService, useValue: { getOrThrow: () => ({ publicBaseUrl: 'https://api.pets.example/v1' }) } },
      ],
    }).compile();
    controller = moduleRef.get(PetsController);
  });
  afterEach(() => jest.resetAllMocks());

  it('lists a page and links the next one, keeping the limit and the status filter', async () => {
    pets.list.mockResolvedValue({ items: [rex], nextCursor: 'abc' });
    const res = response();
    await expect(controller.listPets({ limit: 1, status: PetStatus.Available }, request, res as unknown as Response)).resolves.toEqual([
      rex,
    ]);
    expect(pets.list).toHaveBeenCalledWith({ limit: 1, status: PetStatus.Available });
    expect(res.setHeader).toHaveBeenCalledWith(
      'Link',
      '<https://api.pets.example/v1/pets?limit=1&status=available&cursor=abc>; rel="next"',
    );
  });

  it('sends no Link on the last page', async () => {
    pets.list.mockResolvedValue({ items: [], nextCursor: null });
    const res = response();
    await controller.listPets({}, request, res as unknown as Response);
    expect(res.setHeader).not.toHaveBeenCalled();
  });

  it('creates an animal and points Location at it', async () => {
    pets.create.mockResolvedValue(rex);
    const res = response();
    await expect(controller.createPet({ name: 'Rex', categoryId: 3 }, request, res as unknown as Response)).resolves.toEqual(rex);
    expect(res.setHeader).toHaveBeenCalledWith('Location', 'https://api.pets.example/v1/pets/7');
  });

  it("returns the service's animal, and lets its not-found error through", async () => {
    pets.get.mockResolvedValueOnce(rex).mockRejectedValueOnce(new PetNotFoundException(8));
    await expect(controller.getPet({ petId: 7 })).resolves.toEqual(rex);
    await expect(controller.getPet({ petId: 8 })).rejects.toBeInstanceOf(PetNotFoundException);
  });
});
