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

export function randomPassword(): string {
  // 16 characters from three kinds, always satisfying the policy.
  const body = crypto.randomBytes(12).toString('base64url').replace(/[-_]/g, 'x');
  return `${body}#7a`;
}

export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}
