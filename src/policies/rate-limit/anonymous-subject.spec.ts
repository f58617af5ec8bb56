import { anonymousSubject } from './throttled-addresses.js';

describe('anonymousSubject', () => {
  it.each([
    ['an IPv4 address as it is', '203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address as IPv4', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv6 address by its /64', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['another address of the same /64 the same', '2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['an IPv6 address with a zone by its /64', 'fe80::1%eth0', 'fe80::/64'],
    ['no address as unknown', undefined, 'unknown'],
    ['something that is no address as unknown', 'not-an-ip', 'unknown'],
  ])('counts %s', (_case, ip, subject) => expect(anonymousSubject(ip)).toBe(subject));

  it('tells different /64s apart', () => {
    expect(anonymousSubject('2001:db8:1:2::1')).not.toBe(anonymousSubject('2001:db8:1:3::1'));
  });
});
