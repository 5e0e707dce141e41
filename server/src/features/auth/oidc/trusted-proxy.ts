import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { TrustedAuthConfig } from '../../../config.js';

/**
 * The reverse proxies whose user header Encore believes. Only the connection's own peer
 * address counts (the socket's), never X-Forwarded-For: a client can write any header, but
 * cannot choose the address its packets come from.
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  constructor(private readonly settings: TrustedAuthConfig) {
    for (const entry of settings.proxies) {
      const [address = '', prefix] = entry.split('/');
      const type = isIPv4(address) ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
  }

  /** Whether a connection from `remoteAddress` comes from a trusted proxy. */
  trusts(remoteAddress: string | undefined): boolean {
    if (!remoteAddress) return false;
    // A dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress)?.[1];
    const address = mapped ?? remoteAddress;
    if (isIPv4(address)) return this.list.check(address, 'ipv4');
    if (isIPv6(address)) return this.list.check(address, 'ipv6');
    return false;
  }

  /**
   * The user a trusted proxy named on this request, with its e-mail header; undefined when the
   * connection is not from a trusted proxy or carries no user header; 'repeated' when either
   * header came more than once (Node joins repeats into "a, b", which could name a user
   * neither line meant: a client's own header passed on beside the proxy's, say).
   * `rawHeaders` is the request's, as received: names and values alternating.
   */
  userOf(remoteAddress: string | undefined, rawHeaders: readonly string[]): { name: string; email: string | undefined } | 'repeated' | undefined {
    if (!this.trusts(remoteAddress)) return undefined;
    const names = valuesOf(rawHeaders, this.settings.header);
    const emails = valuesOf(rawHeaders, this.settings.emailHeader);
    if (names.length > 1 || emails.length > 1) return 'repeated';
    const name = nonBlank(names[0]);
    if (name === undefined) return undefined;
    return { name, email: nonBlank(emails[0]) };
  }
}

/** Every value of the header `name` (lower case), one per line it came on. */
function valuesOf(rawHeaders: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === name) values.push(rawHeaders[index + 1] ?? '');
  }
  return values;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
