// Public landing pages: GET /view/:shopCode/:landingCode and …/privacy from a page cache.
// Each entry holds the HTML with its gzip and brotli bodies and ready-made headers, so a
// cached GET is one Map lookup and one write. A miss renders (Vike, see landing-renderer.ts)
// and writes the HTML atomically under <dataDir>/pages/… (reused after a restart while the
// landing is unchanged). Changes made here drop entries at once and re-render; a poller
// picks up changes made by other processes within seconds. Unknown or unpublished
// landings get a small static 404 page, closed ones a 410 page — never an error page.
// While a landing runs an experiment, each variant's page is one more entry (`<path>#B`,
// written as index.B.html): the landing's own entry tells the fast path how to assign a visitor
// (public/assignment.ts), which then answers that variant's cached page — still no rendering per
// request. Crawlers and prefetches get the landing's own page (canonical, no variant).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { landingPath, privacyPath, type LandingView } from '../../../../contracts/landings.ts';
import { SHOP_CODE_RE } from '../../../../contracts/rules.ts';
import { landingViews, publicState, renderStamp } from './views.ts';
import { landingsRepository } from '../landings.repository.ts';
import { landingSecret } from '../../../lib/render-stamp.ts';
import { GONE_PAGE, NOT_FOUND_PAGE, STATIC_PAGE_CSP } from '../../../lib/static-pages.ts';
import { pageRenderer, rendererVersion, type PageRenderer, type PictureView } from './renderer.ts';
import { imageVariants, UPLOAD_FILE_RE } from '../image-variants.ts';
import { uploadsRepository } from '../uploads.repository.ts';
import { PUBLIC_PAGE_HEADERS } from '../../../plugins/http-basics.ts';
import { publicHostOf, requestHost } from '../../../plugins/public-origin.ts';
import { clientIp, writeFastHead } from '../../../plugins/fast-path.ts';
import { seoulDay } from '../../../../contracts/kst.ts';
import { experimentsRepository } from '../experiments.repository.ts';
import { assignmentOf, assignedVariant, notAVisitor, visitorCookie, visitorId, type ExperimentAssignment } from './assignment.ts';

const NEGATIVE_TTL_MS = 10_000;
const REVALIDATE_MS = 3_000;
const MAX_ENTRIES = 20_000;
/** CDNs may keep a page 10 s, then serve it stale for a minute while revalidating by ETag. */
const CACHE_CONTROL = 'public, max-age=10, stale-while-revalidate=60';
/**
 * While an experiment runs, the landing's URL answers each visitor their variant: no shared
 * cache may keep one visitor's page for another (the browser revalidates by ETag: a 304).
 */
const EXPERIMENT_CACHE_CONTROL = 'private, no-cache';

type Encoding = 'identity' | 'gzip' | 'br';
interface Variant {
  headers: Record<string, string>;
  body: Buffer;
}
interface Entry {
  status: 200 | 404 | 410;
  landingId: number | null;
  /** The landing's own page while an experiment runs: how its visitors are assigned a variant's page. */
  experiment?: ExperimentAssignment | null;
  stamp: string | null;
  /** Served until this time (a landing's close_at; a negative entry's TTL). */
  until: number;
  etag: string;
  variants: Record<Encoding, Variant>;
  notModified: Record<string, string>;
}

// The same security headers Fastify's hook gives every public page (plugins/http-basics.ts).
const COMMON_HEADERS = { ...PUBLIC_PAGE_HEADERS, 'content-type': 'text/html; charset=utf-8', vary: 'accept-encoding' };

interface Encoded {
  html: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

const etagOf = (buf: Buffer) => `W/"${crypto.createHash('sha1').update(buf).digest('base64url').slice(0, 20)}"`;

function encode(html: string): Encoded {
  const buf = Buffer.from(html);
  return {
    html: buf,
    gzip: zlib.gzipSync(buf, { level: 9 }),
    br: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length } }),
    etag: etagOf(buf),
  };
}

