/**
 * The benchmark's peer: the service's list endpoint built the usual NestJS way, to compare the
 * service with side by side. NestJS 12 on Express; a global bearer guard that looks the key's
 * SHA-256 up in the service's `api_keys` table (cached in memory); `Repository.find` with `take`
 * and a `where` on `status`; a class-validator query DTO under the global ValidationPipe; and
 * `@nestjs/throttler` with two named throttlers, `minute` and `day`, per-plan limits, the key as
 * tracker, in Redis. Same database and keys as the service. Built by
 * `tsc -p bench/peers/usual-build/tsconfig.json` into dist/bench/peers/usual-build.
 * Environment: DATABASE_URL (PostgreSQL), REDIS_URL, REDIS_KEY_PREFIX, PORT, HOST.
 */
import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';

const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ['error', 'warn'] });
app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
