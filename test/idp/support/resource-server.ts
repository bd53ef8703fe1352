/**
 * A protected resource on 127.0.0.1 as an MCP server is one (RFC 9728 + RFC 8707): without a token it answers 401
 * with `WWW-Authenticate: Bearer resource_metadata="…"`; it publishes the metadata the IdP serves for it (copied at
 * `publish`); it accepts a JWT access token signed by the IdP whose `aud` is its own URL, and says whose it is.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';

export interface ResourceServer {
  /** The resource identifier: http://127.0.0.1:<port>/mcp */
  url: string;
  metadataUrl: string;
  /** Copies the IdP's RFC 9728 document for this resource and trusts that IdP's tokens. */
  publish(idpMetadataUrl: string, issuer: string): Promise<void>;
  close(): Promise<void>;
}

export async function startResourceServer(path = '/mcp'): Promise<ResourceServer> {
  let metadata: string | undefined;
  let verify: ((token: string) => Promise<Record<string, unknown>>) | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === `/.well-known/oauth-protected-resource${path}` && metadata) {
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(metadata);
      }
      if (req.url !== path) return void res.writeHead(404).end();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource${path}"`;
      if (!token || !verify) return void res.writeHead(401, { 'www-authenticate': challenge }).end();
      try {
        const claims = await verify(token);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ sub: claims.sub, scope: claims.scope }));
      } catch (error) {
        res
          .writeHead(401, { 'www-authenticate': `${challenge}, error="invalid_token"` })
          .end(JSON.stringify({ error: (error as Error).message }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const url = `${origin}${path}`;
  return {
    url,
    metadataUrl: `${origin}/.well-known/oauth-protected-resource${path}`,
    async publish(idpMetadataUrl, issuer) {
      metadata = await (await fetch(idpMetadataUrl)).text();
      const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
      verify = async (token) => (await jwtVerify(token, keys, { issuer, audience: url, typ: 'at+jwt' })).payload;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