function makeEntry(status: Entry['status'], e: Encoded, csp: string, cacheControl: string, meta: Pick<Entry, 'landingId' | 'stamp' | 'until' | 'experiment'>): Entry {
  const base = { ...COMMON_HEADERS, 'cache-control': cacheControl, etag: e.etag, 'content-security-policy': `${csp}; frame-ancestors 'self'` };
  const variant = (body: Buffer, encoding?: string): Variant => ({
    headers: { ...base, 'content-length': String(body.length), ...(encoding ? { 'content-encoding': encoding } : {}) },
    body,
  });
  return {
    status, ...meta, etag: e.etag,
    variants: { identity: variant(e.html), gzip: variant(e.gzip, 'gzip'), br: variant(e.br, 'br') },
    notModified: { 'cache-control': cacheControl, etag: e.etag, vary: 'accept-encoding' },
  };
}

const STATIC_404 = encode(NOT_FOUND_PAGE);
const STATIC_410 = encode(GONE_PAGE);

function staticEntry(status: 404 | 410, landingId: number | null, until: number): Entry {
  return makeEntry(status, status === 404 ? STATIC_404 : STATIC_410, STATIC_PAGE_CSP, status === 404 ? 'public, max-age=10' : 'public, max-age=60', {
    landingId, stamp: null, until,
  });
}

const NOT_FOUND_ENTRY = staticEntry(404, null, Infinity);

const pickEncoding = (accept: string | undefined): Encoding => (!accept ? 'identity' : accept.includes('br') ? 'br' : accept.includes('gzip') ? 'gzip' : 'identity');

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.slice(2);
  return header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === bare || v.slice(2) === bare;
  });
}

interface Served {
  status: number;
  /** The entry's own headers (one object per entry and encoding, never copied per answer). */
  headers: Record<string, string>;
  /** A new visitor's experiment cookie, set besides them. */
  cookie?: string;
  body: Buffer | null;
}

function respond(entry: Entry, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, cookie?: string): Served {
  if (entry.status === 200 && etagMatches(ifNoneMatch, entry.etag)) return { status: 304, headers: entry.notModified, cookie, body: null };
  const v = entry.variants[pickEncoding(acceptEncoding)];
  return { status: entry.status, headers: v.headers, cookie, body: v.body };
}

/** Where a visitor of a landing with a running experiment goes: their variant (and the cookie to set), or null (not a visitor: the landing's own page). */
function visitorPick(a: ExperimentAssignment, req: IncomingMessage, ip: () => string, now: Date): { key: string; cookie?: string } | null {
  if (notAVisitor(req.headers)) return null;
  const v = visitorId(req.headers, ip, () => seoulDay(now));
  // Weights are fixed while an experiment runs: a visitor's variant can be remembered.
  return { key: assignedVariant(a, v.id), cookie: v.fresh ? visitorCookie(v.id, a.path) : undefined };
}

const variantKey = (pathname: string, variant: string) => `${pathname}#${variant}`;

/** Keeps an entry; at the limit, negative entries go first, then everything. */
function keep(cache: Map<string, Entry>, key: string, entry: Entry): Entry {
  if (cache.size >= MAX_ENTRIES) {
    for (const [k, e] of cache) if (e.status !== 200) cache.delete(k);
    if (cache.size >= MAX_ENTRIES) cache.clear();
  }
  cache.set(key, entry);
  return entry;
}

