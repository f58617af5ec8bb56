import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { UsageController } from './usage.controller.js';
import { UsageService, type ClientUsage } from './usage.service.js';

describe('UsageController (the service mocked)', () => {
  const forClient = jest.fn<UsageService['forClient']>();
  let controller: UsageController;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [UsageController],
      providers: [{ provide: UsageService, useValue: { forClient } }],
    }).compile();
    controller = moduleRef.get(UsageController);
  });

  it("answers the calling key's client's usage for the period asked", async () => {
    const usage: ClientUsage = { from: '2027-02-01', to: '2027-03-01', days: [], totals: { admitted: 0, refused: 0 } };
    forClient.mockResolvedValue(usage);
    await expect(controller.getUsage({ keyId: 3, clientId: 7, scopes: ['keys:manage'] }, { from: '2027-02-01' })).resolves.toBe(usage);
    expect(forClient).toHaveBeenCalledWith(7, { from: '2027-02-01' });
  });
});
