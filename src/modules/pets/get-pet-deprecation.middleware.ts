import { Injectable, type NestMiddleware } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { NextFunction, Request, Response } from 'express';
import { Clock } from '../../common/index.js';
import type { PetsConfig } from './pets.config.js';
import { EndpointRemovedException } from './pets.exceptions.js';

/** Marks every response of the deprecated `getPet` (RFC 9745, RFC 8594, the successor) and answers 410 from the sunset on. */
@Injectable()
export class GetPetDeprecationMiddleware implements NestMiddleware {
  private readonly sunset: Date;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly clock: Clock,
    config: ConfigService,
  ) {
    const { getPetDeprecatedAt, getPetSunset } = config.getOrThrow<PetsConfig>('pets');
    this.sunset = getPetSunset;
    this.headers = {
      Deprecation: `@${Math.floor(getPetDeprecatedAt.getTime() / 1000)}`,
      Sunset: getPetSunset.toUTCString(),
      Link: '</v1/pets>; rel="successor-version"',
    };
  }

  use(_request: Request, response: Response, next: NextFunction): void {
    response.set(this.headers);
    if (this.clock.now() >= this.sunset) throw new EndpointRemovedException(this.sunset);
    next();
  }
}
