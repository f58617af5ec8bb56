import { MAX_PAGE_SIZE } from '../common/index.js';
import { DEFAULT_AUDIT_PAGE_SIZE, MAX_AUDIT_PAGE_SIZE } from '../modules/audit/index.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../modules/keys/index.js';
import { FIXED_PLAN_NAMES, PLAN_CATALOGUE, PLAN_NAMES } from '../modules/plans/index.js';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS } from '../modules/usage/index.js';
import { SCOPE_NAMES, SERVER_PARTS } from './server-catalogues.js';

const customPlans = PLAN_NAMES.filter((plan) => PLAN_CATALOGUE[plan].custom);
const defaultScopes = SERVER_PARTS.scopes.filter(({ byDefault }) => byDefault).map(({ name }) => name);
/** Each module's commands under its title, as it declares them. */
const moduleSections = SERVER_PARTS.cliCommands.map(({ title, help }) => `${title}\n${help.replace(/^/gm, '  ')}\n\n`).join('');

export const USAGE = `Usage: node dist/src/cli.js <command> [options]   (or: npm run cli -- <command> [options])

Manages the clients, API keys and admin tokens of the Pet Adoption Service, and reads their usage
and the audit log, in the server's own database (DATABASE_URL; unset: the embedded PostgreSQL
of data/postgres, running or not). The admin API does the same.

Clients
  clients create --name NAME --plan PLAN [--per-minute N --per-day N] [--json]
  clients set-plan CLIENT_ID --plan PLAN [--per-minute N --per-day N] [--json]
  clients get CLIENT_ID [--json]
  clients list [--limit N] [--cursor CURSOR] [--json]

API keys
  keys create --client CLIENT_ID [--scopes SCOPES] [--expires-in DURATION] [--json]
  keys create --plan PLAN [--name NAME] [--per-minute N --per-day N] [--scopes SCOPES] [--expires-in DURATION] [--json]
      makes a new client on PLAN (named "PLAN client" unless --name is given) and its first key
  keys list [--client CLIENT_ID] [--limit N] [--cursor CURSOR] [--json]
                                               shows key prefixes and scopes, never keys
  keys roll KEY_ID [--overlap DURATION] [--json]
      a new key of the same name and scopes; the old one works DURATION more (default ${DEFAULT_OVERLAP_SECONDS / 3600}h, at most ${MAX_OVERLAP_SECONDS / 86_400}d)
  keys revoke KEY_ID [--json]

Audit log
  audit list [--client CLIENT_ID] [--action ACTION] [--limit N] [--cursor CURSOR] [--json]
      the changes to clients, plans and keys, newest first, N at a time (${DEFAULT_AUDIT_PAGE_SIZE}; at most ${MAX_AUDIT_PAGE_SIZE});
      --cursor gives the next, older page: the cursor the last page printed, with the same filters

Usage
  usage --client CLIENT_ID [--from DAY] [--to DAY] [--json]
      requests admitted and refused (429) per UTC day and key; DAY is YYYY-MM-DD, by default
      the ${DEFAULT_USAGE_DAYS} days ending today, at most ${MAX_USAGE_DAYS}

${moduleSections}Admin tokens (for the admin API, on ADMIN_PORT)
  admin-tokens create --name NAME [--json]     prints the token once
  admin-tokens list [--json]
  admin-tokens revoke TOKEN_ID [--json]

  help, --help, -h                             prints this text

Plans: ${FIXED_PLAN_NAMES.join(', ')} have fixed limits and refuse --per-minute/--per-day;
${customPlans.join(', ')} needs both. Limits and ids are positive integers.
SCOPES is a comma-separated list of ${SCOPE_NAMES.join(', ')}, such as pets:read,keys:manage;
without --scopes a key has ${defaultScopes.join(',')}.
DURATION is a number and a unit: 90s, 45m, 12h or 30d.
ACTION is one of ${SERVER_PARTS.auditActions.join(', ')}.
Lists show everything unless --limit (at most ${MAX_PAGE_SIZE}) or --cursor asks for a page; a page
that is not the last ends with the --cursor of the next.
A new key or token is printed once, when it is created; only its hash is stored.
--json prints exactly one JSON object on stdout.

Exit codes: 0 done, 1 the command failed (for example an unknown id), 2 bad arguments.
`;
