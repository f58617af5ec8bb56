import { AUDIT_ACTIONS, DEFAULT_AUDIT_PAGE_SIZE, MAX_AUDIT_PAGE_SIZE } from '../modules/audit/index.js';
import { DEFAULT_SCOPES, SCOPES } from '../modules/auth/index.js';
import { FIXED_PLAN_NAMES, PLAN_CATALOGUE, PLAN_NAMES } from '../modules/plans/index.js';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../modules/usage/index.js';

const customPlans = PLAN_NAMES.filter((plan) => PLAN_CATALOGUE[plan].custom);

export const USAGE = `Usage: node dist/src/cli.js <command> [options]   (or: npm run cli -- <command> [options])

Manages the clients and API keys of the Pet Adoption Service, and reads their usage and the audit
log, in the server's own database (DATABASE_URL; unset: the SQLite file data/pets.sqlite).

Clients
  clients create --name NAME --plan PLAN [--per-minute N --per-day N] [--json]
  clients set-plan CLIENT_ID --plan PLAN [--per-minute N --per-day N] [--json]
  clients list [--json]

API keys
  keys create --client CLIENT_ID [--scopes SCOPES] [--expires-in DURATION] [--json]
  keys create --plan PLAN [--name NAME] [--per-minute N --per-day N] [--scopes SCOPES] [--expires-in DURATION] [--json]
      makes a new client on PLAN (named "PLAN client" unless --name is given) and its first key
  keys list [--client CLIENT_ID] [--json]      shows key prefixes and scopes, never keys
  keys revoke KEY_ID [--json]

Audit log
  audit list [--client CLIENT_ID] [--action ACTION] [--limit N] [--cursor CURSOR] [--json]
      the changes to clients, plans and keys, newest first, N at a time (${DEFAULT_AUDIT_PAGE_SIZE}; at most ${MAX_AUDIT_PAGE_SIZE});
      --cursor gives the next, older page: the cursor the last page printed, with the same filters

Usage
  usage --client CLIENT_ID [--from DAY] [--to DAY] [--json]
      requests admitted and refused (429) per UTC day and key; DAY is YYYY-MM-DD, by default
      the ${DEFAULT_USAGE_DAYS} days ending today, at most ${MAX_USAGE_DAYS}

  help, --help, -h                             prints this text

Plans: ${FIXED_PLAN_NAMES.join(', ')} have fixed limits and refuse --per-minute/--per-day;
${customPlans.join(', ')} needs both. Limits and ids are positive integers.
SCOPES is a comma-separated list of ${SCOPES.join(', ')}, such as pets:read,keys:manage;
without --scopes a key has ${DEFAULT_SCOPES.join(',')}.
DURATION is a number and a unit: 90s, 45m, 12h or 30d.
ACTION is one of ${AUDIT_ACTIONS.join(', ')}.
A new key is printed once, when it is created; only its hash is stored.
--json prints exactly one JSON object on stdout.

Exit codes: 0 done, 1 the command failed (for example an unknown id), 2 bad arguments.
`;
