import type { AuditQuery } from '../modules/audit/index.js';
import type { Scope } from '../modules/auth/index.js';
import type { PlanChoice } from '../modules/plans/index.js';
import type { UsagePeriodQuery } from '../modules/usage/index.js';

export type KeyOwner = { clientId: number } | { newClient: { name: string } & PlanChoice };

/** A fully validated command line: executing it needs no further checks of the arguments. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'clients create'; name: string; choice: PlanChoice; json: boolean }
  | { kind: 'clients set-plan'; clientId: number; choice: PlanChoice; json: boolean }
  | { kind: 'clients list'; json: boolean }
  | { kind: 'keys create'; owner: KeyOwner; expiresInMs?: number; scopes?: Scope[]; json: boolean }
  | { kind: 'keys list'; clientId?: number; json: boolean }
  | { kind: 'keys revoke'; keyId: number; json: boolean }
  | { kind: 'audit list'; query: AuditQuery; json: boolean }
  | { kind: 'usage'; clientId: number; period: UsagePeriodQuery; json: boolean };
