// Public landing pages: the signed render stamp (minimum fill time), the page's
// Content-Security-Policy, and nonces on the scripts staff configured.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TagHosts } from '../../contracts/tracking-tags.ts';

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

export const sha256Source = (code: string) => `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;

export const newNonce = () => crypto.randomBytes(16).toString('base64url');

/** Adds the page's nonce to every <script> tag of a staff-configured snippet. */
export function withNonce(snippet: string, nonce: string): string {
  return snippet.replace(/<script\b(?![^>]*\bnonce=)/gi, `<script nonce="${nonce}"`);
}

export interface CspOptions {
  /** Hashes of the inline scripts the product wrote (the landing's own, its tag script). */
  hashes: string[];
  /** The hosts the landing's tracking tags load from and send to. */
  hosts?: TagHosts;
  /**
   * Set only when free-form staff scripts run (public pages on an origin of their own): they
   * carry it, and may load what they need ('strict-dynamic').
   */
  nonce?: string;
  /** Where the form may post and redirect to (the thank-you URL's origin). */
  formTargets?: string[];
}

/** The landing page policy: our scripts by hash, their tags' hosts by name, free-form scripts by nonce, nothing else. */
export function landingCsp(o: CspOptions): string {
  const hosts = o.hosts ?? { script: [], connect: [], frame: [] };
  const script = o.nonce
    ? [...o.hashes, `'nonce-${o.nonce}'`, "'strict-dynamic'", 'https:']
    : o.hashes.length
      ? [...o.hashes, ...hosts.script]
      : ["'none'"];
  const frame = o.nonce ? ['https:'] : hosts.frame.length ? hosts.frame : ["'none'"];
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' https: data:`,
    `connect-src ${["'self'", ...(o.nonce ? ['https:'] : hosts.connect)].join(' ')}`,
    `frame-src ${frame.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${o.formTargets?.length ? ' ' + o.formTargets.join(' ') : ''}`,
  ].join('; ');
}

/** The origin of an http(s) URL for a CSP source list, else null. */
export function cspOrigin(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}
