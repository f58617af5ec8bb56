import type { LookupAddress } from 'node:dns';
import { BlockedAddressError, checkedLookup, checkTarget, HostResolver, isPublicAddress } from './target-address.js';

/** Answers from a table, as DNS would; a name it does not hold is not found. */
class TableResolver extends HostResolver {
  calls = 0;
  constructor(private readonly table: Record<string, LookupAddress[]>) {
    super();
  }

  resolve(hostname: string): Promise<LookupAddress[]> {
    this.calls++;
    const found = this.table[hostname];
    return found ? Promise.resolve(found) : Promise.reject(Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' }));
  }
}

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });

/** What the decision refuses (docs/contract/decisions.md, "Safety"), with the range each falls in. */
const REFUSED = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['100.100.100.200', 'carrier-grade NAT (a cloud metadata address)'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['0.0.0.0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['192.0.2.1', 'reserved (documentation)'],
  ['240.0.0.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fd00:ec2::254', 'unique-local (cloud metadata)'],
  ['fc00::1', 'unique-local'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved (documentation)'],
] as const;

const PUBLIC = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
];

describe('isPublicAddress', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)('accepts the public unicast address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['', 'localhost', 'example.com', '1.2.3.4.5', '256.1.1.1', '::g', '[::1]'])('refuses %j, which is not an address', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

describe('checkTarget', () => {
  const resolver = new TableResolver({
    'hooks.example': [v4('93.184.216.34'), v6('2606:4700:4700::1111')],
    'internal.example': [v4('10.0.0.5')],
    'mixed.example': [v4('93.184.216.34'), v4('127.0.0.1')],
    'metadata.example': [v6('fd00:ec2::254')],
    'empty.example': [],
  });
  const check = (url: string, allowPrivate = false) => checkTarget(new URL(url), resolver, allowPrivate);

  it('passes a name that resolves to public addresses only, and a public address literal', async () => {
    await expect(check('https://hooks.example/in')).resolves.toBeUndefined();
    await expect(check('https://93.184.216.34/in')).resolves.toBeUndefined();
    await expect(check('https://[2606:4700:4700::1111]/in')).resolves.toBeUndefined();
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.0.0.1/',
    'http://[::1]:8080/',
    'http://[::ffff:7f00:1]/',
    'http://[fd00:ec2::254]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://internal.example/',
    'http://mixed.example/',
    'http://metadata.example/',
    'http://empty.example/',
  ])('refuses %s with a BlockedAddressError', async (url) => {
    await expect(check(url)).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('refuses a name that does not resolve', async () => {
    await expect(check('http://nowhere.example/')).rejects.toThrow('not found');
  });

  it('lets anything through with allowPrivate, without a lookup', async () => {
    const before = resolver.calls;
    await expect(check('http://internal.example/', true)).resolves.toBeUndefined();
    await expect(check('http://127.0.0.1/', true)).resolves.toBeUndefined();
    expect(resolver.calls).toBe(before);
  });
});

describe('checkedLookup', () => {
  const resolver = new TableResolver({
    'hooks.example': [v4('93.184.216.34'), v6('2606:4700:4700::1111')],
    'rebound.example': [v4('127.0.0.1')],
    'mixed.example': [v4('93.184.216.34'), v6('::1')],
  });
  type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };
  const lookup = (hostname: string, options: { family?: number; all?: boolean } = {}, allowPrivate = false) =>
    new Promise<Answer>((resolve) =>
      checkedLookup(resolver, allowPrivate)(hostname, options, ((error: NodeJS.ErrnoException | null, address: string, family: number) =>
        resolve({ error, address, family })) as never),
    );

  it('answers with the address it checked, of the family asked for', async () => {
    expect(await lookup('hooks.example')).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await lookup('hooks.example', { family: 6 })).toEqual({ error: null, address: '2606:4700:4700::1111', family: 6 });
    expect(await lookup('hooks.example', { all: true })).toMatchObject({
      error: null,
      address: [v4('93.184.216.34'), v6('2606:4700:4700::1111')],
    });
  });

  it('refuses a name that resolves to a loopback address now, or to any non-public one among public ones', async () => {
    for (const name of ['rebound.example', 'mixed.example']) {
      const { error } = await lookup(name);
      expect(error).toBeInstanceOf(BlockedAddressError);
      expect((error as BlockedAddressError).code).toBe('blocked_address');
    }
  });

  it('passes private addresses when allowed, and reports a name without an address of the family', async () => {
    expect(await lookup('rebound.example', {}, true)).toEqual({ error: null, address: '127.0.0.1', family: 4 });
    expect((await lookup('rebound.example', { family: 6 })).error?.message).toMatch(/has no address/);
    expect((await lookup('nowhere.example')).error?.code).toBe('ENOTFOUND');
  });
});
