/**
 * SIMULATED POSIX shell for the demo's command-injection routes: a tokenizer and interpreter of a tiny command
 * language that never spawns a process. It parses a command line as `sh -c` would — single and double quotes,
 * backslashes, `$( )` and backtick substitution, `;` `|` `||` `&&` `&` and newlines between commands, `#` comments,
 * an unterminated quote refusing the whole line — and runs a handful of commands that only print text (`echo`, a fake
 * `ping`, `nslookup`, `id`…). `sleep N` and `curl`/`wget URL` are not done here: they come back as a delay and a list
 * of fetches for the route to perform within its own bounds (seconds capped, loopback only).
 * (A target for the injection checks of docs/architecture.md §2.10.)
 */

export interface ShellRun {
  output: string;
  /** Seconds `sleep` asked for (the route decides how much of it to wait). */
  sleepSeconds: number;
  /** URLs `curl`/`wget` asked for. */
  fetches: string[];
}

type Op = ';' | '|' | '||' | '&&' | '&';
interface Command {
  words: string[];
  /** How this command joins the previous one. */
  after: Op;
}

class SyntaxError extends Error {}

const FAKE_FILES: Record<string, string> = {
  '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\ndemo:x:1000:1000::/srv/demo:/bin/sh',
  '/etc/hostname': 'demo-api',
};

/** Finds the `)` closing a `$(` at `start` (the index after `$(`), counting nested parentheses. */
function closing(line: string, start: number): number {
  let depth = 1;
  for (let i = start; i < line.length; i += 1) {
    if (line[i] === '(') depth += 1;
    else if (line[i] === ')' && (depth -= 1) === 0) return i;
  }
  throw new SyntaxError('Syntax error: end of file unexpected (expecting ")")');
}

function parse(line: string, run: (inner: string) => string): Command[] {
  const commands: Command[] = [];
  let words: string[] = [];
  let word: string | undefined;
  let after: Op = ';';
  const push = (text: string): void => {
    word = (word ?? '') + text;
  };
  const endWord = (): void => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = (next: Op): void => {
    endWord();
    if (words.length > 0) commands.push({ words, after });
    words = [];
    after = next;
  };
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else push(c);
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      push(line[(i += 1)]);
      continue;
    }
    if (c === '$' && line[i + 1] === '(') {
      const end = closing(line, i + 2);
      push(run(line.slice(i + 2, end)));
      i = end;
      continue;
    }
    if (c === '`') {
      const end = line.indexOf('`', i + 1);
      if (end < 0) throw new SyntaxError('Syntax error: EOF in backquote substitution');
      push(run(line.slice(i + 1, end)));
      i = end;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else push(c);
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      push('');
    } else if (c === ' ' || c === '\t') endWord();
    else if (c === '#' && word === undefined) {
      while (i + 1 < line.length && line[i + 1] !== '\n') i += 1;
    } else if (c === ';' || c === '\n') endCommand(';');
    else if (c === '|' || c === '&') {
      const double = line[i + 1] === c;
      if (double) i += 1;
      endCommand(c === '|' ? (double ? '||' : '|') : double ? '&&' : '&');
    } else push(c);
  }
  if (quote) throw new SyntaxError('Syntax error: Unterminated quoted string');
  endCommand(';');
  return commands;
}

/** Runs one command of the tiny language: its printed text and exit status. */
function execute(words: string[], run: ShellRun): { out: string; status: number } {
  const [name, ...args] = words;
  switch (name) {
    case 'echo':
      return { out: args.join(' '), status: 0 };
    case 'ping':
    case 'nslookup': {
      const host = args.at(-1) ?? '';
      if (!/^[A-Za-z0-9.-]+$/.test(host)) return { out: `${name}: ${host}: Name or service not known`, status: 2 };
      return name === 'ping'
        ? { out: `PING ${host}: 1 packets transmitted, 1 received, 0% packet loss, time 12ms`, status: 0 }
        : { out: `Server: 127.0.0.53\nName: ${host}\nAddress: 192.0.2.10`, status: 0 };
    }
    case 'id':
      return { out: 'uid=1000(demo) gid=1000(demo) groups=1000(demo)', status: 0 };
    case 'whoami':
      return { out: 'demo', status: 0 };
    case 'uname':
      return { out: 'Linux', status: 0 };
    case 'true':
    case ':':
      return { out: '', status: 0 };
    case 'false':
      return { out: '', status: 1 };
    case 'cat':
      return args[0] in FAKE_FILES
        ? { out: FAKE_FILES[args[0]], status: 0 }
        : { out: `cat: ${args[0]}: No such file or directory`, status: 1 };
    case 'sleep': {
      const seconds = Number(args[0]);
      if (!Number.isFinite(seconds) || seconds < 0) return { out: 'sleep: invalid time interval', status: 1 };
      run.sleepSeconds += seconds;
      return { out: '', status: 0 };
    }
    case 'curl':
    case 'wget': {
      const target = args.find((a) => /^https?:\/\//.test(a));
      if (!target) return { out: `${name}: no URL specified`, status: 2 };
      run.fetches.push(target);
      return { out: '', status: 0 };
    }
    default:
      return { out: `sh: 1: ${name}: not found`, status: 127 };
  }
}

function runLine(line: string, run: ShellRun, depth: number): string {
  if (depth > 4) return '';
  const commands = parse(line, (inner) => runLine(inner, run, depth + 1));
  const printed: string[] = [];
  let status = 0;
  for (const command of commands) {
    if (command.after === '&&' && status !== 0) continue;
    if (command.after === '||' && status === 0) continue;
    // A pipe feeds the previous output to a command that ignores its input: only the last one prints.
    if (command.after === '|') printed.pop();
    const result = execute(command.words, run);
    status = result.status;
    printed.push(result.out);
  }
  return printed.filter((out) => out !== '').join('\n');
}

/** Runs a command line as `sh -c` would, without any process: what it printed, slept and fetched. */
export function runShell(line: string): ShellRun {
  const run: ShellRun = { output: '', sleepSeconds: 0, fetches: [] };
  try {
    run.output = runLine(line, run, 0);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    run.output = `sh: 1: ${error.message}`;
  }
  return run;
}
