import { Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OpenApiContributor, type OpenApiContribution } from './openapi-contribution.js';

/** The contributions of every module of the application, in module order. */
@Injectable()
export class OpenApiContributions {
  constructor(private readonly discovery: DiscoveryService) {}

  applyTo(document: OpenAPIObject): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: OpenApiContributor.KEY })) {
      (wrapper.instance as OpenApiContribution).contribute(document);
    }
  }
}
