/**
 * The benchmark's ceiling: a bare NestJS 12 Express application answering `GET /v1/pets` with a
 * fixed 20-animal array from memory. No authentication, rate limiter, validation, logging,
 * metrics, security headers or database: what Nest and Express alone cost on this machine.
 * Built by `tsc -p bench/ceiling/tsconfig.json` into dist/bench/ceiling; PORT and HOST as the service.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CeilingController } from './ceiling.controller.js';

@Module({ controllers: [CeilingController] })
class CeilingModule {}

const app = await NestFactory.create<NestExpressApplication>(CeilingModule, { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
