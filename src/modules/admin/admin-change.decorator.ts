import { createParamDecorator } from '@nestjs/common';
import { requestContext } from '../../common/index.js';
import type { ChangeContext } from '../audit/index.js';

/** Who makes an admin API change, for its audit event: the admitted admin token, and the request id. */
export const AdminChange = createParamDecorator((): ChangeContext => {
  const { adminTokenId: id, requestId } = requestContext().get();
  if (id === undefined) throw new Error('AdminChange is read only on routes AdminAuthentication has admitted');
  return { actor: { kind: 'admin-token', id }, requestId };
});
