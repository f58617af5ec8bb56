import { Injectable, ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import { ValidationFailedException } from '../errors/api.exception.js';
import type { ErrorDetailDto } from '../errors/error.dto.js';

/**
 * Marks a body property that may be left out. class-validator's `IsOptional` skips `null` as
 * well, so `"status": null` passed validation and reached the database as NULL (a 500); here only
 * an absent property skips its validators, and `null` is refused like any other wrong value.
 */
export const OmittableProperty = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);

/**
 * The keys class-transformer drops silently while it builds the DTO, so the whitelist never sees
 * them: `__proto__`, `constructor`, and every name the DTO instance already has through its
 * prototype chain (`toString`, `valueOf`, `hasOwnProperty`, `__defineGetter__`...), which it takes
 * for methods. `{"toString": 0}` in a body or `?valueOf=1` in a query passed unnoticed; refusing
 * them keeps "unknown properties and parameters are refused" true. `prototype` for good measure.
 */
function silentlyDroppedKeys(value: object, metatype: unknown): string[] {
  const prototype: unknown = typeof metatype === 'function' ? metatype.prototype : undefined;
  const instance = typeof prototype === 'object' && prototype !== null ? prototype : Object.prototype;
  return Object.keys(value).filter((key) => key === '__proto__' || key === 'prototype' || key in instance);
}

const MAX_FIELD = 200;
/** The Error schema allows 100 details; nothing we accept has anywhere near that many properties. */
const MAX_DETAILS = 100;
const MAX_MESSAGE = 1000;

/**
 * Unknown property names come from the client: control characters are escaped and the
 * text is cut to the lengths the Error schema allows, so a hostile key cannot break it.
 */
function clip(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point
  const printable = text.replace(/[\u0000-\u001F\u007F]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return printable.length <= max ? printable : `${printable.slice(0, max - 1)}…`;
}

function toDetails(errors: ValidationError[], parent = ''): ErrorDetailDto[] {
  return errors.flatMap((error) => {
    const field = clip(parent ? `${parent}.${error.property}` : error.property, MAX_FIELD);
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message: clip(message, MAX_MESSAGE) }));
    return [...own, ...toDetails(error.children ?? [], field)];
  });
}

/**
 * The global validation pipe: strips nothing silently (unknown properties and parameters are
 * refused), transforms DTOs, and reports every problem as `validation_failed` with `details`.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      transform: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailedException(toDetails(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'custom') return value;
    if (metadata.type === 'body' && value === undefined) value = {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw ValidationFailedException.forField(metadata.type, `the ${metadata.type} must be a JSON object`);
    }
    const forbidden = silentlyDroppedKeys(value, metadata.metatype);
    if (forbidden.length > 0) {
      throw new ValidationFailedException(forbidden.map((field) => ({ field, message: `property ${field} should not exist` })));
    }
    const keys = Object.keys(value);
    if (keys.length > MAX_DETAILS) {
      throw ValidationFailedException.forField(
        metadata.type,
        `the ${metadata.type} has ${keys.length} properties; at most ${MAX_DETAILS} are read`,
      );
    }
    return super.transform(value, metadata);
  }
}