const cspOf = (html: string) =>
  (/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? STATIC_PAGE_CSP).replace(/&#39;/g, "'").replace(/&amp;/g, '&');

async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

interface LandingPages {
  renderer(): Promise<PageRenderer>;
  /** The cached answer for a public path (/view/…); renders on a miss. With `visitor`: their variant while an experiment runs. */
  serve(pathname: string, acceptEncoding?: string, ifNoneMatch?: string, visitor?: { req: IncomingMessage; ip: () => string }): Promise<Served>;
  /** Landings changed in this process: drop their pages (and every negative entry), tell listeners, re-render the open ones. */
  changed(landingIds: number[]): Promise<void>;
  onChange(listener: (landingIds: number[]) => void): void;
  /** Drops entries whose landing changed elsewhere (runs every few seconds). */
  revalidate(): Promise<void>;
  preview(view: LandingView): Promise<string>;
  /** Loads the open landings' pages written before a restart into memory (no render, no renderer). */
  warm(): Promise<number>;
}


/** /view/<shop>/<landing>[/privacy] → its parts; null for any other path. */
function parsePath(pathname: string): { shopCode: string; landingCode: string; privacy: boolean } | null {
  const parts = pathname.split('/');
  if (parts[1] !== 'view' || parts.length < 4 || parts.length > 5) return null;
  const [shopCode, landingCode, sub] = [parts[2]!, parts[3]!, parts[4]];
  if (sub !== undefined && sub !== 'privacy') return null;
  if (!SHOP_CODE_RE.test(shopCode) || !SHOP_CODE_RE.test(landingCode)) return null;
  return { shopCode, landingCode, privacy: sub === 'privacy' };
}

/** At most this many pages are loaded from disk at start (the rest on their first request, from disk as well). */
const WARM_MAX = 2_000;

const warming = new WeakMap<FastifyInstance, Promise<unknown>>();
/** Settles when the pages loaded at this app's start are in memory (tests wait for it, never for a while). */
export const startupWarm = (app: FastifyInstance): Promise<unknown> => warming.get(app) ?? Promise.resolve();

/**
 * The page written earlier for this stamp, unless its form token is due for renewal; with its
 * compressed bodies when they were written too (compressing at level 9/11 is the costly part).
 */
async function cachedFile(file: string, stamp: string, withToken: boolean, now: Date, refreshMs: number): Promise<{ encoded: Encoded; renderedAt: number } | null> {
  try {
    const meta = JSON.parse(await fs.readFile(`${file}.json`, 'utf8')) as { stamp?: string; renderedAt?: number; etag?: string };
    const renderedAt = meta.renderedAt ?? 0;
    if (meta.stamp !== stamp || (withToken && now.getTime() - renderedAt >= refreshMs)) return null;
    const html = await fs.readFile(file);
    const etag = etagOf(html);
    if (meta.etag === etag) {
      const [gzip, br] = await Promise.all([fs.readFile(`${file}.gz`), fs.readFile(`${file}.br`)]).catch(() => [null, null]);
      // Two processes may have written the same page at once: the bodies must be this HTML's.
      if (gzip && br && zlib.gunzipSync(gzip).equals(html) && zlib.brotliDecompressSync(br).equals(html)) {
        return { encoded: { html, gzip, br, etag }, renderedAt };
      }
    }
    return { encoded: encode(html.toString('utf8')), renderedAt };
  } catch {
    return null;
  }
}

/** The page and its compressed bodies, each atomically; the meta file last (it vouches for the others). */
async function writePage(file: string, e: Encoded, fileStamp: string, renderedAt: number) {
  await Promise.all([writeAtomic(file, e.html), writeAtomic(`${file}.gz`, e.gzip), writeAtomic(`${file}.br`, e.br)]);
  await writeAtomic(`${file}.json`, JSON.stringify({ stamp: fileStamp, renderedAt, etag: e.etag }));
}

/** The cache's own jobs: revalidation every few seconds, and the work done at start. */
function startPageJobs(app: FastifyInstance, pages: LandingPages, images: ReturnType<typeof imageVariants>, life: { closing: boolean }) {
  const timer = setInterval(() => {
    pages.revalidate().catch((err) => app.log.warn({ err }, 'landing revalidation failed'));
  }, REVALIDATE_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    life.closing = true;
    clearInterval(timer);
  });
  // At start, without holding up readiness: the open landings' pages written before come back
  // from disk (the first visitor after a restart gets a cached page), and uploads stored before
  // images were converted get their AVIF/WebP copies (where the scheduled jobs run).
  app.addHook('onReady', async () => {
    warming.set(app, pages.warm().catch((err) => life.closing || app.log.warn({ err }, 'landing pages not warmed')));
    if (app.config.workerEnabled) {
      images
        .backfill(() => life.closing)
        .then((n) => n && app.log.info({ converted: n }, 'upload images converted'))
        .catch((err) => life.closing || app.log.warn({ err }, 'upload image conversion'));
    }
  });
}

