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
   * connection is not from a trusted proxy or carries no user header.
   */
  userOf(remoteAddress: string | undefined, headers: Record<string, string | string[] | undefined>): { name: string; email: string | undefined } | undefined {
    if (!this.trusts(remoteAddress)) return undefined;
    const name = single(headers[this.settings.header]);
    if (name === undefined) return undefined;
    return { name, email: single(headers[this.settings.emailHeader]) };
  }
}

/** A header sent once; a repeated one is ambiguous and counts as absent. */
function single(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 1 ? single(value[0]) : undefined;
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}
