import { jest } from '@jest/globals';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HealthCheckService, type HealthCheckResult, type HealthIndicatorFunction } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import type { Response } from 'express';
import { HealthController } from './health.controller.js';
import { ReadinessIndicator, type ReadinessCheck } from './readiness-indicator.js';

@ReadinessIndicator()
@Injectable()
class FakeIndicator implements ReadinessCheck {
  check = jest.fn<ReadinessCheck['check']>();
}

const ok: HealthCheckResult = { status: 'ok', info: {}, error: {}, details: {} };

describe('HealthController (terminus mocked)', () => {
  const health = { check: jest.fn<(indicators: HealthIndicatorFunction[]) => Promise<HealthCheckResult>>() };
  let controller: HealthController;
  let indicator: FakeIndicator;
  const response = () => ({ status: jest.fn() });

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule],
      controllers: [HealthController],
      providers: [{ provide: HealthCheckService, useValue: health }, FakeIndicator],
    }).compile();
    await moduleRef.init();
    controller = moduleRef.get(HealthController);
    indicator = moduleRef.get(FakeIndicator);
  });
  afterEach(() => jest.resetAllMocks());

  it('checks liveness with no indicator at all', async () => {
    health.check.mockResolvedValue(ok);
    await expect(controller.live(response() as unknown as Response)).resolves.toBe(ok);
    expect(health.check).toHaveBeenCalledWith([]);
  });

  it("checks readiness with every module's @ReadinessIndicator() provider", async () => {
    health.check.mockImplementation(async (indicators) => {
      for (const run of indicators) if (typeof run === 'function') await run();
      return ok;
    });
    indicator.check.mockResolvedValue({ fake: { status: 'up' } });
    await expect(controller.ready(response() as unknown as Response)).resolves.toBe(ok);
    expect(indicator.check).toHaveBeenCalledTimes(1);
  });

  it('answers 503 with the terminus body when a check fails', async () => {
    const failed: HealthCheckResult = { status: 'error', info: {}, error: { database: { status: 'down' } }, details: {} };
    health.check.mockRejectedValue(new ServiceUnavailableException(failed));
    const res = response();
    await expect(controller.ready(res as unknown as Response)).resolves.toEqual(failed);
    expect(res.status).toHaveBeenCalledWith(503);
  });

  it('lets any other error through to the global filter', async () => {
    const bug = new Error('bug');
    health.check.mockRejectedValue(bug);
    await expect(controller.ready(response() as unknown as Response)).rejects.toBe(bug);
  });
});
