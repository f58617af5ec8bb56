import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The names an endpoint's host resolves to; a provider, so a test can stand in for DNS. */
export abstract class HostResolver {
  abstract resolve(hostname: string): Promise<LookupAddress[]>;
}

export class SystemResolver extends HostResolver {
  resolve(hostname: string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) =>
      dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
    );
  }
}

/** Why an attempt or a URL was refused: the error a delivery records. */
export class BlockedAddressError extends Error {
  readonly code = 'blocked_address';
}

/**
 * Public unicast only: loopback, private, link-local (cloud metadata's 169.254.169.254 among them),
 * unique-local (fd00:ec2::254), carrier-grade NAT (100.100.100.200), multicast and reserved ranges are refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as the IPv4 one
  return parsed.range() === 'unicast';
}

/** The host of a URL without IPv6 brackets: what a lookup and `isIP` take. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Every address `url`'s host resolves to is public, or `allowPrivate`; a BlockedAddressError otherwise. */
export async function checkTarget(url: URL, resolver: HostResolver, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : (await resolver.resolve(host)).map(({ address }) => address);
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked !== undefined || addresses.length === 0) throw new BlockedAddressError(`${host} resolves to a non-public address`);
}

/**
 * A `lookup` for the socket that checks the addresses it returns: the connection goes to the address that
 * was checked, so a name that resolves to a private address only at delivery time is refused then.
 */
export function checkedLookup(resolver: HostResolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolver.resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter(({ family }) => !options.family || family === options.family);
        if (usable.length === 0) return callback(new Error(`${hostname} has no address`), '', 0);
        if (!allowPrivate && usable.some(({ address }) => !isPublicAddress(address))) {
          return callback(new BlockedAddressError(`${hostname} resolves to a non-public address`), '', 0);
        }
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
