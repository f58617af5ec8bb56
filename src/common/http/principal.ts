import type { Request } from 'express';

/** Who is calling: the key that authenticated the request, the client it belongs to, and what the key may do. */
export interface Principal {
  keyId: number;
  clientId: number;
  /** Names from the auth module's scope catalogue, read with the key. */
  scopes: readonly string[];
}

const PRINCIPAL = Symbol('principal');

type WithPrincipal = Request & { [PRINCIPAL]?: Principal };

export function setPrincipal(request: Request, principal: Principal): void {
  (request as WithPrincipal)[PRINCIPAL] = principal;
}

export function principalOf(request: Request): Principal | undefined {
  return (request as WithPrincipal)[PRINCIPAL];
}
