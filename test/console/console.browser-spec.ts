import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AuthenticationError, PetsClient } from '../../client/src/index.js';
import { awayFromMinuteEnd } from '../fleet/load.js';
import { eventually } from '../support/eventually.js';
import { freePort, ServiceProcess } from '../support/service-process.js';
import { migratedDatabase, queryDatabase, type MigratedDatabase } from '../support/test-databases.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The developer console in a real browser (`npm run test:console`, not part of `npm test`): Debian's Chromium
 * (/usr/bin/chromium, never a downloaded build) driven by playwright-core, against the built service
 * (`npm run build`: dist/ and dist/console) on a PostgreSQL database of its own. Every call goes from the
 * page through the client library; the suite checks what the page shows against the API itself.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// As root there is no sandbox; no network of Chromium's own (updates, sync, QUIC probes) either. Playwright adds
// --headless and a fresh --user-data-dir to each launch.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SEEN_WITHIN_MS = 15_000;
/** Where `CONSOLE_SCREENSHOT=docs/console.png npm run test:console` writes the README's picture. */
const SCREENSHOT = process.env.CONSOLE_SCREENSHOT;
const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

const utcDay = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

interface IssuedKey {
  id: number;
  clientId: number;
  key: string;
}

describe('the developer console in Chromium, on the built service', () => {
  let database: MigratedDatabase;
  let service: ServiceProcess;
  let browser: Browser;
  let context: BrowserContext;
  const receiver = new WebhookReceiver();
  const requested: string[] = [];
  const problems: string[] = [];
  let owner: IssuedKey;

  /** A key made with the operator's tool, as an operator gives one to a client. */
  const issue = (...args: string[]): IssuedKey => {
    const output = execFileSync(process.execPath, ['dist/src/cli.js', 'keys', 'create', ...args, '--json'], {
      env: { PATH: process.env.PATH, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    return JSON.parse(output) as IssuedKey;
  };
  const api = (key: string) => new PetsClient({ apiKey: key, baseUrl: `${service.url}/v1`, maxRetries: 0 });

  const openPage = async (width = 1100): Promise<Page> => {
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    page.on('console', (message) => {
      // The refusals the tests provoke are logged as failed loads; anything else (a CSP refusal, say) is a problem.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${service.url}/console`);
    return page;
  };
  const signIn = async (key: string, width?: number): Promise<Page> => {
    const page = await openPage(width);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return page;
  };
  const signedIn = async (key = owner.key, width?: number): Promise<Page> => {
    const page = await signIn(key, width);
    await page.getByRole('heading', { name: 'Quota' }).waitFor();
    await page.getByRole('table', { name: 'Live keys' }).waitFor();
    return page;
  };
  const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  /** The cells of a table, row by row, as the page shows them. */
  const cells = (page: Page, table: string) =>
    page
      .getByRole('table', { name: table })
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));

  beforeAll(async () => {
    database = await migratedDatabase();
    await receiver.start();
    service = new ServiceProcess(await freePort(), {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '100',
    });
    await service.start();
    owner = issue('--plan', 'pro', '--name', 'Console test', '--scopes', 'pets:read,pets:write,keys:manage,webhooks:manage');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    context.on('request', (request) => requested.push(request.url()));
  });

  afterAll(async () => {
    await browser?.close();
    await service?.stop(10_000);
    await receiver.stop();
    database?.release();
  });

  it('serves the page with a strict Content-Security-Policy, its hashed files cached for a year and itself revalidated', async () => {
    const page = await fetch(`${service.url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https:|data:|\*/);
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map(([, path]) => path);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const path of assets) {
      expect(path).toMatch(/-[\w-]{8}\.(js|css)$/);
      const asset = await fetch(`${service.url}${path}`);
      expect([asset.status, asset.headers.get('cache-control'), asset.headers.get('content-security-policy')]).toEqual([
        200,
        'public, max-age=31536000, immutable',
        policy,
      ]);
    }
    expect((await fetch(`${service.url}/console/assets/index-00000000.js`)).status).toBe(404);
  });

  it('signs in with a keys:manage key, shows the plan and both quota windows, and keeps the key in memory only', async () => {
    const page = await signedIn();
    const status = await api(owner.key).rateLimit();
    const quota = section(page, 'Quota');
    await expect(quota.locator('.plan').textContent()).resolves.toBe('pro');
    const windows = await cells(page, 'Requests per window');
    expect(windows.map(([name, , limit]) => [name, limit])).toEqual([
      ['This minute', status.minute.limit.toLocaleString('en')],
      ['Today (UTC)', status.day.limit.toLocaleString('en')],
    ]);
    expect(windows[0][4]).toContain(`${new Date(status.minute.reset * 1000).toISOString().slice(11, 19)} UTC`);
    expect(windows[1][4]).toMatch(/00:00:00 UTC \(in \d+ (s|min|h \d+ min)\)$/);

    const kept = await page.evaluate<Record<string, string>>(
      '({ local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage), cookies: document.cookie, url: location.href })',
    );
    expect(kept).toEqual({ local: '{}', session: '{}', cookies: '', url: `${service.url}/console` });
    expect(await context.cookies()).toEqual([]);
    expect(requested.filter((url) => url.includes(owner.key))).toEqual([]);
    await page.close();
  });

  it('draws a chart and a table of the last 30 UTC days whose figures are those of GET /v1/usage, for all keys and per key', async () => {
    const other = issue('--client', String(owner.clientId));
    const seeded = [
      [utcDay(29), owner.id, 120, 3],
      [utcDay(5), owner.id, 40, 0],
      [utcDay(5), other.id, 2_500, 17],
      [utcDay(1), other.id, 9, 1],
    ];
    for (const [day, keyId, admitted, refused] of seeded) {
      await queryDatabase(database.url, 'INSERT INTO usage_days (client_id, day, key_id, admitted, refused) VALUES ($1, $2, $3, $4, $5)', [
        owner.clientId,
        day,
        keyId,
        admitted,
        refused,
      ]);
    }
    const page = await signedIn();
    const usage = await api(owner.key).usage();
    // Today's figures move with every request (the console's own included): the seeded days are compared.
    const past = (rows: string[][]) => rows.filter(([day]) => day !== usage.to);
    const expected = (keyId?: number) =>
      Array.from({ length: 29 }, (_, at) => {
        const day = utcDay(29 - at);
        const rows = usage.days.filter((row) => row.day === day && (keyId === undefined || row.keyId === keyId));
        const sum = (field: 'admitted' | 'refused') => rows.reduce((total, row) => total + row[field], 0).toLocaleString('en');
        return [day, sum('admitted'), sum('refused')];
      });
    await page.getByRole('table', { name: 'Requests of all keys per UTC day' }).waitFor();
    const allKeys = await cells(page, 'Requests of all keys per UTC day');
    expect(allKeys).toHaveLength(30);
    expect(past(allKeys)).toEqual(expected());
    expect(past(allKeys).find(([day]) => day === utcDay(5))).toEqual([utcDay(5), '2,540', '17']);

    // The chart's legend gives the figures of the day under the pointer.
    const chart = section(page, 'Usage').locator('.u-over');
    const box = (await chart.boundingBox())!;
    const legend = () => section(page, 'Usage').locator('.u-legend .u-value').allTextContents();
    await page.mouse.move(box.x + (box.width * 24.5) / 30, box.y + box.height / 2);
    await expect(legend()).resolves.toEqual([utcDay(5), '2,540', '17']);

    await section(page, 'Usage').getByLabel('Requests of', { exact: true }).selectOption(String(other.id));
    const perKey = await cells(page, `Requests of key ${other.id} per UTC day`);
    expect(past(perKey)).toEqual(expected(other.id));
    await page.mouse.move(box.x + (box.width * 28.5) / 30, box.y + box.height / 2);
    await expect(legend()).resolves.toEqual([utcDay(1), '9', '1']);
    await page.close();
  });

  it('creates a key with its scopes and copies it, rolls one with an overlap and revokes one after a confirmation, each seen through the API', async () => {
    const page = await signedIn();
    const keys = section(page, 'Keys');
    await keys.getByLabel('Name', { exact: true }).fill('Created in the console');
    await keys.getByRole('checkbox', { name: 'keys:manage' }).check();
    await keys.getByRole('button', { name: 'Create key' }).click();
    const shown = keys.getByLabel(/^The new key Created in the console/);
    const created = await shown.inputValue();
    expect(created).toMatch(/^pets_[0-9A-Za-z]{38}$/);
    await keys.getByRole('button', { name: 'Copy' }).click();
    await keys.getByText('Copied to the clipboard.').waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(created);
    const listed = (await api(owner.key).keys.list()).find(({ name }) => name === 'Created in the console')!;
    expect(listed.scopes).toEqual(['pets:read', 'keys:manage']);
    await expect(api(created).keys.list()).resolves.toContainEqual(expect.objectContaining({ id: listed.id }));

    await keys.getByRole('button', { name: `Roll Created in the console (${listed.prefix}…)` }).click();
    const roll = page.getByRole('dialog');
    await roll.getByLabel('Overlap').selectOption({ label: '5 minutes' });
    await roll.getByRole('button', { name: 'Roll key' }).click();
    const successor = await keys.getByLabel(/^The successor Created in the console/).inputValue();
    await keys.getByText(/rolled into/).waitFor();
    const afterRoll = await api(owner.key).keys.list();
    const rolled = afterRoll.find(({ id }) => id === listed.id)!;
    expect(Date.parse(rolled.expiresAt!) - Date.now()).toBeGreaterThan(240_000);
    expect(Date.parse(rolled.expiresAt!) - Date.now()).toBeLessThanOrEqual(300_000);
    await expect(api(successor).keys.list()).resolves.toHaveLength(afterRoll.length);

    const revokeButton = keys.getByRole('button', { name: `Revoke Created in the console (${successor.slice(0, rolled.prefix.length)}…)` });
    await revokeButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await expect(api(successor).keys.list()).resolves.toBeDefined();
    await revokeButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await keys.getByText(/revoked\.$/).waitFor();
    const revoked = await eventually(
      () =>
        api(successor)
          .keys.list()
          .then(
            () => undefined,
            (error: unknown) => error,
          ),
      (error) => error instanceof AuthenticationError,
      SEEN_WITHIN_MS,
    );
    expect(revoked).toBeInstanceOf(AuthenticationError);
    await expect(cells(page, 'Live keys')).resolves.not.toContainEqual(
      expect.arrayContaining([expect.stringContaining(successor.slice(0, 13))]),
    );
    await page.close();
  });

  it('adds a webhook endpoint, shows its secret once, sends a test the receiver verifies, lists the delivery and redelivers it', async () => {
    const page = await signedIn();
    const webhooks = section(page, 'Webhooks');
    await webhooks.getByLabel('URL').fill(receiver.url);
    await webhooks.getByRole('checkbox', { name: 'key.created' }).check();
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    receiver.secrets = [await webhooks.getByLabel(/^The signing secret of/).inputValue()];
    expect(receiver.secrets[0]).toMatch(/^whsec_/);
    const [endpoint] = await api(owner.key).webhookEndpoints.list();
    expect([endpoint.url, endpoint.eventTypes]).toEqual([receiver.url, ['pet.created', 'key.created']]);

    await webhooks.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    const sent = await webhooks.getByText(/^Test event evt_[0-9a-f]{32} sent/).textContent();
    const eventId = /evt_[0-9a-f]{32}/.exec(sent!)![0];
    await eventually(() => Promise.resolve(receiver.events('webhook.test').get(eventId)), Boolean, SEEN_WITHIN_MS);
    expect(receiver.forged).toEqual([]);
    const deliveries = `Recent deliveries to ${receiver.url}`;
    const delivered = await eventually(
      async () => {
        await webhooks.getByRole('button', { name: 'Refresh webhooks' }).click();
        await page.getByRole('table', { name: deliveries }).waitFor();
        return cells(page, deliveries);
      },
      (rows) => rows.some((row) => row[2] === eventId && row[4] === 'HTTP 204'),
      SEEN_WITHIN_MS,
    );
    expect(delivered.find((row) => row[2] === eventId)!.slice(1, 5)).toEqual(['webhook.test', eventId, '1', 'HTTP 204']);

    await webhooks
      .getByRole('button', { name: `Redeliver ${eventId}` })
      .first()
      .click();
    await webhooks.getByText(`Event ${eventId} is on its way to ${receiver.url} again.`).waitFor();
    const attempts = await eventually(
      () => Promise.resolve(receiver.received.filter(({ id }) => id === eventId).length),
      (count) => count === 2,
      SEEN_WITHIN_MS,
    );
    expect(attempts).toBe(2);
    await page.close();
  });

  it('shows in words, with the code, a wrong key, a key without keys:manage and a refusal of the quota with when to retry', async () => {
    const wrong = await signIn(`pets_${'x'.repeat(38)}`);
    await wrong
      .getByRole('alert')
      .getByText('This key was refused: The API key is not valid: unknown, revoked or expired. (invalid_api_key)')
      .waitFor();
    await wrong.close();

    const readOnly = issue('--client', String(owner.clientId), '--scopes', 'pets:read');
    const cannot = await signIn(readOnly.key);
    await cannot
      .getByRole('alert')
      .getByText(/^This key cannot sign in: the console needs a key with the keys:manage scope: .*"keys:manage".* \(insufficient_scope\)$/)
      .waitFor();
    await cannot.close();

    // One request a minute: listing the keys at sign-in takes it, so reading the usage is refused.
    const scarce = issue('--plan', 'enterprise', '--per-minute', '1', '--per-day', '1000', '--scopes', 'keys:manage');
    await awayFromMinuteEnd(15);
    const refused = await signIn(scarce.key);
    const alert = section(refused, 'Usage').getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(
      /^The usage could not be read: .* \(rate_limit_exceeded\)\. Try again in \d+ s, at \d\d:\d\d:00 UTC\.$/,
    );
    await refused.close();
  });

  it('works with the keyboard alone: signing in and creating a key', async () => {
    const page = await openPage();
    await page.keyboard.type(owner.key);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Live keys' }).waitFor();
    const focused = () => page.evaluate('document.activeElement?.id || document.activeElement?.textContent');
    const tabTo = async (matches: (focus: string) => boolean) => {
      for (let presses = 0; presses < 80; presses++) {
        if (matches(String(await focused()))) return;
        await page.keyboard.press('Tab');
      }
      throw new Error('the keyboard never reached it');
    };
    await tabTo((focus) => focus.startsWith('key-name'));
    await page.keyboard.type('Typed at the keyboard');
    await tabTo((focus) => focus === 'Create key');
    await page.keyboard.press('Enter');
    await section(page, 'Keys')
      .getByText(/^Key Typed at the keyboard \(pets_\w+…\) created\.$/)
      .waitFor();
    await tabTo((focus) => focus === 'Copy');
    await page.keyboard.press('Enter');
    await section(page, 'Keys').getByText('Copied to the clipboard.').waitFor();
    await expect(api(owner.key).keys.list()).resolves.toContainEqual(expect.objectContaining({ name: 'Typed at the keyboard' }));
    await page.close();
  });

  it('fits 360 px without sideways scrolling, and axe-core finds no serious or critical violation', async () => {
    for (const width of [360, 1100]) {
      const page = await signedIn(owner.key, width);
      await section(page, 'Webhooks').getByRole('table', { name: 'Webhook endpoints' }).waitFor();
      await page.getByRole('table', { name: 'Requests of all keys per UTC day' }).waitFor();
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect({ width, overflow }).toEqual({ width, overflow: 0 });
      await page.evaluate(AXE);
      const violations = await page.evaluate<string[]>(
        "axe.run(document).then(({ violations }) => violations.filter(({ impact }) => impact === 'serious' || impact === 'critical').map(({ id, nodes }) => `${id}: ${nodes.map(({ target }) => target.join(' ')).join(', ')}`))",
      );
      expect({ width, violations }).toEqual({ width, violations: [] });
      if (SCREENSHOT && width === 1100) {
        await page.mouse.move(0, 0);
        await page.screenshot({ path: SCREENSHOT, fullPage: false, type: 'png' });
        expect(statSync(SCREENSHOT).size).toBeLessThan(200_000);
      }
      await page.close();
    }
  });

  it('sent no request off the page’s origin, and the page reported no error (a CSP refusal included)', () => {
    expect(requested.length).toBeGreaterThan(50);
    expect(requested.filter((url) => new URL(url).origin !== service.url)).toEqual([]);
    expect(problems).toEqual([]);
  });
});
