import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { Clock } from '../../common/index.js';
import { ClientNotFoundError, ClientsService } from '../plans/index.js';
import type { UsageDay } from './entities/usage-day.entity.js';
import { UsageDaysRepository } from './usage-days.repository.js';
import { InvalidUsagePeriodException } from './usage-period.js';
import { MAX_USAGE_ROWS, UsageService } from './usage.service.js';

const row = (day: string, keyId: number, admitted: number, refused: number): UsageDay => ({ clientId: 7, day, keyId, admitted, refused });

describe('UsageService (the repository and the clients mocked)', () => {
  let service: UsageService;
  const findForClient = jest.fn<UsageDaysRepository['findForClient']>();
  const get = jest.fn<ClientsService['get']>();

  beforeEach(async () => {
    jest.resetAllMocks();
    const moduleRef = await Test.createTestingModule({
      providers: [
        UsageService,
        { provide: UsageDaysRepository, useValue: { findForClient } },
        { provide: ClientsService, useValue: { get } },
        { provide: Clock, useValue: { now: () => new Date('2027-03-01T12:00:00Z') } },
      ],
    }).compile();
    service = moduleRef.get(UsageService);
  });

  it("reads the client's rows of the period, without its id, and sums them", async () => {
    findForClient.mockResolvedValue([row('2027-02-28', 3, 10, 2), row('2027-03-01', 3, 5, 0), row('2027-03-01', 4, 1, 7)]);
    await expect(service.forClient(7, { from: '2027-02-01' })).resolves.toEqual({
      from: '2027-02-01',
      to: '2027-03-01',
      days: [
        { day: '2027-02-28', keyId: 3, admitted: 10, refused: 2 },
        { day: '2027-03-01', keyId: 3, admitted: 5, refused: 0 },
        { day: '2027-03-01', keyId: 4, admitted: 1, refused: 7 },
      ],
      totals: { admitted: 16, refused: 9 },
    });
    expect(get).toHaveBeenCalledWith(7);
    expect(findForClient).toHaveBeenCalledWith(7, { from: '2027-02-01', to: '2027-03-01' }, MAX_USAGE_ROWS + 1);
  });

  it('answers a period without requests with no rows and zero totals', async () => {
    findForClient.mockResolvedValue([]);
    await expect(service.forClient(7)).resolves.toEqual({
      from: '2027-01-31',
      to: '2027-03-01',
      days: [],
      totals: { admitted: 0, refused: 0 },
    });
  });

  it('refuses a bad period before reading anything, and an unknown client', async () => {
    await expect(service.forClient(7, { from: '2027-03-02' })).rejects.toBeInstanceOf(InvalidUsagePeriodException);
    expect(get).not.toHaveBeenCalled();
    get.mockRejectedValue(new ClientNotFoundError(99));
    await expect(service.forClient(99)).rejects.toBeInstanceOf(ClientNotFoundError);
    expect(findForClient).not.toHaveBeenCalled();
  });

  it('refuses a period holding more rows than one answer carries', async () => {
    findForClient.mockResolvedValue(Array.from({ length: MAX_USAGE_ROWS + 1 }, (_, i) => row('2027-03-01', i + 1, 1, 0)));
    await expect(service.forClient(7)).rejects.toThrow(`the period holds more than ${MAX_USAGE_ROWS} rows of usage`);
  });
});