/** The routes of the public pages and of uploaded images, and the fast path in front of them. */
function pageRoutes(
  app: FastifyInstance, pages: LandingPages, cache: Map<string, Entry>, images: ReturnType<typeof imageVariants>, opts: { fastPath?: boolean },
) {
  const send = (reply: FastifyReply, s: Served) => reply.code(s.status).headers(s.cookie ? { ...s.headers, 'set-cookie': s.cookie } : s.headers).send(s.body ?? undefined);
  const handler = async (req: FastifyRequest, reply: FastifyReply) =>
    send(reply, await pages.serve(req.url.split('?')[0]!, req.headers['accept-encoding'], req.headers['if-none-match'], { req: req.raw, ip: () => clientIp(app, req.raw) }));
  const routeOpts = { config: { access: { public: true } as const }, compress: false as const };
  app.get('/view/:shopCode/:landingCode', routeOpts, handler);
  app.get('/view/:shopCode/:landingCode/privacy', routeOpts, handler);
  app.get('/view/*', routeOpts, async (req, reply) => {
    // A pasted ad link with a trailing slash still reaches the page.
    const [pathname, query] = req.url.split('?') as [string, string | undefined];
    const bare = pathname.replace(/\/+$/, '');
    if (bare !== pathname && parsePath(bare)) return reply.redirect(query ? `${bare}?${query}` : bare, 301);
    return send(reply, respond(NOT_FOUND_ENTRY, req.headers['accept-encoding'], undefined));
  });

  // Uploads and their AVIF/WebP copies: a key is never reused, so each URL's bytes never change.
  const uploads = uploadsRepository(app.db);
  const repo = landingsRepository(app.db);
  const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable', 'content-security-policy': "default-src 'none'" };
  app.get('/uploads/:file', { config: { access: { public: true } } }, async (req, reply) => {
    const m = UPLOAD_FILE_RE.exec((req.params as { file: string }).file);
    const notFound = () => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!m) return notFound();
    const [, key, , width, format] = m as unknown as [string, string, string | undefined, string | undefined, 'avif' | 'webp' | undefined];
    if (width && format) {
      const copy = await uploads.findVariant(key, Number(width), format);
      if (!copy) {
        // A copy not made yet (an upload from before conversion): queued, never waited for here.
        const upload = (await uploads.picturesByKeys([key])).uploads[0];
        if (upload && !upload.variants_at) images.ensure(upload.id).catch((err) => app.log.warn({ err, key }, 'upload image conversion'));
        return notFound();
      }
      return reply.headers({ ...IMMUTABLE, 'content-type': `image/${format}` }).send(Buffer.from(copy.data));
    }
    const row = await repo.findUpload(key);
    if (!row) return notFound();
    return reply.headers({ ...IMMUTABLE, 'content-type': row.mime }).send(Buffer.from(row.data));
  });

  // The hot path: a cached page is answered before Fastify's routing and hooks run (on the
  // public host only, when there is one: the back office's host redirects there).
  const publicHost = publicHostOf(app);
  if (opts.fastPath !== false) {
    app.fastPaths.push((req: IncomingMessage, res: ServerResponse) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url!.startsWith('/view/')) return false;
      if (publicHost && requestHost(app, req) !== publicHost) return false;
      const q = req.url!.indexOf('?');
      const pathname = q < 0 ? req.url! : req.url!.slice(0, q);
      let entry = cache.get(pathname);
      const now = app.clock();
      if (!entry || entry.status !== 200 || now.getTime() >= entry.until) return false;
      let cookie: string | undefined;
      if (entry.experiment) {
        const pick = visitorPick(entry.experiment, req, () => clientIp(app, req), now);
        if (pick) {
          entry = cache.get(variantKey(pathname, pick.key));
          if (!entry || entry.status !== 200 || now.getTime() >= entry.until) return false;
          cookie = pick.cookie;
        }
      }
      const s = respond(entry, req.headers['accept-encoding'], req.headers['if-none-match'], cookie);
      writeFastHead(res, s.status, s.headers, s.cookie ? ['set-cookie', s.cookie] : undefined);
      res.end(req.method === 'HEAD' ? undefined : (s.body ?? undefined));
      return true;
    });
  }
}

