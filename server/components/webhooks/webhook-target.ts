/**
 * Where a webhook may point (SSRF): an `https` URL whose host resolves to public addresses only — checked when the
 * webhook is saved and again at every delivery, on the very address the connection uses (a host that resolved to a
 * public address at creation and to 127.0.0.1 now, DNS rebinding, is refused). With WEBHOOKS_ALLOW_PRIVATE_TARGETS
 * (tests, the demo) `http` and private addresses are allowed.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { LookupAddress, LookupOneOptions } from 'node:dns';

/** Ranges no webhook reaches: loopback, private, link-local, shared, documentation, multicast and reserved. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why `url` may not be a webhook target, or undefined; resolves its host unless private targets are allowed. */
export async function targetProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  if (parsed.hash) return 'must not have a fragment';
  if (allowPrivate) return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? undefined : 'must be https';
  if (parsed.protocol !== 'https:') return 'must be https';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `its host ${host} does not resolve`;
  }
  const blocked = addresses.find((address) => !isPublicAddress(address));
  return blocked ? `resolves to ${blocked}, which is not a public address` : undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for the delivery's connection that refuses a host resolving to any address that is not public,
 * so the address checked is the address connected to.
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOneOptions | ((...args: never[]) => void),
  callback?: LookupCallback,
): void {
  const done = (typeof options === 'function' ? options : callback) as LookupCallback;
  const all = typeof options === 'object' && (options as { all?: boolean }).all === true;
  lookup(hostname, { all: true, verbatim: true }).then(
    (addresses) => {
      const blocked = addresses.find((a) => !isPublicAddress(a.address));
      if (blocked) {
        const error: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to ${blocked.address}, not a public address`,
        );
        error.code = 'EPRIVATETARGET';
        done(error, '');
        return;
      }
      if (all) done(null, addresses);
      else done(null, addresses[0].address, addresses[0].family);
    },
    (error: NodeJS.ErrnoException) => done(error, ''),
  );
}
