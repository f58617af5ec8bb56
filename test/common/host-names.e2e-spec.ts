import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** docs/contract/decisions.md, "Host names in links": `Link` and `Location` never come from an untrusted host name. */
describe('Host names in links (e2e)', () => {
  const pet = { name: 'Rex', categoryId: 1 };

  describe('with ALLOWED_HOSTS', () => {
    let app: TestApp;
    let auth: { Authorization: string };

    beforeAll(async () => {
      app = await createTestApp({ env: { ALLOWED_HOSTS: 'api.pets.example, pets.example', TRUST_PROXY: '1' } });
      auth = { Authorization: `Bearer ${await app.newKey()}` };
    });
    afterAll(() => app.close());

    it('refuses another Host with 400 validation_failed, quota headers included, and creates nothing', async () => {
      const res = await app.http().post('/v1/pets').set(auth).set('Host', 'evil.example').send(pet);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'validation_failed',
        message: 'The request has invalid values.',
        status: 400,
        details: [{ field: 'Host', message: expect.stringContaining('ALLOWED_HOSTS') }],
      });
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
      expect(res.headers.location).toBeUndefined();
      const listed = await app.http().get('/v1/pets').set(auth).set('Host', 'api.pets.example');
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([]);
    });

    it('refuses a request with no host name at all', async () => {
      const res = await app.http().get('/v1/pets').set(auth).set('Host', '');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    });

    it('builds Location and Link from an allowed Host, whatever its case and port', async () => {
      const created = await app.http().post('/v1/pets').set(auth).set('Host', 'API.Pets.Example:8443').send(pet);
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`http://api.pets.example:8443/v1/pets/${created.body.id}`);
      await app.http().post('/v1/pets').set(auth).set('Host', 'pets.example').send(pet);
      const page = await app.http().get('/v1/pets?limit=1').set(auth).set('Host', 'pets.example');
      expect(page.headers.link).toMatch(/^<http:\/\/pets\.example\/v1\/pets\?limit=1&cursor=[^>]+>; rel="next"$/);
    });

    it('checks a trusted X-Forwarded-Host in place of Host', async () => {
      const forged = await app.http().get('/v1/pets').set(auth).set('Host', 'api.pets.example').set('X-Forwarded-Host', 'evil.example');
      expect(forged.status).toBe(400);
      const created = await app
        .http()
        .post('/v1/pets')
        .set(auth)
        .set({ Host: '10.0.0.7:3000', 'X-Forwarded-Host': 'api.pets.example', 'X-Forwarded-Proto': 'https' })
        .send(pet);
      expect(created.status).toBe(201);
      expect(created.headers.location).toBe(`https://api.pets.example/v1/pets/${created.body.id}`);
    });

    it('leaves health checks alone (probes name the pod address)', async () => {
      const res = await app.http().get('/health/live').set('Host', '10.0.0.7:3000');
      expect(res.status).toBe(200);
    });
  });

  describe('in production', () => {
    // Configuration is validated once per process, so these run the built server (dist/ comes from jest's global setup).
    const startInProduction = (fromDotEnv: boolean) => {
      // The start stops at the configuration check: the database is never reached.
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/never', REDIS_URL: '', PORT: '0' };
      for (const name of ['NODE_ENV', 'PUBLIC_BASE_URL', 'ALLOWED_HOSTS']) delete env[name];
      const cwd = mkdtempSync(join(tmpdir(), 'pets-env-'));
      if (fromDotEnv) writeFileSync(join(cwd, '.env'), 'NODE_ENV=production\n');
      else env.NODE_ENV = 'production';
      const result = spawnSync(process.execPath, [resolve('dist/src/main.js')], { cwd, env, encoding: 'utf8', timeout: 20_000 });
      rmSync(cwd, { recursive: true, force: true });
      return result;
    };

    it.each([
      ['the environment', false],
      ['a .env file', true],
    ])('refuses to start without PUBLIC_BASE_URL or ALLOWED_HOSTS, naming both, when production is set in %s', (_where, fromDotEnv) => {
      const result = startInProduction(fromDotEnv);
      expect(result.status).not.toBe(0);
      expect(result.stderr + result.stdout).toMatch(
        /Invalid configuration:[\s\S]*PUBLIC_BASE_URL or ALLOWED_HOSTS must be set in production/,
      );
    });

    it('builds links from PUBLIC_BASE_URL only, never from the Host header', async () => {
      const app = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.pets.example/v1' } });
      try {
        const auth = { Authorization: `Bearer ${await app.newKey()}` };
        const created = await app.http().post('/v1/pets').set(auth).set('Host', 'evil.example').send(pet);
        expect(created.status).toBe(201);
        expect(created.headers.location).toBe(`https://api.pets.example/v1/pets/${created.body.id}`);
        await app.http().post('/v1/pets').set(auth).send(pet);
        const page = await app.http().get('/v1/pets?limit=1').set(auth).set('Host', 'evil.example');
        expect(page.headers.link).toMatch(/^<https:\/\/api\.pets\.example\/v1\/pets\?limit=1&cursor=/);
      } finally {
        await app.close();
      }
    });
  });
});
