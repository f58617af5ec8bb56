import { Test } from '@nestjs/testing';
import { ClsService } from 'nestjs-cls';
import type { QuotaReading } from '../../common/index.js';
import { RateLimitStatusController } from './rate-limit-status.controller.js';

describe('RateLimitStatusController (request context mocked)', () => {
  let reading: QuotaReading | undefined;
  let controller: RateLimitStatusController;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [RateLimitStatusController],
      providers: [{ provide: ClsService, useValue: { get: (key: string) => (key === 'quota' ? reading : undefined) } }],
    }).compile();
    controller = moduleRef.get(RateLimitStatusController);
  });

  it('answers the reading the limiter made for this request', () => {
    reading = {
      plan: 'pro',
      minute: { limit: 300, remaining: 12, reset: 1803902460 },
      day: { limit: 10_000, remaining: 9_000, reset: 1803945600 },
    };
    expect(controller.getRateLimit()).toEqual(reading);
  });

  it('fails loudly on a route the limiter read nothing for', () => {
    reading = undefined;
    expect(() => controller.getRateLimit()).toThrow('is the route marked @UncountedRead()?');
  });
});
