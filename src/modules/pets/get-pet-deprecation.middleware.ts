import { Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { Clock } from '../../common/index.js';
import type { PetsConfig } from './pets.config.js';
import { EndpointRemovedException } from './pets.exceptions.js';

/** Marks every response of the deprecated `getPet` (RFC 9745, RFC 8594, the successor) and answers 410 from the sunset on. */
@Injectable()
export class GetPetDeprecationMiddleware implements NestMiddleware {
  private readonly dates = this.config.getOrThrow<PetsConfig>('pets');
  private readonly headers = {
    Deprecation: `@${Math.floor(this.dates.getPetDeprecatedAt.getTime() / 1000)}`,
    Sunset: this.dates.getPetSunset.toUTCString(),
    Link: '</v1/pets>; rel="successor-version"',
  };

  constructor(
    private readonly clock: Clock,
    private readonly config: ConfigService,
  ) {}

  use(_request: Request, response: Response, next: NextFunction): void {
    response.set(this.headers);
    if (this.clock.now() >= this.dates.getPetSunset) throw new EndpointRemovedException(this.dates.getPetSunset);
    next();
  }
}
