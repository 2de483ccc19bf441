// What keeps the public pages safe, as pure functions for the pages and for the server's own
// small pages alike: escaping, and the Content-Security-Policy (the product's own inline
// scripts by hash, the tracking tags' hosts by name, free-form staff scripts — only with
// PUBLIC_ORIGIN — by nonce). Hashing and nonces need node:crypto: each side makes its own.
import type { TagHosts } from './tracking-tags.ts';

// Text into HTML: every staff-written or visitor-written string passes here (or through React).
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Adds the page's nonce to every <script> tag of a staff-configured snippet. */
export function withNonce(snippet: string, nonce: string): string {
  return snippet.replace(/<script\b(?![^>]*\bnonce=)/gi, `<script nonce="${nonce}"`);
}

interface CspOptions {
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
