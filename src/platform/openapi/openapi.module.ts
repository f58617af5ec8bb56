import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OpenApiContributions } from './openapi-contributions.js';

/** Collects the modules' OpenAPI contributions for the document builder. */
@Module({
  imports: [DiscoveryModule],
  providers: [OpenApiContributions],
  exports: [OpenApiContributions],
})
export class OpenApiModule {}
