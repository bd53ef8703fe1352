/**
 * Finds what an API answer should not carry, by property name and by value format: passwords (in clear or hashed),
 * secrets and tokens of other records, payment card numbers (Luhn-valid, in a card-named property or grouped like a
 * card) and national identifiers (US SSN format). Returns where each sits — never the value itself.
 */
type SensitiveKind = 'password' | 'password hash' | 'secret or token' | 'card number' | 'national id';

export interface SensitiveHit {
  kind: SensitiveKind;
  /** JSONPath-like location, e.g. `$[0].password`. */
  path: string;
  /** Inside a list of records (someone else's data, not only the caller's). */
  inList: boolean;
}

const normal = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');
const PASSWORD_KEYS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'userpassword', 'plainpassword']);
const HASH_KEYS = new Set([
  'passwordhash',
  'hashedpassword',
  'passworddigest',
  'pwdhash',
  'passhash',
  'encryptedpassword',
  'passwordsalt',
]);
const SECRET_KEYS = new Set([
  'apikey',
  'apisecret',
  'secret',
  'secretkey',
  'clientsecret',
  'privatekey',
  'secretaccesskey',
  'accesstoken',
  'refreshtoken',
  'sessiontoken',
  'authtoken',
  'token',
  'resettoken',
  'passwordresettoken',
  'otpsecret',
  'totpsecret',
]);
const CARD_KEYS = /^(card|cardnumber|creditcard|ccnumber|cc|pan|primaryaccountnumber)$/;
const NATIONAL_ID_KEYS = /^(ssn|socialsecuritynumber|nationalid|nationalidnumber|nino|taxid|tin)$/;
const MASKED = /^(\*+|•+|x+|\[?redacted\]?|hidden|null)$/i;
/** bcrypt, argon2, scrypt, crypt(3) SHA-256/512, Django/Werkzeug PBKDF2. */
const HASH_FORMATS =
  /^(\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}|\$argon2(id|i|d)\$\S+|\$?scrypt\$\S+|\$[56]\$\S+|pbkdf2[:_]sha(1|256|512)[:$]\S+)$/;
const SSN = /^(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}$/;
const GROUPED_CARD = /^\d{4}([ -])\d{4}\1\d{4}\1\d{1,7}$/;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function cardLike(value: string, keyed: boolean): boolean {
  const digits = value.replace(/[ -]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) return false;
  return keyed || GROUPED_CARD.test(value);
}

function classify(key: string, value: unknown): SensitiveKind | undefined {
  const name = normal(key);
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  if (text === undefined || text.length === 0 || MASKED.test(text)) return undefined;
  if (HASH_FORMATS.test(text)) return 'password hash';
  if (HASH_KEYS.has(name)) return 'password hash';
  if (PASSWORD_KEYS.has(name) && typeof value === 'string') return 'password';
  if (SECRET_KEYS.has(name) && text.length >= 8) return 'secret or token';
  if (cardLike(text, CARD_KEYS.test(name))) return 'card number';
  if (SSN.test(text) || (NATIONAL_ID_KEYS.test(name) && /\d{6,}/.test(text.replace(/\D/g, '')))) return 'national id';
  return undefined;
}

const MAX_NODES = 5000;

export function sensitiveValues(root: unknown): SensitiveHit[] {
  const hits: SensitiveHit[] = [];
  let visited = 0;
  const walk = (value: unknown, path: string, key: string, inList: boolean, depth: number): void => {
    if ((visited += 1) > MAX_NODES || depth > 10) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`, key, inList || value.length > 1, depth + 1));
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [child, inner] of Object.entries(value)) walk(inner, `${path}.${child}`, child, inList, depth + 1);
      return;
    }
    const kind = classify(key, value);
    // A secret or token of the caller's own (a login's token, the account's own API key) is theirs to see.
    if (kind && (kind !== 'secret or token' || inList)) hits.push({ kind, path, inList });
  };
  walk(root, '$', '', false, 0);
  return hits;
}
