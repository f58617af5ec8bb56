/**
 * The benchmark's ceiling: a bare NestJS 12 application answering `GET /v1/pets` with a fixed
 * 20-animal array from memory. No authentication, rate limiter, validation, logging, metrics,
 * security headers or database: what Nest and its HTTP platform alone cost on this machine.
 * On Express, as the service (server A), or with CEILING_PLATFORM=fastify on Fastify
 * (`@nestjs/platform-fastify`, server A2), to show what the platform itself costs.
 * Built by `tsc -p bench/ceiling/tsconfig.json` into dist/bench/ceiling; PORT and HOST as the service.
 */
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { CeilingController } from './ceiling.controller.js';

@Module({ controllers: [CeilingController] })
class CeilingModule {}

const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
const app: INestApplication =
  process.env.CEILING_PLATFORM === 'fastify'
    ? await NestFactory.create(CeilingModule, new FastifyAdapter(), options)
    : await NestFactory.create(CeilingModule, options);
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
