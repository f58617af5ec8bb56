import {
  cell,
  cliCommand,
  DEFAULT_PAGE_SIZE,
  formatTable,
  id,
  MAX_PAGE_SIZE,
  pageOf,
  PAGE_OPTIONS,
  readArgs,
  required,
  type CliCommandGroup,
} from '../../common/index.js';
import type { ChangeContext } from '../audit/index.js';
import { ClientsService } from '../plans/index.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

const BY_CLI: ChangeContext = { actor: { kind: 'cli' } };

/** The `webhooks` commands of the operator's tool: as the admin API's webhook routes, on the same service methods; never a secret. */
export const WEBHOOKS_COMMANDS: CliCommandGroup = {
  name: 'webhooks',
  title: 'Webhook endpoints',
  help: `webhooks list --client CLIENT_ID [--json]     hosts and events, never a URL's path or a secret
webhooks deliveries ENDPOINT_ID [--limit N] [--cursor CURSOR] [--json]
    the attempts, newest first, N at a time (${DEFAULT_PAGE_SIZE}; at most ${MAX_PAGE_SIZE}); --cursor gives the next, older page
webhooks disable ENDPOINT_ID [--json]         sends it nothing until its client enables it again`,
  commands: {
    list: cliCommand(
      (args) => {
        const { client: clientId, json } = readArgs(args, { client: required(id) });
        return { clientId, json };
      },
      async (app, { clientId }) => {
        await app.get(ClientsService).get(clientId);
        const webhookEndpoints = await app.get(WebhookEndpointsService).listForOperator(clientId);
        const rows = webhookEndpoints.map((e) =>
          [e.id, e.host, e.eventTypes.join(' '), e.enabled ? 'yes' : 'no', e.disabledReason, e.createdAt].map(cell),
        );
        const text = formatTable(['ID', 'HOST', 'EVENTS', 'ENABLED', 'DISABLED BECAUSE', 'CREATED'], rows, 'No webhook endpoints.');
        return { json: { webhookEndpoints }, text };
      },
    ),
    deliveries: cliCommand(
      (args) => {
        const { id: endpointId, json, ...page } = readArgs(args, PAGE_OPTIONS, 'ENDPOINT_ID');
        return { endpointId, page: pageOf(page) ?? {}, json };
      },
      async (app, { endpointId, page }) => {
        const attempts = await app.get(WebhookEndpointsService).attempts(undefined, endpointId, page);
        const rows = attempts.items.map((a) =>
          [a.id, a.attemptedAt, a.eventId, a.eventType, a.attempt, a.status, a.error, a.durationMs].map(cell),
        );
        const headers = ['ID', 'TIME', 'EVENT', 'TYPE', 'ATTEMPT', 'STATUS', 'ERROR', 'MS'];
        const table = formatTable(headers, rows, 'No delivery attempts.');
        return { json: attempts, text: attempts.nextCursor ? `${table}\nOlder attempts: --cursor ${attempts.nextCursor}` : table };
      },
    ),
    disable: cliCommand(
      (args) => {
        const { id: endpointId, json } = readArgs(args, {}, 'ENDPOINT_ID');
        return { endpointId, json };
      },
      async (app, { endpointId }) => {
        const { endpoint, alreadyDisabled } = await app.get(WebhookEndpointsService).disable(endpointId, BY_CLI);
        const text = alreadyDisabled
          ? `Webhook endpoint ${endpoint.id} of client ${endpoint.clientId} was already disabled; nothing to do.`
          : `Disabled webhook endpoint ${endpoint.id} of client ${endpoint.clientId}; its deliveries wait until the client enables it.`;
        return { json: endpoint, text };
      },
    ),
  },
};
