import { isUtf8 } from 'node:buffer';
import contentType from 'content-type';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  type ApiException,
  MalformedJsonException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
  ValidationFailedException,
} from '../errors/api.exception.js';
import { allowedMethodsFor } from './express-routes.js';

const INVALID_UTF8 = 'entity.invalid.utf8';

/** Thousands of brackets in 16 KiB exhausted the stack of the recursive code after the parser (a 500). */
const MAX_JSON_DEPTH = 32;

const LONE_SURROGATE = /\p{Surrogate}/u;

/** How deep a body nests (`{}` is 1), without recursion, and whether a string or key holds a lone surrogate (not storable as UTF-8). */
function inspect(body: unknown): { depth: number; loneSurrogate: boolean } {
  let depth = 0;
  const stack: Array<[unknown, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [value, level] = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { depth, loneSurrogate: true };
    } else if (typeof value === 'object' && value !== null) {
      depth = Math.max(depth, level + 1);
      for (const key of Object.keys(value)) {
        if (LONE_SURROGATE.test(key)) return { depth, loneSurrogate: true };
        stack.push([(value as Record<string, unknown>)[key], level + 1]);
      }
    }
  }
  return { depth, loneSurrogate: false };
}

const hasBody = (request: Request) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

function isJsonUtf8(request: Request): boolean {
  try {
    const { type, parameters } = contentType.parse(request.headers['content-type'] ?? '');
    return type === 'application/json' && (parameters.charset ?? 'utf-8').toLowerCase() === 'utf-8';
  } catch {
    return false;
  }
}

/** The JSON body of a request a route takes (others get their 404 or 405): UTF-8 JSON within the limits, or none (the pipe says). */
export function jsonBodyParser(limit: string): RequestHandler {
  const isRouted = (request: Request) => allowedMethodsFor(request.app, request.originalUrl.split('?')[0]).includes(request.method);
  const parse = express.json({
    limit,
    strict: false,
    type: () => true,
    verify: (_request, _response, buffer) => {
      // body-parser would silently replace invalid sequences with U+FFFD.
      if (!isUtf8(buffer)) throw Object.assign(new Error('invalid UTF-8'), { type: INVALID_UTF8 });
    },
  });
  return async (request: Request, response: Response, next: NextFunction): Promise<void> => {
    if (!hasBody(request) || !isRouted(request)) return next();
    if (!isJsonUtf8(request)) throw new UnsupportedMediaTypeException();
    await new Promise<void>((resolve, reject) =>
      parse(request, response, (error?: unknown) => (error ? reject(toApiException(error, limit)) : resolve())),
    );
    const { depth, loneSurrogate } = inspect(request.body);
    if (loneSurrogate) throw new MalformedJsonException('The body is not valid Unicode text: it escapes a lone surrogate.');
    if (depth > MAX_JSON_DEPTH) {
      throw ValidationFailedException.forField('body', `the body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    next();
  };
}

/** body-parser's errors by type (its `charset.unsupported` cannot come: the charset was checked first); any other is malformed JSON. */
const PARSE_ERRORS = new Map<unknown, (limit: string) => ApiException>([
  [INVALID_UTF8, () => new MalformedJsonException('The body is not valid UTF-8.')],
  ['entity.too.large', (limit) => new PayloadTooLargeException(limit)],
  ['encoding.unsupported', () => new UnsupportedMediaTypeException()],
]);

function toApiException(error: unknown, limit: string): ApiException {
  return PARSE_ERRORS.get((error as { type?: unknown }).type)?.(limit) ?? new MalformedJsonException();
}
