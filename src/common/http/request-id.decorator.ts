import { createParamDecorator } from '@nestjs/common';
import { requestContext } from '../context/request-context.js';

/** The request's `X-Request-Id`, for a handler to pass on explicitly (into an audit event, say). */
export const RequestId = createParamDecorator((): string => requestContext().get('requestId'));
