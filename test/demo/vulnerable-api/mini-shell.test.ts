import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { runShell } from '../../../demo/vulnerable-api/mini-shell.js';
import { fromRoot } from '../../../lib/project-root.js';

describe('the demo’s simulated shell (demo/vulnerable-api/mini-shell.ts)', () => {
  it('runs commands after ; | && || & and newlines, and substitutes $( ) and backticks, as sh -c would', () => {
    expect(runShell('ping -c 1 example.com;echo one').output).to.match(/^PING example\.com: .*\none$/);
    expect(runShell('echo a|echo b').output).to.equal('b');
    expect(runShell('false&&echo no||echo yes').output).to.equal('yes');
    expect(runShell('echo x\necho y').output).to.equal('x\ny');
    expect(runShell('echo $(echo in)`echo side`').output).to.equal('inside');
  });

  it('honours quotes: a single-quoted value stays data until a quote closes it, and an open quote refuses the line', () => {
    expect(runShell("grep 'a;echo b' f").output).to.equal('sh: 1: grep: not found');
    expect(runShell("grep 'a';echo b;'' f").output).to.include('\nb');
    expect(runShell("echo 'open").output).to.equal('sh: 1: Syntax error: Unterminated quoted string');
    expect(runShell('echo ok # echo not').output).to.equal('ok');
  });

  it('hands sleeps and fetches back to the route instead of doing them', () => {
    expect(runShell('sleep 2;curl -s http://127.0.0.1:1/x')).to.deep.include({
      sleepSeconds: 2,
      fetches: ['http://127.0.0.1:1/x'],
    });
  });

  it('imports nothing: it can spawn no process, read or write no file and open no socket', async () => {
    const source = await readFile(fromRoot('demo', 'vulnerable-api', 'mini-shell.ts'), 'utf8');
    expect(source).to.not.match(/^import /m);
    expect(source).to.not.match(/\brequire\(|import\(/);
  });
});
