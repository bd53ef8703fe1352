import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { buildSchema, NoSchemaIntrospectionCustomRule, printSchema, specifiedRules } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import type { ProbeRequest } from '../../../scanner/api.js';
import { buildWireRequest } from '../../../scanner/probe-request.js';
import { createScanHttp } from '../../../scanner/http.js';
import { curlFlagsFrom } from '../../../scanner/curl-args.js';
import { operationFromCurl } from '../../../scanner/curl-operation.js';
import { readSchema } from '../../../scanner/graphql/read-schema.js';
import { startGraphqlDemo, type GraphqlDemoTarget } from '../../fixtures/targets/graphql-demo-target.js';

const SDL = `
type Order { id: ID! total: Int! }
type Query { orders(first: Int): [Order!]! order(id: ID!): Order me: String }
type Mutation { login(username: String!, password: String!): String }
`;

/** graphql-http with introspection refused by graphql-js's own rule; its errors still suggest names. */
async function noIntrospection(): Promise<{ url: string; server: Server }> {
  const handler = createHandler({
    schema: buildSchema(SDL),
    validationRules: () => [...specifiedRules, NoSchemaIntrospectionCustomRule],
    rootValue: { orders: () => [], order: () => null, me: () => 'alice', login: () => null },
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, server };
}

async function read(url: string, options: { schemaFile?: string; cwd?: string; token?: string } = {}) {
  const base = operationFromCurl(
    url,
    curlFlagsFrom({ request: 'POST', header: options.token ? [`Authorization: Bearer ${options.token}`] : [] }),
  );
  const http = createScanHttp({ rate: { count: 1000, perMs: 1000 } });
  let sent = 0;
  try {
    const result = await readSchema(
      url,
      (probe: ProbeRequest) => {
        sent += 1;
        return http.send(buildWireRequest(base, probe)).catch(() => undefined);
      },
      { schemaFile: options.schemaFile, cwd: options.cwd ?? process.cwd() },
    );
    return { ...result, sent };
  } finally {
    http.close();
  }
}

describe('reading a GraphQL schema (scanner/graphql/read-schema.ts)', function () {
  this.timeout(20_000);
  let demo: GraphqlDemoTarget | undefined;
  afterEach(async () => demo?.close());

  it('gets past an introspection block that matches the query text with a field before __schema', async () => {
    demo = await startGraphqlDemo();
    const result = await read(demo.url, { token: demo.tokens.alice });
    expect(result.source).to.equal('introspection bypass: sacrificial-field');
    expect(Object.keys(result.schema!.getQueryType()!.getFields())).to.include.members(['orders', 'order', 'products']);
    expect(result.sent).to.equal(2);
  });

  it('recovers field names, types and required arguments from suggestions when introspection is refused', async () => {
    const target = await noIntrospection();
    try {
      const result = await read(target.url);
      expect(result.source).to.equal('validation errors and suggestions (partial)');
      const query = result.schema!.getQueryType()!.getFields();
      expect(Object.keys(query)).to.include.members(['orders', 'order', 'me']);
      expect(String(query.order.args.find((a) => a.name === 'id')?.type)).to.equal('ID!');
      expect(String(query.orders.type)).to.equal('[Order!]!');
      expect(Object.keys(result.schema!.getMutationType()!.getFields())).to.deep.equal(['login']);
      expect(result.sent).to.be.at.most(7 + 60);
    } finally {
      target.server.closeAllConnections();
      target.server.close();
    }
  });

  it('still learns which guessed fields exist without suggestions: validation names only the unknown ones', async () => {
    demo = await startGraphqlDemo({ secure: true });
    const result = await read(demo.url, { token: demo.tokens.alice });
    expect(result.source).to.equal('validation errors and suggestions (partial)');
    expect(Object.keys(result.schema!.getQueryType()!.getFields())).to.include.members(['me', 'users', 'orders']);
  });

  it('says no schema was read when every document is refused alike, and names --schema', async () => {
    const server = createServer((_req, res) => void res.writeHead(200).end('{"errors":[{"message":"query refused"}]}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const result = await read(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`);
      expect(result.schema).to.equal(undefined);
      expect(result.source).to.equal('none');
      expect(result.reason).to.match(/--schema FILE/);
    } finally {
      server.close();
    }
  });

  it('reads --schema as SDL or as introspection JSON, and refuses a file that is neither with its name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gq-schema-'));
    try {
      await writeFile(join(dir, 'api.graphql'), SDL);
      const sdl = await read('http://127.0.0.1:9/graphql', { schemaFile: 'api.graphql', cwd: dir });
      expect(sdl.source).to.equal('file');
      expect(printSchema(sdl.schema!)).to.include('order(id: ID!): Order');
      const { graphqlSync, getIntrospectionQuery } = await import('graphql');
      const introspection = graphqlSync({ schema: buildSchema(SDL), source: getIntrospectionQuery() });
      await writeFile(join(dir, 'api.json'), JSON.stringify(introspection));
      const json = await read('http://127.0.0.1:9/graphql', { schemaFile: 'api.json', cwd: dir });
      expect(Object.keys(json.schema!.getQueryType()!.getFields())).to.deep.equal(['orders', 'order', 'me']);
      await writeFile(join(dir, 'bad.json'), '{"data":{}}');
      const bad = await read('http://127.0.0.1:9/graphql', { schemaFile: 'bad.json', cwd: dir }).then(
        () => 'read',
        (e: Error) => e.message,
      );
      expect(bad).to.match(/--schema bad\.json: not a GraphQL schema/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
