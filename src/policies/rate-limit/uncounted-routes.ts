import { Injectable, RequestMethod, type OnApplicationBootstrap } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import express, { type Express, type Request } from 'express';
import { allowedMethodsFor } from '../../common/index.js';

/** Marks a GET (`/v1/rate_limit`) whose valid keys' quota the limiter reads, not counts, into the request context's `quota`. */
export const UncountedRead = DiscoveryService.createDecorator<void>();

const pathsOf = (target: object): string[] => [Reflect.getMetadata(PATH_METADATA, target) as string | string[]].flat();

/** As Nest joins a controller's path and a handler's: one slash between parts, none at the end. */
const joined = (base: string, path: string) => `/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

/** The `@UncountedRead()` routes, found at boot: the limiter decides before routing, so it matches them itself, as Express does. */
@Injectable()
export class UncountedRoutes implements OnApplicationBootstrap {
  private readonly routes: Express = express();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    for (const controller of this.discovery.getControllers()) {
      const prototype = Object.getPrototypeOf(controller.instance) as Record<string, object>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        if (this.discovery.getMetadataByDecorator(UncountedRead, controller, name) === undefined) continue;
        // Uncounted writes would be free work for anyone with a key.
        if (Reflect.getMetadata(METHOD_METADATA, prototype[name]) !== RequestMethod.GET) {
          throw new Error(`@UncountedRead() marks GET routes only, not ${controller.name}.${name}`);
        }
        for (const base of pathsOf(controller.metatype!)) {
          for (const path of pathsOf(prototype[name])) this.routes.get(joined(base, path), () => undefined);
        }
      }
    }
  }

  /** `request.path` is relative to where the limiter is mounted, the global prefix, as route paths are. */
  matches(request: Request): boolean {
    return allowedMethodsFor(this.routes, request.path).includes(request.method);
  }
}
