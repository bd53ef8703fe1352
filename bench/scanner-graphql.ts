/**
 * The GraphQL part of bench/scanner.ts: `scanner scan graphql` at defaults (50/s per host, concurrency 8, one bearer
 * token) of a generated API of 30 root fields on graphql-http — 20 queries (lists, objects by id, searches, a type
 * cycle) and 10 mutations (creates, updates, a login, deletes the scan must not send) — answered from memory, every
 * field but the login requiring the token. Prints requests per field and wall time, each check's requests, and
 * beside them the same scan with every field excluded (the endpoint operation alone: schema read, graphql.* checks).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildSchema, GraphQLError } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/http';
import { run } from '../scanner/cli.js';
import type { Report } from '../scanner/report/report-types.js';

const KINDS = ['order', 'product', 'invoice', 'ticket', 'project'];
const TOKEN = 'bench-token';

function schemaText(): string {
  const types = KINDS.map(
    (k) => `type ${cap(k)} { id: ID! name: String! total: Int! owner: User! createdAt: String! }`,
  ).join('\n');
  const queries = KINDS.flatMap((k) => [
    `${k}s(first: Int, search: String): [${cap(k)}!]!`,
    `${k}(id: ID!): ${cap(k)}`,
    `${k}Count: Int!`,
    `${k}sByOwner(ownerId: ID!): [${cap(k)}!]!`,
  ]);
  const mutations = [
    ...KINDS.map((k) => `create${cap(k)}(name: String!, note: String): ${cap(k)}`),
    ...KINDS.slice(0, 3).map((k) => `rename${cap(k)}(id: ID!, name: String!): ${cap(k)}`),
    'login(username: String!, password: String!): String',
    'deleteAllOrders: Boolean',
  ];
  return `type User { id: ID! username: String! orders: [Order!]! }
${types}
type Query { me: User ${queries.join(' ')} }
type Mutation { ${mutations.join(' ')} }`;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function rootValue(): Record<string, unknown> {
  const user: Record<string, unknown> = { id: 'u1', username: 'bench' };
  const item = (kind: string, i: number) => ({
    id: `${kind}${i}`,
    name: `${kind} ${i}`,
    total: i,
    owner: user,
    createdAt: '2026-01-01',
  });
  user.orders = () => [item('order', 1)];
  const root: Record<string, unknown> = { me: () => user, login: () => null, deleteAllOrders: () => true };
  for (const k of KINDS) {
    root[`${k}s`] = () => [item(k, 1), item(k, 2)];
    root[k] = ({ id }: { id: string }) => (id.startsWith(k) ? item(k, 1) : null);
    root[`${k}Count`] = () => 2;
    root[`${k}sByOwner`] = () => [item(k, 1)];
    root[`create${cap(k)}`] = ({ name }: { name: string }) => ({ ...item(k, 3), name });
    root[`rename${cap(k)}`] = ({ name }: { name: string }) => ({ ...item(k, 1), name });
  }
  return root;
}

async function scan(url: string, file: string, extra: string[]): Promise<{ ms: number; report: Report }> {
  const sink = { write: () => true };
  const started = performance.now();
  const code = await run(
    [
      'scan',
      'graphql',
      url,
      '-H',
      `Authorization: Bearer ${TOKEN}`,
      '--no-progress',
      '--report-format',
      'json',
      '--report-file',
      file,
      ...extra,
    ],
    { stdout: sink, stderr: sink, env: {} },
  );
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`scan exited ${code}`);
  return { ms, report: JSON.parse(await readFile(file, 'utf8')) as Report };
}

export async function benchGraphql(dir: string): Promise<void> {
  const handler = createHandler({
    schema: buildSchema(schemaText()),
    rootValue: rootValue(),
    context: (req) => ({ signedIn: req.raw.headers.authorization === `Bearer ${TOKEN}` }),
    onOperation: (req, args, result) => {
      const open = /\blogin\b/.test(String(args.document.loc?.source.body ?? ''));
      if (!open && req.raw.headers.authorization !== `Bearer ${TOKEN}`)
        return { errors: [new GraphQLError('not authenticated', { extensions: { code: 'UNAUTHENTICATED' } })] };
      return result;
    },
  });
  const server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  try {
    const fields = await scan(url, join(dir, 'graphql.json'), []);
    const endpoint = await scan(url, join(dir, 'graphql-endpoint.json'), [
      '--exclude-operations',
      'query.*',
      '--exclude-operations',
      'mutation.*',
    ]);
    const count =
      Object.keys(fields.report.graphql?.queries ?? {}).length +
      Object.keys(fields.report.graphql?.mutations ?? {}).length;
    const requests = fields.report.options.requestsSent as number;
    console.log(
      `scan graphql of a ${count}-field schema at defaults (schema from ${fields.report.graphql?.schemaSource}): ${requests} requests, ${(requests / count).toFixed(1)} per field, ${fields.ms.toFixed(0)} ms`,
    );
    console.log(
      `  the endpoint operation alone (--exclude-operations 'query.*' 'mutation.*'): ${endpoint.report.options.requestsSent as number} requests, ${endpoint.ms.toFixed(0)} ms (ratio ${(fields.ms / endpoint.ms).toFixed(1)}× the time for ${count} fields)`,
    );
    const byCheck = new Map<string, number>();
    const seen = new Set<string>();
    for (const item of fields.report.reports) {
      const fresh = item.scans.filter((s) => !seen.has(s.id));
      for (const s of fresh) seen.add(s.id);
      byCheck.set(item.id, (byCheck.get(item.id) ?? 0) + fresh.length);
    }
    for (const [check, n] of [...byCheck].filter(([, n]) => n > 0).sort(([, a], [, b]) => b - a))
      console.log(`    ${check.padEnd(40)} ${String(n).padStart(4)}  (${(n / count).toFixed(1)} per field)`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
