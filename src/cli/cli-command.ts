import type { AuditQuery } from '../modules/audit/index.js';
import type { PageRequest } from '../common/index.js';
import type { PlanChoice } from '../modules/plans/index.js';
import type { UsagePeriodQuery } from '../modules/usage/index.js';

export type KeyOwner = { clientId: number } | { newClient: { name: string } & PlanChoice };

/** A fully validated command line: executing it needs no further checks of the arguments. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'clients create'; name: string; choice: PlanChoice; json: boolean }
  | { kind: 'clients set-plan'; clientId: number; choice: PlanChoice; json: boolean }
  | { kind: 'clients get'; clientId: number; json: boolean }
  /** Without `page` (no --limit nor --cursor), every client. */
  | { kind: 'clients list'; page?: PageRequest; json: boolean }
  | { kind: 'keys create'; owner: KeyOwner; expiresInMs?: number; scopes?: string[]; json: boolean }
  | { kind: 'keys list'; clientId?: number; page?: PageRequest; json: boolean }
  | { kind: 'keys roll'; keyId: number; overlapMs: number; json: boolean }
  | { kind: 'keys revoke'; keyId: number; json: boolean }
  | { kind: 'audit list'; query: AuditQuery; json: boolean }
  | { kind: 'usage'; clientId: number; period: UsagePeriodQuery; json: boolean }
  | { kind: 'admin-tokens create'; name: string; json: boolean }
  | { kind: 'admin-tokens list'; json: boolean }
  | { kind: 'admin-tokens revoke'; tokenId: number; json: boolean };
