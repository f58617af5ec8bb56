import type { ApiKeyView, IssuedKey } from '../modules/auth/index.js';
import type { ClientView } from '../modules/plans/index.js';
import type { CommandOutput } from '../common/index.js';

export const STORE_IT = 'Store it now: it is shown only this once and cannot be recovered.';

export function describePlan({ plan, limits }: ClientView): string {
  return `plan ${plan} (${limits.perMinute}/min, ${limits.perDay}/day)`;
}

/** A new key as `keys create` and `keys roll` print it, and as the admin API answers: its fields, its client's plan, the key. */
export function keyShown({ key, apiKey }: IssuedKey, client: ClientView, summary: string): CommandOutput {
  const json: ApiKeyView & { plan: string; key: string } = { ...apiKey, plan: client.plan, key };
  return { json, text: [summary, key, STORE_IT].join('\n') };
}

export function revoked(what: string, id: number, alreadyRevoked: boolean): CommandOutput {
  const capitalised = what[0].toUpperCase() + what.slice(1);
  return {
    json: { id, revoked: true, alreadyRevoked },
    text: alreadyRevoked
      ? `${capitalised} ${id} was already revoked; nothing to do.`
      : `Revoked ${what} ${id}. Every server refuses it within 5 seconds.`,
  };
}
