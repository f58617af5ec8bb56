import { jest } from '@jest/globals';
import { Test } from '@nestjs/testing';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { MetricsController } from './metrics.controller.js';

describe('MetricsController (registry mocked)', () => {
  it("answers the registry's text with the registry's content type", async () => {
    const registry = { contentType: 'text/plain; version=0.0.4; charset=utf-8', metrics: jest.fn(() => Promise.resolve('up 1\n')) };
    const moduleRef = await Test.createTestingModule({
      controllers: [MetricsController],
      providers: [{ provide: Registry, useValue: registry }],
    }).compile();
    const response = { type: jest.fn() };
    await expect(moduleRef.get(MetricsController).metrics(response as unknown as Response)).resolves.toBe('up 1\n');
    expect(response.type).toHaveBeenCalledWith(registry.contentType);
  });
});
