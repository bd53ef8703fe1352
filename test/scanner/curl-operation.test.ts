import { expect } from 'chai';
import { curlFlagsFrom, curlOptions } from '../../scanner/curl-args.js';
import { operationFromCurl } from '../../scanner/curl-operation.js';
import { commonFlagsFrom, commonOptions } from '../../scanner/common-args.js';
import { parseArgv } from '../../scanner/parse-argv.js';
import { buildWireRequest } from '../../scanner/probe-request.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../../scanner/http.js';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';

function parse(...argv: string[]) {
  const { values, positionals } = parseArgv(argv, { ...curlOptions, ...commonOptions }, 'scan curl');
  return { curl: curlFlagsFrom(values), common: commonFlagsFrom(values), positionals };
}

describe('scan curl flags and the operation they describe', () => {
  it('keeps every value of a repeated -H, grouping names case-insensitively', () => {
    const { curl } = parse('-H', 'X-Trace: a', '--header', 'x-trace: b', '-H', 'Accept: text/plain');
    const op = operationFromCurl('http://127.0.0.1/x', curl);
    expect(op.headers).to.deep.equal({ 'X-Trace': ['a', 'b'], Accept: ['text/plain'] });
    expect(buildWireRequest(op).headers['X-Trace']).to.deep.equal(['a', 'b']);
  });

  it('defaults to GET, POST with data, and the -X method otherwise', () => {
    expect(operationFromCurl('http://h/', parse().curl).method).to.equal('GET');
    const post = operationFromCurl('http://h/', parse('-d', 'a=1', '--data-raw', '@b').curl);
    expect(post).to.include({ method: 'POST', body: 'a=1&@b' });
    expect(post.headers['Content-Type']).to.deep.equal(['application/x-www-form-urlencoded']);
    expect(operationFromCurl('http://h/', parse('-X', 'put', '--json', '{"a":1}').curl)).to.include({
      method: 'PUT',
      body: '{"a":1}',
    });
  });

  it('detects a Bearer JWT, whatever the case of the scheme, and removes its header', () => {
    const op = operationFromCurl('http://h/', parse('-H', `authorization: bearer ${JWT}`).curl);
    expect(op.credential).to.include({
      type: 'http',
      scheme: 'bearer',
      format: 'jwt',
      value: JWT,
      name: 'Authorization',
    });
    expect(op.headers).to.deep.equal({});
    expect(buildWireRequest(op, { credential: null }).headers).to.not.have.property('Authorization');
  });

  it('detects Basic from -u, --oauth2-bearer, and API-key-like headers', () => {
    expect(operationFromCurl('http://h/', parse('-u', 'al:pw').curl).credential).to.include({
      scheme: 'basic',
      value: Buffer.from('al:pw').toString('base64'),
    });
    expect(operationFromCurl('http://h/', parse('--oauth2-bearer', 'opaque').curl).credential).to.include({
      scheme: 'bearer',
      format: 'opaque',
    });
    const apiKey = operationFromCurl('http://h/', parse('-H', 'X-API-Key: k123').curl);
    expect(apiKey.credential).to.include({ type: 'apiKey', in: 'header', name: 'X-API-Key', value: 'k123' });
    expect(buildWireRequest(apiKey, { credential: 'forged' }).headers['X-API-Key']).to.equal('forged');
    expect(operationFromCurl('http://h/', parse('-H', 'Accept: */*').curl).credential).to.equal(undefined);
  });

  it('takes cookies, -A and -e, and a scheme-less URL as http', () => {
    const op = operationFromCurl(
      '127.0.0.1:8080/p?q=1',
      parse('-b', 'a=1; b=2', '-A', 'ua/1', '-e', 'http://ref/').curl,
    );
    expect(op).to.include({ url: 'http://127.0.0.1:8080/p?q=1', path: '/p', id: 'GET /p?q=1' });
    expect(op.cookies).to.deep.equal({ a: '1', b: '2' });
    expect(buildWireRequest(op).headers).to.include({
      Cookie: 'a=1; b=2',
      'User-Agent': 'ua/1',
      Referer: 'http://ref/',
    });
  });

  it('has a 10 s per-request timeout by default and takes -m and --connect-timeout in seconds', () => {
    expect(parse().curl.maxTimeMs).to.equal(undefined);
    expect(DEFAULT_REQUEST_TIMEOUT_MS).to.equal(10_000);
    expect(parse('-m', '2.5', '--connect-timeout', '1').curl).to.include({ maxTimeMs: 2500, connectTimeoutMs: 1000 });
  });

  it('parses every transport flag of docs/architecture.md §2.1', () => {
    const { curl } = parse(
      '-k',
      '--cacert',
      'ca.pem',
      '-E',
      'c.pem',
      '--key',
      'k.pem',
      '-x',
      'http://proxy:3128',
      '-L',
      '--max-redirs',
      '3',
    );
    expect(curl).to.include({
      insecure: true,
      cacert: 'ca.pem',
      cert: 'c.pem',
      key: 'k.pem',
      proxy: 'http://proxy:3128',
      location: true,
      maxRedirs: 3,
    });
  });

  it('applies the common defaults: table to stdout, threshold 1.0, 50/s, concurrency 8', () => {
    expect(parse().common).to.include({
      reportFormat: 'table',
      reportTransport: 'stdout',
      severityThreshold: 1,
      concurrency: 8,
      noProgress: false,
    });
    expect(parse().common.rate).to.deep.equal({ count: 50, perMs: 1000 });
    expect(parse('--report-file', 'r.json').common.reportTransport).to.equal('file');
    expect(parse('--scans', 'jwt.*', '--scans', 'misconfiguration.*').common.scans).to.deep.equal([
      'jwt.*',
      'misconfiguration.*',
    ]);
  });

  it('refuses unknown flags and malformed headers', () => {
    expect(() => parse('--retry', '3')).to.throw('unknown flag --retry');
    expect(() => operationFromCurl('http://h/', curlFlagsFrom({ header: ['no-colon-here'] }))).to.throw(
      'expected "Name: value"',
    );
    expect(() => parse('--rate', 'fast')).to.throw('--rate must be <n>/<s|m|h>, e.g. 50/s (got "fast")');
    expect(() => parse('--report-transport', 'file')).to.throw('--report-transport file needs --report-file');
  });
});
