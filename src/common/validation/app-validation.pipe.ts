import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { ValidationFailedException } from '../errors/api.exception.js';
import type { ErrorDetailDto } from '../errors/error.dto.js';

/** A body property that may be left out: `IsOptional` also let `"status": null` through to the database (a 500). */
export const OmittableProperty = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);

/** Plain digits become a number; anything else (`1.5`, `0x10`, ` 5`, a repeated parameter) is left for the validators to refuse. */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value));

/** Keys class-transformer drops silently, unseen by the whitelist (`{"toString": 0}`): `__proto__`, `prototype`, inherited names. */
function silentlyDroppedKeys(value: object, metatype: unknown): string[] {
  const prototype: unknown = typeof metatype === 'function' ? metatype.prototype : undefined;
  const instance = typeof prototype === 'object' && prototype !== null ? prototype : Object.prototype;
  return Object.keys(value).filter((key) => key === '__proto__' || key === 'prototype' || key in instance);
}

/** The Error schema's limits; nothing we accept has anywhere near MAX_DETAILS properties. */
const MAX_FIELD = 200;
const MAX_DETAILS = 100;
const MAX_MESSAGE = 1000;

/** Property names come from the client: escaped and cut to the Error schema's lengths. */
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

/** Strips nothing silently (unknown properties and parameters are refused) and reports `validation_failed` with `details`. */
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
