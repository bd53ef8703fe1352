/** The proxy for a target: `-x` first, else HTTPS_PROXY / HTTP_PROXY (either case) unless NO_PROXY matches the host. */

function noProxyMatches(host: string, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  return noProxy
    .split(',')
    .map((entry) => entry.trim().toLowerCase().replace(/:\d+$/, ''))
    .filter(Boolean)
    .some(
      (entry) =>
        entry === '*' ||
        host === entry.replace(/^\./, '') ||
        host.endsWith(entry.startsWith('.') ? entry : `.${entry}`),
    );
}

export function proxyFor(
  target: string,
  explicit: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (explicit) return explicit;
  const url = new URL(target);
  const pick = (name: string): string | undefined => env[name] ?? env[name.toUpperCase()];
  if (noProxyMatches(url.hostname.toLowerCase(), pick('no_proxy'))) return undefined;
  const proxy = url.protocol === 'https:' ? pick('https_proxy') : pick('http_proxy');
  return proxy || undefined;
}
