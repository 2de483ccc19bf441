// What a webhook receiver does with our signature header (docs/PRODUCT.md), for the tests.
import crypto from 'node:crypto';

/** The secrets among `secrets` that one of the header's v1 signatures of `${t}.${body}` matches. */
export function verified(header: unknown, body: string, secrets: string[]): string[] {
  if (typeof header !== 'string') return [];
  const parts = header.split(',').map((p) => p.split('=') as [string, string]);
  const t = parts.find(([k]) => k === 't')?.[1];
  const sigs = parts.filter(([k]) => k === 'v1').map(([, v]) => Buffer.from(v, 'hex'));
  return secrets.filter((s) => {
    const expected = crypto.createHmac('sha256', s).update(`${t}.${body}`).digest();
    return sigs.some((sig) => sig.length === expected.length && crypto.timingSafeEqual(sig, expected));
  });
}
