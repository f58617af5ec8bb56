import ipaddr from 'ipaddr.js';

/** What a caller without a valid key is counted for: its IPv4 address, or its IPv6 /64, the smallest block a subscriber gets. */
export function anonymousSubject(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const [a, b, c, d] = (address as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([a, b, c, d, 0, 0, 0, 0]).toString()}/64`;
}
