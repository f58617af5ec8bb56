import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

/** DiscoveryService, with which the document builder finds the modules' `@OpenApiContributor()` providers. */
@Module({ imports: [DiscoveryModule] })
export class OpenApiModule {}
