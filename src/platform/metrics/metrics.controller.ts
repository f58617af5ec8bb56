import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../../common/index.js';

/** Prometheus text format; no key (bind it to an internal network or firewall it in production). */
@Public()
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  async metrics(@Res({ passthrough: true }) response: Response): Promise<string> {
    response.type(this.registry.contentType);
    return this.registry.metrics();
  }
}
