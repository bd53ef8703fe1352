import { expect } from 'chai';
import { pino } from 'pino';
import { terminalDestination } from '../../lib/logger-terminal.js';
import { repeatLimited } from '../../lib/repeat-limited.js';

/** What the terminal destination writes for one JSON log line. */
function terminalLine(json: string): string {
  const out: string[] = [];
  terminalDestination({ write: (text) => out.push(text) }).write(json);
  return out.join('');
}

describe('terminal log lines', () => {
  it('turn a JSON warning into one short line with its name, message and fields', () => {
    const line = terminalLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 1, 12, 4, 5),
        name: 'registration-service',
        msg: 'slow JWKS',
        ms: 812,
      }),
    );
    expect(line).to.match(/^\d\d:\d\d:\d\d WARN {2}registration-service: slow JWKS ms=812\n$/);
  });

  it('turn an access log entry into method, path, status and duration', () => {
    const line = terminalLine(
      JSON.stringify({
        level: 30,
        time: Date.now(),
        msg: 'request completed',
        req: { id: 'r1', method: 'GET', path: '/api/v1/organizations' },
        res: { statusCode: 200 },
        responseTime: 4.2,
      }),
    );
    expect(line).to.match(/^\d\d:\d\d:\d\d GET \/api\/v1\/organizations 200 4ms\n$/);
  });

  it('come from a pino logger writing to the terminal destination, one line per entry', () => {
    const out: string[] = [];
    const logger = pino({ base: undefined }, terminalDestination({ write: (text) => out.push(text) }));
    logger.info({ store: 'memory' }, 'registration service listening');
    expect(out).to.have.length(1);
    expect(out[0]).to.match(/INFO {2}registration service listening store=memory\n$/);
  });
});

describe('a repeating warning', () => {
  it('is logged once, then its repeats within the window become one line with their count', async () => {
    const lines: string[] = [];
    const logger = pino(
      { base: undefined },
      { write: (line: string) => lines.push((JSON.parse(line) as { msg: string }).msg) },
    );
    const warn = repeatLimited(logger, 'JWKS refetch budget exhausted', 30);
    for (let i = 0; i < 473; i += 1) warn();
    expect(lines).to.deep.equal(['JWKS refetch budget exhausted']);
    for (let waited = 0; lines.length < 2 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(lines).to.deep.equal([
      'JWKS refetch budget exhausted',
      'JWKS refetch budget exhausted (472 more in the last 30 ms)',
    ]);
  });
});
