/**
 * SIMULATED shell for the demo's `pingHost` mutation: an interpreter of a tiny command language that only prints
 * text — no process is ever spawned. The vulnerable twin pastes the host into `ping -c 1 <host>` and runs the line
 * as a shell would: `;`, `&&`, `||`, `|` and newlines separate commands, `$(…)` and backticks substitute output, so
 * `example.com; id` prints a fake `id`. The secure twin accepts a host name only and runs `ping` alone.
 * (A target for the injection checks of docs/architecture.md §2.10.)
 */
const FAKE_OUTPUT: Record<string, (args: string[]) => string> = {
  ping: (args) => `PING ${args.at(-1) ?? ''}: 1 packets transmitted, 1 received, 0% packet loss`,
  echo: (args) => args.join(' '),
  id: () => 'uid=1000(shop) gid=1000(shop) groups=1000(shop)',
  whoami: () => 'shop',
  uname: (args) => (args.includes('-a') ? 'Linux demo 6.1.0 x86_64 GNU/Linux' : 'Linux'),
  hostname: () => 'demo-shop',
  pwd: () => '/srv/shop',
  cat: (args) =>
    args[0] === '/etc/passwd' ? 'root:x:0:0:root:/root:/bin/sh\nshop:x:1000:1000::/srv/shop:/bin/sh' : '',
};

function runOne(line: string): string {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const command = FAKE_OUTPUT[words[0]];
  return command ? command(words.slice(1)) : `sh: 1: ${words[0]}: not found`;
}

/** Runs a command line of the tiny language and returns what it printed. */
function runShellLine(line: string): string {
  const substituted = line
    .replace(/\$\(([^)]*)\)/g, (_m, inner: string) => runShellLine(inner))
    .replace(/`([^`]*)`/g, (_m, inner: string) => runShellLine(inner));
  return substituted
    .split(/;|&&|\|\||\||\n/)
    .map(runOne)
    .filter((out) => out !== '')
    .join('\n');
}

const HOST = /^[A-Za-z0-9.-]{1,253}$/;

export function pingHost(host: string, secure: boolean): string {
  if (!secure) return runShellLine(`ping -c 1 ${host}`);
  if (!HOST.test(host)) throw new Error('host: a host name or an IP address');
  return runOne(`ping -c 1 ${host}`);
}
