/**
 * The benchmark's ceiling: a bare NestJS 12 application answering `GET /v1/pets` with a fixed
 * 20-animal array from memory. No authentication, rate limiter, validation, logging, metrics,
 * security headers or database: what Nest and its HTTP platform alone cost on this machine.
 * CEILING_PLATFORM picks the platform: unset, Express with the service's own adapter
 * (`ExpressPrototypesAdapter`, server A); `express-default`, Express as Nest sets it up by default
 * (server A3), to show what that adapter saves; `fastify`, `@nestjs/platform-fastify` (server A2),
 * to show what the platform itself costs.
 * Built by `tsc -p bench/ceiling/tsconfig.json` into dist/bench/ceiling (with the adapter in
 * dist/src, as `npm run build` emits it); PORT and HOST as the service.
 */
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ExpressPrototypesAdapter } from '../../src/common/http/express-prototypes.adapter.js';
import { CeilingController } from './ceiling.controller.js';

@Module({ controllers: [CeilingController] })
class CeilingModule {}

const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
const platforms: Record<string, () => Promise<INestApplication>> = {
  express: () => NestFactory.create(CeilingModule, new ExpressPrototypesAdapter(), options),
  'express-default': () => NestFactory.create(CeilingModule, options),
  fastify: () => NestFactory.create(CeilingModule, new FastifyAdapter(), options),
};
const platform = platforms[process.env.CEILING_PLATFORM ?? 'express'];
if (!platform) throw new Error(`CEILING_PLATFORM must be one of ${Object.keys(platforms).join(', ')}`);
const app = await platform();
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
