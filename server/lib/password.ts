import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, keylen: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const N = 16384, R = 8, P = 1, KEYLEN = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, saltText, hashText] = stored.split('$');
  if (alg !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p),
  });
  return crypto.timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real one. */
export const DUMMY_HASH = 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$0VbkFz1G7m8x2YzS8Hq8Q3k1dPZ8o6m3l2s1a0b9c8d';

// Characters a person reads off the console and types: no look-alikes (I l 1 O 0), no quotes,
// backslash, space or a dash (a password starting with one reads as a command-line option).
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const SYMBOLS = '!#$%&*+=?@^_';
const pick = (from: string) => from[crypto.randomInt(from.length)]!;

/**
 * 16 characters drawn with crypto's uniform randomInt: one letter, one digit and one symbol (so
 * the policy of contracts/rules.ts always holds), the rest letters and digits (easy to type; about 90
 * bits in all), then shuffled (Fisher–Yates) so that no kind sits in a fixed place.
 */
export function randomPassword(length = 16): string {
  const chars = [pick(LETTERS), pick(DIGITS), pick(SYMBOLS), ...Array.from({ length: length - 3 }, () => pick(LETTERS + DIGITS))];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}
