import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { Request } from 'express';
import { QuotaReadings } from '../../policies/rate-limit/index.js';
import { RateLimitStatusController } from './rate-limit-status.controller.js';

describe('RateLimitStatusController (readings mocked)', () => {
  const readings = { of: jest.fn<QuotaReadings['of']>() };
  let controller: RateLimitStatusController;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [RateLimitStatusController],
      providers: [{ provide: QuotaReadings, useValue: readings }],
    }).compile();
    controller = moduleRef.get(RateLimitStatusController);
  });

  it('answers the reading the limiter made for this request', () => {
    const request = {} as Request;
    const reading = {
      plan: 'pro',
      minute: { limit: 300, remaining: 12, reset: 1803902460 },
      day: { limit: 10_000, remaining: 9_000, reset: 1803945600 },
    };
    readings.of.mockReturnValue(reading);
    expect(controller.getRateLimit(request)).toEqual(reading);
    expect(readings.of).toHaveBeenCalledWith(request);
  });
});
