/**
 * What a development build leaks when it fails, written from each framework's own output: stack traces (Node.js,
 * Python, Java, .NET, Ruby, PHP, Go — raw or JSON-escaped) and debug error pages (Werkzeug, Express/Connect, Django,
 * Rails, Spring Boot, ASP.NET, Laravel). Each names what it found so a finding can say it.
 */
export interface Signature {
  name: string;
  /** Matches when the pattern occurs at least `times` times (a single "at x" line is not a trace). */
  pattern: RegExp;
  times?: number;
}

// A line break: raw, as the two characters `\` `n` inside a JSON string, or `<br>` in an HTML page.
const NL = String.raw`(?:\n|\\n|\\r\\n|<br>)`;
// Indentation: spaces, tabs (raw or JSON-escaped) or HTML non-breaking spaces.
const INDENT = String.raw`(?:\s|\\t|&nbsp;)+`;

export const STACK_TRACES: readonly Signature[] = [
  // Also one frame per JSON string (`"stacktrace": ["Error: x", "    at f (/app/a.js:1:2)"]`, GraphQL servers in dev).
  {
    name: 'Node.js stack trace',
    pattern: new RegExp(
      String.raw`(?:${NL}|")${INDENT}at (?:[\w$.<>\[\] ]+ \()?(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^\s)]*:\d+:\d+\)?`,
      'g',
    ),
    times: 2,
  },
  { name: 'Python traceback', pattern: /Traceback \(most recent call last\):/g },
  {
    name: 'Java stack trace',
    pattern: new RegExp(String.raw`${INDENT}at [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)`, 'g'),
    times: 2,
  },
  { name: '.NET stack trace', pattern: /\bat [\w.`<>]+\([^)]*\) in [^\n]*:line \d+/g },
  { name: 'Ruby backtrace', pattern: /[\w/.-]+\.rb:\d+:in [`'][^'`]+'/g, times: 2 },
  { name: 'PHP stack trace', pattern: new RegExp(String.raw`Stack trace:\s*${NL}#0 |PHP (?:Fatal|Parse) error:`, 'g') },
  { name: 'Go panic trace', pattern: /goroutine \d+ \[running\]:/g },
];

export const DEBUG_PAGES: readonly Signature[] = [
  {
    name: 'Werkzeug debugger',
    pattern: /Werkzeug Debugger|The debugger caught an exception in your WSGI application|__debugger__=yes/g,
  },
  { name: 'Express/Connect development error page', pattern: /<pre>[^<]*<br>(?:\s|&nbsp;)*at [^<]+<br>/g },
  {
    name: 'Django debug page',
    pattern: /You(?:'|&#39;|&#x27;)re seeing this error because you have <code>DEBUG = True<\/code>/g,
  },
  {
    name: 'Rails exception page',
    pattern: /Action Controller: Exception caught|<h1>Routing Error<\/h1>[\s\S]*Rails\.root/g,
  },
  { name: 'Spring Boot error with trace', pattern: /"trace"\s*:\s*"(?:java|org|com)\.[\w.$]+(?:Exception|Error)/g },
  {
    name: 'ASP.NET detailed error page',
    pattern: /Server Error in '[^']*' Application|ASP\.NET is configured to show verbose error messages/g,
  },
  {
    name: 'Laravel Ignition/Whoops page',
    pattern: /Whoops, looks like something went wrong|Ignition\\|window\.ignite\s*=/g,
  },
];

/** The first signature of `list` found in `text`, if any. */
export function firstSignature(list: readonly Signature[], text: string): string | undefined {
  for (const { name, pattern, times = 1 } of list) {
    const found = text.match(
      new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
    );
    if (found && found.length >= times) return name;
  }
  return undefined;
}
