import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestIdOf } from '../../common/index.js';
import type { ChangeContext } from '../audit/index.js';

const ADMIN_TOKEN_ID = Symbol('adminTokenId');

type WithAdminToken = Request & { [ADMIN_TOKEN_ID]?: number };

/** Set by AdminAuthentication once it has admitted the request's admin token. */
export function setAdminTokenId(request: Request, id: number): void {
  (request as WithAdminToken)[ADMIN_TOKEN_ID] = id;
}

/** Who makes an admin API change, for its audit event: the admitted admin token, and the request id. */
export const AdminChange = createParamDecorator((_data: unknown, context: ExecutionContext): ChangeContext => {
  const request = context.switchToHttp().getRequest<Request>();
  const id = (request as WithAdminToken)[ADMIN_TOKEN_ID];
  if (id === undefined) throw new Error('AdminChange is read only on routes AdminAuthentication has admitted');
  return { actor: { kind: 'admin-token', id }, requestId: requestIdOf(request) };
});
