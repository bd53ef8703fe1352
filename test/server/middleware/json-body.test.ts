import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { silentLogger } from '../../../lib/logger.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { BODY_LIMIT_BYTES, jsonBody } from '../../../server/middleware/json-body.js';
import { requestId } from '../../../server/middleware/request-id.js';

describe('jsonBody', () => {
  let server: Server;
  let request: ReturnType<typeof supertest>;
  let handled = 0;

  before(async () => {
    const app = express();
    app.use(requestId(), ...jsonBody());
    app.all('/echo', (req, res) => {
      handled += 1;
      res.json({ body: req.body ?? null });
    });
    app.use(errorHandler(silentLogger));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    request = supertest(server);
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    handled = 0;
  });

  /** Sends the bytes as they are (superagent would serialise a Buffer as JSON). */
  const postJson = (text: string) => request.post('/echo').set('Content-Type', 'application/json').send(text);

  /** A 422 validation_failed envelope's field paths (asserting it is one). */
  function refusedPaths(res: supertest.Response): string[] {
    expectEnvelope(res, 422, 'validation_failed');
    return res.body.error.fields.map((f: { path: string }) => f.path);
  }

  async function rawPost(bytes: Buffer): Promise<supertest.Response> {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: bytes,
    });
    return {
      status: res.status,
      type: res.headers.get('content-type')?.split(';')[0],
      headers: { 'x-request-id': res.headers.get('x-request-id') },
      body: await res.json(),
    } as unknown as supertest.Response;
  }

  function expectEnvelope(res: supertest.Response, status: number, code: string): void {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    expect(res.type).to.equal('application/json');
    expect(res.body.error.code).to.equal(code);
    expect(res.body.error.requestId).to.equal(res.headers['x-request-id']);
    expect(handled, 'the handler must not run').to.equal(0);
  }

  it('parses an application/json body', async () => {
    const res = await request.post('/echo').send({ name: 'App', config: { redirectUris: ['https://a.example/cb'] } });
    expect(res.status).to.equal(200);
    expect(res.body.body.config.redirectUris).to.deep.equal(['https://a.example/cb']);
  });

  it('accepts a POST without a body whatever its content type', async () => {
    const res = await request.post('/echo').set('Content-Type', 'text/plain');
    expect(res.status).to.equal(200);
    expect(res.body.body).to.equal(null);
  });

  it('answers 400 invalid_request for malformed JSON', async () => {
    expectEnvelope(await postJson('{"name": "a",'), 400, 'invalid_request');
  });

  it('answers 400 for a JSON scalar where an object is expected (strict parsing)', async () => {
    expectEnvelope(await postJson('"just a string"'), 400, 'invalid_request');
  });

  it('answers 415 for bodies that are not JSON', async () => {
    expectEnvelope(
      await request.post('/echo').set('Content-Type', 'text/plain').send('name=a'),
      415,
      'unsupported_media_type',
    );
    expectEnvelope(await request.post('/echo').type('form').send({ name: 'a' }), 415, 'unsupported_media_type');
    expectEnvelope(
      await request.patch('/echo').set('Content-Type', 'application/xml').send('<a/>'),
      415,
      'unsupported_media_type',
    );
  });

  it('answers 415 for a JSON body in a charset other than UTF-8', async () => {
    expectEnvelope(
      await request.post('/echo').set('Content-Type', 'application/json; charset=latin1').send('{}'),
      415,
      'unsupported_media_type',
    );
  });

  it(`answers 413 payload_too_large above ${BODY_LIMIT_BYTES} bytes (a 1 MiB body)`, async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
    expectEnvelope(await postJson(big), 413, 'payload_too_large');
  });

  it('rejects __proto__, constructor and prototype keys at any depth with their paths', async () => {
    const res = await postJson(
      '{"name":"a","__proto__":{"isAdmin":true},"config":{"redirectUris":[{"constructor":{"prototype":1}}]}}',
    );
    expectEnvelope(res, 422, 'validation_failed');
    expect(res.body.error.fields).to.deep.equal([
      { path: '__proto__', message: 'is not an allowed key' },
      { path: 'config.redirectUris[0].constructor', message: 'is not an allowed key' },
    ]);
    expect(({} as Record<string, unknown>).isAdmin).to.equal(undefined);
  });

  it('answers 415 for charset=utf-16 on a UTF-8 body, and for a UTF-16 body with its byte-order mark', async () => {
    expectEnvelope(
      await request.post('/echo').set('Content-Type', 'application/json; charset=utf-16').send('{}'),
      415,
      'unsupported_media_type',
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"name":"a"}', 'utf16le')]);
    expectEnvelope(await rawPost(utf16), 415, 'unsupported_media_type');
  });

  it('answers 415 for bytes that are not UTF-8, and accepts an explicit charset=UTF-8', async () => {
    const latin1 = Buffer.from('{"name":"caf\u00e9"}', 'latin1');
    expectEnvelope(await rawPost(latin1), 415, 'unsupported_media_type');
    const ok = await request
      .post('/echo')
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"name":"café"}');
    expect(ok.status).to.equal(200);
    expect(ok.body.body.name).to.equal('café');
  });

  it('rejects member names MongoDB cannot store (NUL, leading $, a dot, operator objects) with their paths', async () => {
    const res = await postJson(
      '{"config":{"jwks":{"keys":[{"kty":"RSA","a\\u0000b":1,"$x":2,"x.y":3,"ext":{"$gt":""}}]}}}',
    );
    expect(refusedPaths(res)).to.deep.equal([
      'config.jwks.keys[0].a\u0000b',
      'config.jwks.keys[0].$x',
      'config.jwks.keys[0].x.y',
      'config.jwks.keys[0].ext.$gt',
    ]);
  });

  it('rejects what FerretDB cannot store though MongoDB can (an array inside an array, a number read as Infinity)', async () => {
    const res = await postJson(
      '{"config":{"jwks":{"keys":[{"kty":"RSA","x5c":[["a"]],"e":1e400,"oth":[{"r":[1]}]}]}}}',
    );
    expect(refusedPaths(res)).to.deep.equal(['config.jwks.keys[0].x5c[0]', 'config.jwks.keys[0].e']);
  });

  it('rejects lone surrogates in strings and member names (never stored altered), and keeps well-formed pairs', async () => {
    const res = await postJson('{"name":"a\\ud800","tags":["\\udc00"],"x\\udfff":1}');
    expect(refusedPaths(res)).to.deep.equal(['name', 'tags[0]', 'x\udfff']);
    const ok = await postJson('{"name":"\\ud83d\\ude00"}');
    expect(ok.body.body.name).to.equal('\u{1F600}');
  });

  it('answers 400 for documents nested absurdly deep', async () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    expectEnvelope(await postJson(deep), 400, 'invalid_request');
  });
});
