import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { Request, Response } from 'express';
import { Counter, Registry } from 'prom-client';
import { metricsRegistry } from './exposition.js';
import { MetricsController } from './metrics.controller.js';

describe('MetricsController', () => {
  let controller: MetricsController;

  beforeEach(async () => {
    const registry = metricsRegistry();
    new Counter({ name: 'jobs_total', help: 'Jobs.', registers: [registry] }).inc();
    const moduleRef = await Test.createTestingModule({
      controllers: [MetricsController],
      providers: [{ provide: Registry, useValue: registry }],
    }).compile();
    controller = moduleRef.get(MetricsController);
  });

  /** The request as Express negotiates it: `accepts` picks among the offered types. */
  const ask = async (chosen: string | false) => {
    const request = { accepts: jest.fn(() => chosen) };
    const response = { type: jest.fn(), vary: jest.fn() };
    const body = await controller.metrics(request as unknown as Request, response as unknown as Response);
    return { body, request, response };
  };

  it('answers Prometheus text by default', async () => {
    const { body, request, response } = await ask('text/plain; version=0.0.4');
    expect(request.accepts).toHaveBeenCalledWith(['text/plain; version=0.0.4', 'application/openmetrics-text; version=1.0.0']);
    expect(response.type).toHaveBeenCalledWith(Registry.PROMETHEUS_CONTENT_TYPE);
    expect(response.vary).toHaveBeenCalledWith('Accept');
    expect(body).toMatch(/^jobs_total 1$/m);
  });

  it('answers OpenMetrics to a scraper that prefers it', async () => {
    const { body, response } = await ask('application/openmetrics-text; version=1.0.0');
    expect(response.type).toHaveBeenCalledWith(Registry.OPENMETRICS_CONTENT_TYPE);
    expect(body).toMatch(/^# TYPE jobs counter\njobs_total 1$/m);
    expect(body.endsWith('# EOF\n')).toBe(true);
  });

  it('answers Prometheus text when the scraper accepts neither (no 406 for a scrape)', async () => {
    const { response } = await ask(false);
    expect(response.type).toHaveBeenCalledWith(Registry.PROMETHEUS_CONTENT_TYPE);
  });
});