/** The public pages' cache and routes (GET /view/…, /uploads/…, the fast path); answers the links it serves. */
export async function publicLandingPages(app: FastifyInstance, opts: { fastPath?: boolean } = {}): Promise<LandingPages> {
  const views = landingViews(app.db);
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry>>();
  const listeners: Array<(ids: number[]) => void> = [];
  let generation = 0;
  const pagesDir = path.join(app.config.dataDir, 'pages');
  const renderer = () => pageRenderer(app.config.distDir);
  const images = imageVariants(app.db, app.clock);
  const experiments = experimentsRepository(app.db);
  const life = { closing: false };
  const freeScripts = !!app.config.publicOrigin;
  const context = () => ({ db: app.db, secret: landingSecret(app.config.dataDir), now: app.clock(), freeScripts, origin: app.config.publicOrigin });

  // A change arrived while rendering: serve once, do not keep.
  const put = (key: string, entry: Entry, gen: number): Entry => (gen === generation ? keep(cache, key, entry) : entry);

  // A landing's form token is accepted for LANDING_TOKEN_MAX_AGE_HOURS: its page is rendered
  // anew after half that time, so a visitor never gets a page whose token is about to expire.
  const refreshMs = (app.config.landingTokenMaxAgeHours * 3_600_000) / 2;

  async function build(key: string, target: NonNullable<ReturnType<typeof parsePath>>, gen: number, variant?: string): Promise<Entry> {
    const now = app.clock();
    const negative = (status: 404 | 410, id: number | null, reopenAt?: string | null) =>
      put(key, staticEntry(status, id, Math.min(now.getTime() + NEGATIVE_TTL_MS, reopenAt ? Date.parse(reopenAt) : Infinity)), gen);
    const st = await views.state(target.shopCode, target.landingCode);
    if (!st) return negative(404, null);
    const state = publicState(st, now);
    const servable = target.privacy ? state === 'open' || state === 'ended' : state === 'open';
    // A landing a daily cap closed opens at midnight by itself: its closed page is not kept past then.
    if (!servable) return negative(state === 'ended' ? 410 : 404, st.id, st.reopen_at);
    const stamp = renderStamp(st);
    // A variant's page exists while its experiment runs; asked for afterwards, the landing's own page answers.
    if (variant && (target.privacy || !st.experiment_id)) return entryFor(landingPath(st.shop_code, st.landing_code));
    const experiment = st.experiment_id && !target.privacy && !variant ? assignmentOf(await experiments.running(st.id), landingPath(st.shop_code, st.landing_code)) : null;
    // The renderer's version is known without loading the renderer (a hash of its files): a page
    // written before a restart is answered from disk at once, not after a cold start of Vike.
    // Whether free-form scripts are served is part of what a written page depends on.
    const fileStamp = `${rendererVersion(app.config.distDir)}:${stamp}:${freeScripts ? `scripts:${app.config.publicOrigin}` : 'tags'}`;
    const file = path.join(pagesDir, st.shop_code, st.landing_code, ...(target.privacy ? ['privacy'] : []), variant ? `index.${variant}.html` : 'index.html');
    let page = await cachedFile(file, fileStamp, !target.privacy, now, refreshMs);
    let picturesPending: Promise<void> | null = null;
    if (page === null) {
      const r = await renderer();
      const ctx = { ...context(), picturesPending: (made: Promise<void>) => void (picturesPending = made) };
      const html = target.privacy ? await r.privacy(st.shop_code, st.landing_code, ctx) : await r.landing(st.shop_code, st.landing_code, ctx, variant);
      if (html === null) return negative(404, st.id);
      page = { encoded: encode(html), renderedAt: now.getTime() };
      // A page still waiting for its images' copies is not written: after a restart it is rendered with them.
      if (!picturesPending) {
        try {
          await writePage(file, page.encoded, fileStamp, page.renderedAt);
        } catch (err) {
          app.log.warn({ err, file }, 'landing page file not written');
        }
      }
    }
    const until = target.privacy ? Infinity : Math.min(st.close_at ? Date.parse(st.close_at) : Infinity, page.renderedAt + refreshMs);
    const cacheControl = st.experiment_id && !target.privacy ? EXPERIMENT_CACHE_CONTROL : CACHE_CONTROL;
    const entry = put(key, makeEntry(200, page.encoded, cspOf(page.encoded.html.toString('utf8')), cacheControl, { landingId: st.id, stamp, until, experiment }), gen);
    if (picturesPending) renderWhenMade(key, entry, picturesPending);
    return entry;
  }

  /** The page was served with originals while its images' copies were made: once they exist, it is rendered anew with them. */
  function renderWhenMade(key: string, entry: Entry, made: Promise<void>) {
    made.then(
      () => {
        if (life.closing || cache.get(key) !== entry) return; // already dropped (a change) or replaced
        cache.delete(key);
        const [pathname, variant] = key.split('#') as [string, string | undefined];
        entryFor(pathname, variant).catch((err) => life.closing || app.log.warn({ err, path: key }, 'landing re-render failed'));
      },
      (err) => life.closing || app.log.warn({ err, path: key }, 'landing image copies not made'),
    );
  }

  async function entryFor(pathname: string, variant?: string): Promise<Entry> {
    const key = variant ? variantKey(pathname, variant) : pathname;
    const hit = cache.get(key);
    if (hit && app.clock().getTime() < hit.until) return hit;
    const target = parsePath(pathname);
    if (!target) return NOT_FOUND_ENTRY;
    let pending = inflight.get(key);
    if (!pending) {
      pending = build(key, target, generation, variant).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  }

  const pages: LandingPages = {
    renderer,
    async serve(pathname, acceptEncoding, ifNoneMatch, visitor) {
      // The landing's own page, or the visitor's variant of it while an experiment runs.
      const entry = await entryFor(pathname);
      const pick = entry.experiment && visitor ? visitorPick(entry.experiment, visitor.req, visitor.ip, app.clock()) : null;
      return pick ? respond(await entryFor(pathname, pick.key), acceptEncoding, ifNoneMatch, pick.cookie) : respond(entry, acceptEncoding, ifNoneMatch);
    },
    async changed(ids) {
      generation++;
      inflight.clear(); // renders started before the change may read old rows: start afresh
      for (const [k, e] of cache) if (e.status !== 200 || (e.landingId !== null && ids.includes(e.landingId))) cache.delete(k);
      for (const l of listeners) l(ids);
      for (const id of ids) {
        try {
          const st = await views.stateById(id);
          if (st && publicState(st, app.clock()) === 'open') {
            const own = await entryFor(landingPath(st.shop_code, st.landing_code));
            for (const k of own.experiment?.keys ?? []) await entryFor(landingPath(st.shop_code, st.landing_code), k);
            await entryFor(privacyPath(st.shop_code, st.landing_code));
          }
        } catch (err) {
          app.log.error({ err, landingId: id }, 'landing re-render failed');
        }
      }
    },
    onChange(listener) {
      listeners.push(listener);
    },
    async revalidate() {
      if (!cache.size) return;
      const now = app.clock();
      const byId = new Map((await views.states()).map((s) => [s.id, s]));
      const stale = new Set<number>();
      for (const [k, e] of cache) {
        if (e.status !== 200 || e.landingId === null) continue;
        const s = byId.get(e.landingId);
        if (!s || renderStamp(s) !== e.stamp || (!k.endsWith('/privacy') && publicState(s, now) !== 'open')) {
          cache.delete(k);
          stale.add(e.landingId);
        }
      }
      if (stale.size) for (const l of listeners) l([...stale]);
    },
    preview: async (view) => {
      const { pictures, pending } = await images.pictures(view.landing.content);
      pending?.catch((err) => app.log.warn({ err }, 'landing image copies not made'));
      const pictured: PictureView = { ...view, pictures };
      return (await renderer()).preview(pictured);
    },
    async warm() {
      const now = app.clock();
      const open = (await views.states()).filter((s) => publicState(s, now) === 'open').slice(0, WARM_MAX / 2);
      let loaded = 0;
      for (const s of open) {
        for (const pathname of [landingPath(s.shop_code, s.landing_code), privacyPath(s.shop_code, s.landing_code)]) {
          if (life.closing) return loaded;
          const target = parsePath(pathname);
          if (!target || cache.has(pathname) || inflight.has(pathname)) continue;
          const file = path.join(pagesDir, s.shop_code, s.landing_code, ...(target.privacy ? ['privacy'] : []), 'index.html');
          // Only pages on disk: rendering what was never written waits for its first visitor.
          if (!(await fs.stat(`${file}.json`).catch(() => null))) continue;
          await entryFor(pathname);
          loaded++;
        }
      }
      return loaded;
    },
  };

  startPageJobs(app, pages, images, life);
  pageRoutes(app, pages, cache, images, opts);
  return pages;
}
