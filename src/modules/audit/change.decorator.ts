import { createParamDecorator } from '@nestjs/common';
import { requestContext } from '../../common/index.js';
import type { ChangeContext } from './change-context.js';

/** Who makes the handler's change, for its audit event: the request's admin token or API key, and its request id. */
export const Change = createParamDecorator((): ChangeContext => {
  const { adminTokenId, principal, requestId } = requestContext().get();
  if (adminTokenId !== undefined) return { actor: { kind: 'admin-token', id: adminTokenId }, requestId };
  if (principal) return { actor: { kind: 'key', id: principal.keyId }, requestId };
  throw new Error('Change is read only on routes a guard has authenticated');
});
