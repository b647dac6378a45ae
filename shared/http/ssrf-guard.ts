import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { AppError } from '../errors.js';
import { isBlockedAddress, isLoopbackAddress } from './blocked-addresses.js';

export class BlockedDestinationError extends AppError {
  constructor(host: string) {
    super(502, 'upstream_address_blocked', `The upstream address ${host} is not reachable from this platform (private or reserved)`);
  }
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Checks what can be checked before connecting: the scheme, and a host written as an IP literal
 * (Node does not call `lookup` for those). Names are checked after resolution by `guardedLookup`.
 */
export interface DestinationPolicy {
  /** PROXY_ALLOW_PRIVATE_UPSTREAMS: everything goes (development against local services). */
  allowPrivate: boolean;
  /**
   * Development: a developer's own API on this machine (loopback only) may be published; private
   * ranges and metadata addresses stay refused.
   */
  allowLoopback?: boolean;
  /** PROXY_ALLOWED_UPSTREAM_ORIGINS: exact origins (scheme://host:port) let through although private. */
  allowedOrigins: ReadonlySet<string>;
}

export function assertDestinationAllowed(url: URL, policy: DestinationPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(502, 'upstream_scheme_not_allowed', `Only http and https upstreams are allowed, not ${url.protocol}`);
  }
  if (policy.allowPrivate || policy.allowedOrigins.has(url.origin)) return;
  const host = hostOf(url);
  if (isIP(host) && refused(host, policy.allowLoopback ?? false)) throw new BlockedDestinationError(host);
}

const refused = (address: string, allowLoopback: boolean) => isBlockedAddress(address) && !(allowLoopback && isLoopbackAddress(address));

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets: resolves the name, and refuses the connection if any address it resolves
 * to is blocked (loopback aside when `allowLoopback`), unless everything private is allowed or the
 * name is one of `exemptHosts`. Because
 * the socket connects to exactly the address checked here, a DNS answer that changes between
 * check and use (rebinding) cannot slip through.
 */
export function guardedLookup(allowPrivate: boolean, exemptHosts: ReadonlySet<string> = new Set(), allowLoopback = false) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (!allowPrivate && !exemptHosts.has(hostname) && list.some((entry) => refused(entry.address, allowLoopback))) {
        return callback(new BlockedDestinationError(hostname) as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
