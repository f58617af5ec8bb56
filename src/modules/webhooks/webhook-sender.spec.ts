import { Webhook } from 'standardwebhooks';
import { signatures } from './webhook-sender.js';

/** The signatures, verified by the Standard Webhooks library itself (the specification's), not by our own code. */
describe('signatures', () => {
  const secret = (byte: number) => `whsec_${Buffer.alloc(32, byte).toString('base64')}`;
  const [current, previous, stranger] = [secret(1), secret(2), secret(3)];
  const id = 'evt_0006461c2f1e9a40b1d4e5f6a7b8c9d0';
  const body = JSON.stringify({ id, type: 'webhook.test', createdAt: new Date().toISOString(), data: { endpointId: 7, note: 'é 🐈' } });
  const headersOf = (secrets: string[], timestamp = Math.floor(Date.now() / 1000), signed = body) => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures(secrets, id, timestamp, signed),
  });
  const verifies = (key: string, headers: Record<string, string>) => {
    try {
      new Webhook(key).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  };

  it('signs with one secret as the library does, and verifies under it alone', () => {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = headersOf([current], timestamp);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(headers['webhook-signature']).toBe(new Webhook(current).sign(id, new Date(timestamp * 1000), body));
    expect(verifies(current, headers)).toBe(true);
    expect(verifies(previous, headers)).toBe(false);
  });

  it('sends one signature per secret, space-separated, each verifying under its own secret (a rotation overlap)', () => {
    const headers = headersOf([current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifies(current, headers)).toBe(true);
    expect(verifies(previous, headers)).toBe(true);
    expect(verifies(stranger, headers)).toBe(false);
  });

  it('binds the id, the timestamp and the body: none can change under the signature', () => {
    const headers = headersOf([current]);
    expect(verifies(current, { ...headers, 'webhook-id': 'evt_00000000000000000000000000000000' })).toBe(false);
    expect(verifies(current, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) })).toBe(false);
    expect(verifies(current, headersOf([current], undefined, `${body} `))).toBe(false);
  });
});
