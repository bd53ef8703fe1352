/**
 * The GraphQL demo's QA account `test`, an ordinary user nobody scans as: in the vulnerable twin its password is a
 * common one (`test123`, what authentication.weak_credentials guesses); the secure twin keeps only a salted hash of a
 * long random one. It has a bearer token like every seeded user, so a sign-in can answer one.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword, type Store, type User } from '../vulnerable-api/store.js';

const WEAK_PASSWORD = 'test123';

export function addQaAccount(store: Store, secure: boolean): void {
  const password = secure ? randomBytes(24).toString('base64url') : WEAK_PASSWORD;
  const user: User = {
    id: 'u4',
    username: 'test',
    email: 'test@example.com',
    displayName: 'QA',
    role: 'user',
    isAdmin: false,
    ...(secure ? { passwordHash: hashPassword(password) } : { password }),
    apiKey: `ak_${randomBytes(16).toString('hex')}`,
  };
  store.users.push(user);
  store.tokens.set(`demo_${randomBytes(18).toString('base64url')}`, user.id);
}
