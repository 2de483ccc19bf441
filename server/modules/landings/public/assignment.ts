// Which variant of a running experiment a visitor sees. The visitor's id is kept in a
// first-party cookie (lr_v, path scoped to the landing, 90 days, SameSite=Lax, HttpOnly); the
// variant is a deterministic weighted pick from a hash of (experiment, visitor id), so the same
// visitor sees the same variant on every request and no per-visitor state is stored.
// A visitor without the cookie gets the id hash(IP, user agent, Seoul day) and the cookie with
// it: a browser that refuses cookies keeps its variant for the day from that fallback alone, and
// one that keeps them keeps it for 90 days. (Visitors sharing an address and a browser build get
// the same variant on their first day: that clusters them, it does not bias the split.)
// Crawlers and prefetches are not assigned: they get the landing's own page, which carries no
// variant, so neither their visit beacon nor a lead from it counts for the experiment.
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const VISITOR_COOKIE = 'lr_v';
const COOKIE_MAX_AGE_S = 90 * 24 * 3600;
const COOKIE_RE = /(?:^|;\s*)lr_v=([A-Za-z0-9_-]{16,64})(?:;|$)/;
/** Search engines, link-preview fetchers and monitoring: never assigned, never counted. */
const BOT_RE = /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|kakaotalk-scrap|yeti\/|curl\/|wget\/|python-|go-http-client/i;

/** What the page cache keeps to assign visitors of a landing with a running experiment. */
export interface ExperimentAssignment {
  experimentId: number;
  keys: string[];
  /** Relative weights (any positive scale), in the order of `keys`. */
  weights: number[];
  /** The landing's path: the cookie's scope. */
  path: string;
}

/** How the page cache assigns a running experiment's visitors (null: none runs, or it has no variants). */
export function assignmentOf(running: { id: number; variants: Array<{ key: string; weight: number }> } | null, path: string): ExperimentAssignment | null {
  if (!running || !running.variants.length) return null;
  return { experimentId: running.id, keys: running.variants.map((v) => v.key), weights: running.variants.map((v) => v.weight), path };
}

/** A crawler, a link preview or a prefetch/prerender the visitor may never see. */
export function notAVisitor(headers: IncomingHttpHeaders): boolean {
  const purpose = headers['sec-purpose'] ?? headers.purpose ?? headers['x-purpose'] ?? headers['x-moz'];
  if (typeof purpose === 'string' && /prefetch|prerender/i.test(purpose)) return true;
  const ua = headers['user-agent'];
  return !ua || BOT_RE.test(ua);
}

/** The visitor's id from the cookie, or the fallback id to set as the cookie (`ip` and `day` asked only then). */
export function visitorId(headers: IncomingHttpHeaders, ip: () => string, day: () => string): { id: string; fresh: boolean } {
  const cookie = headers.cookie;
  const m = cookie ? COOKIE_RE.exec(cookie) : null;
  if (m) return { id: m[1]!, fresh: false };
  const id = crypto.createHash('sha256').update(`${ip()}|${headers['user-agent'] ?? ''}|${day()}`).digest('base64url').slice(0, 22);
  return { id, fresh: true };
}

export const visitorCookie = (id: string, path: string) => `${VISITOR_COOKIE}=${id}; Path=${path}; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax; HttpOnly`;

/** Returning visitors' variants, so a cached page costs them a Map lookup rather than a hash (bounded; cleared when full). */
const assigned = new Map<string, string>();
const ASSIGNED_MAX = 100_000;

/** assignVariant, remembered per experiment and visitor. */
export function assignedVariant(a: Pick<ExperimentAssignment, 'experimentId' | 'keys' | 'weights'>, visitor: string): string {
  const k = `${a.experimentId}:${visitor}`;
  let key = assigned.get(k);
  if (key === undefined) {
    key = assignVariant(a, visitor);
    if (assigned.size >= ASSIGNED_MAX) assigned.clear();
    assigned.set(k, key);
  }
  return key;
}

/** The variant key for this visitor: a uniform point from the hash, placed on the cumulative weights. */
export function assignVariant(a: Pick<ExperimentAssignment, 'experimentId' | 'keys' | 'weights'>, visitor: string): string {
  const h = crypto.createHash('sha256').update(`${a.experimentId}:${visitor}`).digest();
  const total = a.weights.reduce((s, w) => s + w, 0);
  const point = (h.readUInt32BE(0) / 0x1_0000_0000) * total;
  let acc = 0;
  for (let i = 0; i < a.keys.length; i++) {
    acc += a.weights[i]!;
    if (point < acc) return a.keys[i]!;
  }
  return a.keys[a.keys.length - 1]!;
}
