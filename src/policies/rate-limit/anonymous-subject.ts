import ipaddr from 'ipaddr.js';

/**
 * The address a caller without a valid key is counted for: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address by its /64, the smallest block a
 * single subscriber is given, so one host cannot get a fresh quota per address of its subnet.
 */
export function anonymousSubject(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const [a, b, c, d] = (address as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}
