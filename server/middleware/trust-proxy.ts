/**
 * TRUST_PROXY as Express's `trust proxy` value: unset or `false` trusts nobody (the address of the peer is the
 * client's), a number trusts that many hops, otherwise a comma-separated list of addresses, CIDR ranges or
 * proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`), whose X-Forwarded-For entries are taken as the
 * client's. `true` (trust every hop) is refused: anyone could then write the client address into the logs.
 */
import { isIP } from 'node:net';

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export type TrustProxy = false | number | string;

/** Why `item` is not an address, a CIDR range or a name; undefined when it is one. */
function itemProblem(item: string): string | undefined {
  if (NAMES.has(item)) return undefined;
  const [address, prefix, extra] = item.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined)
    return `"${item}" is not an address, a CIDR range or one of loopback, linklocal, uniquelocal`;
  if (prefix === undefined) return undefined;
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (version === 4 ? 32 : 128)) return `"${item}" has no valid prefix length`;
  return undefined;
}

/** The Express value of TRUST_PROXY, or the problems with it. */
export function parseTrustProxy(value: string | undefined): { value: TrustProxy } | { problems: string[] } {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false') return { value: false };
  if (text === 'true')
    return { problems: ['TRUST_PROXY=true would trust every hop; give the number of proxies or their addresses'] };
  if (/^\d+$/.test(text)) return { value: Number(text) };
  const items = text.split(',').map((item) => item.trim());
  const problems = items.map(itemProblem).filter((problem) => problem !== undefined);
  return problems.length > 0 ? { problems: problems.map((p) => `TRUST_PROXY: ${p}`) } : { value: items.join(',') };
}
