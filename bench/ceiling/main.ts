/**
 * The benchmark's ceiling: a bare NestJS 12 application on the service's Express adapter, answering
 * `GET /v1/pets` with a fixed 20-animal array from memory; no authentication, limiter, validation,
 * logging, metrics, security headers or database. Built by `tsc -p bench/ceiling/tsconfig.json` into
 * dist/bench/ceiling (the adapter in dist/src, as `npm run build` emits it); PORT and HOST as the service.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressPrototypesAdapter } from '../../src/common/http/express-prototypes.adapter.js';
import { CeilingController } from './ceiling.controller.js';

@Module({ controllers: [CeilingController] })
class CeilingModule {}

const app = await NestFactory.create(CeilingModule, new ExpressPrototypesAdapter(), { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
