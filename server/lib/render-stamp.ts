// The landing secret and the signed render stamp a public form posts back (minimum
// fill time, maximum age). The page's Content-Security-Policy is pages/view/render/csp.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const secrets = new Map<string, Buffer>();

/** LANDING_SECRET, else a random secret kept in <dataDir>/landing-secret (created once). */
export function landingSecret(dataDir: string): Buffer {
  if (process.env.LANDING_SECRET) return Buffer.from(process.env.LANDING_SECRET);
  const file = path.join(dataDir, 'landing-secret');
  const cached = secrets.get(file);
  if (cached) return cached;
  let value: string;
  try {
    value = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    value = fs.readFileSync(file, 'utf8').trim();
  }
  const secret = Buffer.from(value);
  secrets.set(file, secret);
  return secret;
}

function mac(secret: Buffer, landingId: number, ms: number): string {
  return crypto.createHmac('sha256', secret).update(`${landingId}.${ms}`).digest('base64url').slice(0, 22);
}

/** `<ms base36>.<hmac>`: when the form was rendered, bound to the landing. */
export function signRenderStamp(secret: Buffer, landingId: number, at: Date): string {
  const ms = at.getTime();
  return `${ms.toString(36)}.${mac(secret, landingId, ms)}`;
}

/** The render time of a genuine stamp for this landing, else null. */
export function verifyRenderStamp(secret: Buffer, landingId: number, token: unknown): number | null {
  if (typeof token !== 'string' || token.length > 40) return null;
  const [head, sig] = token.split('.');
  if (!head || !sig || !/^[0-9a-z]{1,12}$/.test(head)) return null;
  const ms = parseInt(head, 36);
  const expected = Buffer.from(mac(secret, landingId, ms));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? ms : null;
}
