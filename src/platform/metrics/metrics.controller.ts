import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../../common/index.js';
import { exposition, OPENMETRICS_TEXT, PROMETHEUS_TEXT } from './exposition.js';

/** Default first, with versions: Express matches an Accept entry's parameters (Prometheus sends one) only against an offer's. */
const FORMATS = [PROMETHEUS_TEXT, OPENMETRICS_TEXT].map((type) => type.replace(/; charset=.*/, ''));

/** Prometheus text format, or OpenMetrics when asked; no key (bind it to an internal network or firewall it in production). */
@Public()
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly registry: Registry) {}

  @Get()
  async metrics(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    response.vary('Accept');
    const contentType = request.accepts(FORMATS) === FORMATS[1] ? OPENMETRICS_TEXT : PROMETHEUS_TEXT;
    response.type(contentType);
    return exposition(this.registry, contentType);
  }
}
