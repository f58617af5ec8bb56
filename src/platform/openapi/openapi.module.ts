import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

/** The discovery the document builder finds the modules' `@OpenApiContributor()` providers with. */
@Module({ imports: [DiscoveryModule] })
export class OpenApiModule {}
