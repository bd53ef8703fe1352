/**
 * The demo GraphQL API's resolvers (a graphql-js root value; object fields resolve through the same functions).
 * Vulnerable twin, as the OWASP API Top 10 describes real APIs failing: `order(id)` answers any user's order (BOLA),
 * `adminStats` answers any signed-in user (BFLA), `users` lists everyone with password and API key, `products` pastes
 * the category into SQL (demo/vulnerable-api/mini-sql.ts), `importFromUrl` and `checkStatusPage` (a URL split into
 * host, port and path) fetch what they are given (loopback only), `login` has no attempt limit (and the QA account a
 * common password: qa-account.ts), `session(token:)` believes an unsigned token (session-tokens.ts), `pingHost` and
 * `helpDocument` run their argument through a simulated shell and an in-memory file set. Secure twin: authorization
 * per field, a bound SQL parameter, no fetch, validated arguments, an account lockout after failed sign-ins
 * (sign-in-lockout.ts), session tokens verified.
 */
import { GraphQLError } from 'graphql';
import { query } from '../vulnerable-api/mini-sql.js';
import { passwordMatches, type Order, type User } from '../vulnerable-api/store.js';
import { pingHost } from './command-runner.js';
import { readHelpDocument } from './help-documents.js';
import { createSignInLockout } from './sign-in-lockout.js';
import type { GraphqlStore } from './store.js';

export interface DemoContext {
  user?: User;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const STATUS_PARTNERS = new Set(['status.example.com']);
const PRODUCTS = 'SELECT id, name, category, price FROM products WHERE hidden = 0 AND category = ';

function signedIn(context: DemoContext): User {
  if (!context.user) throw new GraphQLError('not authenticated', { extensions: { code: 'UNAUTHENTICATED' } });
  return context.user;
}

const forbidden = (): GraphQLError => new GraphQLError('forbidden', { extensions: { code: 'FORBIDDEN' } });

export function createRootValue(store: GraphqlStore, secure: boolean): Record<string, unknown> {
  const lockout = createSignInLockout();
  const userView = (user: User): Record<string, unknown> => ({
    id: user.id,
    username: user.username,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    ...(secure ? {} : { password: user.password, apiKey: user.apiKey }),
    orders: () => store.orders.filter((o) => o.userId === user.id).map(orderView),
  });
  const orderView = (order: Order): Record<string, unknown> => ({
    ...order,
    owner: () => userView(store.users.find((u) => u.id === order.userId)!),
  });
  return {
    me: (_args: unknown, context: DemoContext) => userView(signedIn(context)),
    users: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      return (secure ? store.users.filter((u) => u.id === caller.id || caller.role === 'admin') : store.users).map(
        userView,
      );
    },
    orders: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      return store.orders.filter((o) => o.userId === caller.id).map(orderView);
    },
    order: ({ id }: { id: string }, context: DemoContext) => {
      const caller = signedIn(context);
      const order = store.orders.find((o) => o.id === id);
      if (!order || (secure && order.userId !== caller.id)) return null;
      return orderView(order);
    },
    products: ({ category }: { category: string }) =>
      secure ? query(store.tables, `${PRODUCTS}?`, [category]) : query(store.tables, `${PRODUCTS}'${category}'`),
    helpDocument: ({ path }: { path: string }) => readHelpDocument(path, secure),
    adminStats: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      if (secure && caller.role !== 'admin') throw forbidden();
      return {
        users: store.users.length,
        orders: store.orders.length,
        revenue: store.orders.reduce((sum, o) => sum + o.total, 0),
      };
    },
    systemDiagnostics: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      // The vulnerable twin relies on the query deny list (http-handler.ts) to keep this from ordinary users.
      if (secure && caller.role !== 'admin') throw forbidden();
      return { uptimeSeconds: 3600, nodeVersion: process.version, databaseUrl: 'postgres://shop@db.internal/shop' };
    },
    session: ({ token }: { token: string }) => {
      const claims = store.sessions.argumentClaims(token);
      const user = claims && store.users.find((u) => u.id === claims.sub);
      // No such session: null, as for any unknown object.
      return user ? { userId: user.id, username: user.username, expiresAt: claims.exp ?? 0 } : null;
    },
    notes: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      return store.notes.filter((n) => n.userId === caller.id);
    },
    login: ({ username, password }: { username: string; password: string }) => {
      const user = store.users.find((u) => u.username === username);
      if (user && secure) lockout.assertOpen(user.id);
      const ok = user && (secure ? passwordMatches(password, user.passwordHash ?? '') : user.password === password);
      if (user && secure) lockout[ok ? 'succeeded' : 'failed'](user.id);
      if (!user || !ok)
        throw new GraphQLError('invalid username or password', { extensions: { code: 'UNAUTHENTICATED' } });
      const token = [...store.tokens].find(([, id]) => id === user.id)![0];
      return { token, user: userView(user) };
    },
    importFromUrl: async ({ url }: { url: string }, context: DemoContext) => {
      const caller = signedIn(context);
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new GraphQLError('url: an absolute http(s) URL', { extensions: { code: 'BAD_USER_INPUT' } });
      }
      const record = { id: store.nextId('imp'), userId: caller.id, url: target.href, status: 0, bytes: 0 };
      // The secure twin queues imports for a worker that refuses internal addresses; it never fetches here.
      if (!secure) {
        // The demo reaches nothing beyond this machine: only loopback URLs are fetched.
        if (!LOOPBACK.has(target.hostname))
          throw new GraphQLError('this demo only imports from loopback URLs', {
            extensions: { code: 'BAD_USER_INPUT' },
          });
        const answer = await fetch(target, { signal: AbortSignal.timeout(2000) });
        const text = await answer.text();
        Object.assign(record, { status: answer.status, bytes: text.length });
      }
      store.imports.push(record);
      return record;
    },
    checkStatusPage: async (
      { host, port, path }: { host: string; port: number; path: string },
      context: DemoContext,
    ) => {
      signedIn(context);
      // The secure twin checks only the partners it knows, over https; the vulnerable one builds any URL it is given.
      if (secure) {
        if (!STATUS_PARTNERS.has(host))
          throw new GraphQLError('host: not a known partner', { extensions: { code: 'BAD_USER_INPUT' } });
        return 200;
      }
      if (!LOOPBACK.has(host))
        throw new GraphQLError('this demo only checks loopback hosts', { extensions: { code: 'BAD_USER_INPUT' } });
      const answer = await fetch(`http://${host}:${port}${path.startsWith('/') ? '' : '/'}${path}`, {
        signal: AbortSignal.timeout(2000),
      });
      return answer.status;
    },
    pingHost: ({ host }: { host: string }, context: DemoContext) => {
      signedIn(context);
      return pingHost(host, secure);
    },
    createNote: ({ title, body }: { title: string; body: string }, context: DemoContext) => {
      const caller = signedIn(context);
      const note = { id: store.nextId('n'), userId: caller.id, title, body };
      store.notes.push(note);
      return note;
    },
    deleteAllNotes: (_args: unknown, context: DemoContext) => {
      const caller = signedIn(context);
      if (secure && caller.role !== 'admin') throw forbidden();
      store.notes.length = 0;
      return true;
    },
  };
}
