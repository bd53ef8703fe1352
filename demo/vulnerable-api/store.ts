/**
 * The demo API's in-memory data, fresh for every app: three users (alice, bob, an admin) with bearer tokens made at
 * start, their orders, and a product table. The vulnerable twin keeps passwords in clear (a legacy column it also
 * queries by); the secure twin keeps only salted scrypt hashes.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { Row } from './mini-sql.js';

export interface User {
  [key: string]: unknown;
  id: string;
  username: string;
  email: string;
  displayName: string;
  role: 'user' | 'admin';
  isAdmin: boolean;
  /** Vulnerable twin only: the password in clear. */
  password?: string;
  /** Secure twin only: `scrypt$<salt>$<hash>`. */
  passwordHash?: string;
  apiKey: string;
}

export interface Order {
  id: string;
  userId: string;
  item: string;
  total: number;
}

interface Webhook {
  id: string;
  userId: string;
  url: string;
  event: string;
}

export interface Store {
  users: User[];
  /** Bearer token → user id. */
  tokens: Map<string, string>;
  orders: Order[];
  webhooks: Webhook[];
  tables: { products: Row[] };
  nextId(prefix: string): string;
}

export function hashPassword(password: string, salt = randomBytes(16).toString('hex')): string {
  return `scrypt$${salt}$${scryptSync(password, salt, 32).toString('hex')}`;
}

export function passwordMatches(password: string, stored: string): boolean {
  const [, salt = '', hash = ''] = stored.split('$');
  const expected = Buffer.from(hash, 'hex');
  const actual = scryptSync(password, salt, 32);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The seeded users' passwords (the demo prints them; scans sign in with them). */
export const DEMO_PASSWORDS = {
  alice: 'alice-in-wonderland-42',
  bob: 'bob-builds-bridges-7',
  admin: 'admin-keeps-the-keys-9',
} as const;

export function createStore(secure: boolean): Store {
  let counter = 100;
  const token = (): string => `demo_${randomBytes(18).toString('base64url')}`;
  const seedUser = (id: string, username: string, password: string, role: 'user' | 'admin'): User => ({
    id,
    username,
    email: `${username}@example.com`,
    displayName: username[0].toUpperCase() + username.slice(1),
    role,
    isAdmin: role === 'admin',
    ...(secure ? { passwordHash: hashPassword(password) } : { password }),
    apiKey: `ak_${randomBytes(16).toString('hex')}`,
  });
  const users = [
    seedUser('u1', 'alice', DEMO_PASSWORDS.alice, 'user'),
    seedUser('u2', 'bob', DEMO_PASSWORDS.bob, 'user'),
    seedUser('u3', 'admin', DEMO_PASSWORDS.admin, 'admin'),
  ];
  return {
    users,
    tokens: new Map(users.map((u) => [token(), u.id])),
    orders: [
      { id: 'o1', userId: 'u1', item: 'Lamp', total: 39 },
      { id: 'o2', userId: 'u1', item: 'Desk', total: 249 },
      { id: 'o3', userId: 'u2', item: 'Chair', total: 89 },
    ],
    webhooks: [],
    tables: {
      products: [
        { id: 1, name: 'The Pragmatic Lamp', category: 'books', price: 29, hidden: 0 },
        { id: 2, name: 'Desk Chess', category: 'games', price: 19, hidden: 0 },
        { id: 3, name: 'Torque Wrench', category: 'tools', price: 59, hidden: 0 },
        { id: 4, name: 'Staff price list 2026', category: 'internal', price: 0, hidden: 1 },
      ],
    },
    nextId: (prefix) => `${prefix}${(counter += 1)}`,
  };
}

/** The token of a seeded user (the demo prints them at start; tests scan with them). */
export function tokenOf(store: Store, username: string): string {
  const user = store.users.find((u) => u.username === username)!;
  return [...store.tokens].find(([, id]) => id === user.id)![0];
}
