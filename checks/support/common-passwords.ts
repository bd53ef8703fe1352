/**
 * The weak-credentials check's guesses, most likely first: the account's own name, then the head that published
 * lists of leaked and default passwords agree on. Written for this scanner; `{user}` is the account's name (the part
 * before `@` for an e-mail). Every guess has 4 characters or more, so a found one can be redacted (ctx.redact).
 */
const GUESSES = [
  '{user}',
  'password',
  '123456',
  '{user}123',
  'admin',
  'password1',
  '12345678',
  'qwerty',
  'changeme',
  'welcome',
  'letmein',
  'Password1',
  'secret',
  '{user}{user}',
  'P@ssw0rd',
  'Welcome1',
  '123456789',
  'abc123',
  'passw0rd',
  'iloveyou',
];

/** The guesses for one account, in order, without repeats or values too short to redact. */
export function passwordsFor(account: string): string[] {
  const user = account.split('@')[0];
  const guesses = GUESSES.map((g) => g.replaceAll('{user}', user)).filter((g) => g.length >= 4);
  return [...new Set(guesses)];
}
