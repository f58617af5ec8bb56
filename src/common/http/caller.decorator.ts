import { createParamDecorator } from '@nestjs/common';
import { requestContext, type Principal } from '../context/request-context.js';

/** The key and client calling: every route here is behind the API key guard, which sets it. */
export const Caller = createParamDecorator((): Principal => {
  const principal = requestContext().get('principal');
  if (!principal) throw new Error('Caller is read only on routes the API key guard has authenticated');
  return principal;
});
