import type { Request } from 'express';

/** Who is calling: the key that authenticated the request and the client it belongs to. */
export interface Principal {
  keyId: number;
  clientId: number;
}

const PRINCIPAL = Symbol('principal');

type WithPrincipal = Request & { [PRINCIPAL]?: Principal };

export function setPrincipal(request: Request, principal: Principal): void {
  (request as WithPrincipal)[PRINCIPAL] = principal;
}

export function principalOf(request: Request): Principal | undefined {
  return (request as WithPrincipal)[PRINCIPAL];
}
