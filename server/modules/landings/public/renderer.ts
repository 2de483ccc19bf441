// Renders the public pages. The server loads each page's view from the database and hands it
// to the page code. With a build (dist/server/entry.mjs) that goes through Vike's renderPage
// (routing, the +data hooks reading the view from pageContextInit, +onRenderHtml); without
// one (tests, a dev server before `vite build`) the same document functions run directly,
// so both paths produce the same HTML.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { landingPath, privacyPath, type LandingView, type PrivacyPageView } from '../../../../contracts/landings.ts';
import { landingViews } from './views.ts';
import { signRenderStamp } from '../../../lib/render-stamp.ts';
import { imageVariants, type Pictures } from '../image-variants.ts';

/** A landing's view with its uploaded images' AVIF/WebP copies (pages/view/render/picture.tsx). */
export type PictureView = LandingView & { pictures?: Pictures };

export interface RenderContext {
  db: Kysely<Database>;
  secret: Buffer;
  /** The render time the form token carries (the app's clock). */
  now: Date;
  /** Free-form scripts are served (public pages have an origin of their own). */
  freeScripts: boolean;
  /** Public pages' own origin (PUBLIC_ORIGIN), when known: pages name their canonical URL on it. */
  origin?: string | null;
  /**
   * The page shows uploaded images whose AVIF/WebP copies are still being made (it offers their
   * originals): told the promise that settles once they exist, to render the page anew then.
   */
  picturesPending?: (made: Promise<void>) => void;
}

export interface PageRenderer {
  kind: 'vike' | 'direct';
  /** Changes with the page code: cached HTML from another version is not reused. */
  version: string;
  /** The landing's HTML (or that of its running experiment's variant), or null when it cannot be rendered (unknown). */
  landing(shopCode: string, landingCode: string, ctx: RenderContext, variant?: string): Promise<string | null>;
  privacy(shopCode: string, landingCode: string, ctx: RenderContext): Promise<string | null>;
  /** The editor preview of a view as given (with the pictures of its uploaded images, when known). */
  preview(view: PictureView): Promise<string>;
}

const renderers = new Map<string, Promise<PageRenderer>>();
const versions = new Map<string, string>();

const entryOf = (distDir: string) => path.join(distDir, 'server', 'entry.mjs');

export function pageRenderer(distDir: string): Promise<PageRenderer> {
  const entry = entryOf(distDir);
  let r = renderers.get(entry);
  if (!r) {
    r = fs.existsSync(entry) ? vikeRenderer(entry, rendererVersion(distDir)) : directRenderer(rendererVersion(distDir));
    renderers.set(entry, r);
  }
  return r;
}

/** A hash of every file under these directories (names and bytes). */
function treeHash(dirs: string[]): string {
  const hash = crypto.createHash('sha1');
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(p).update(fs.readFileSync(p));
    }
  };
  for (const d of dirs) if (fs.existsSync(d)) walk(d);
  return hash.digest('base64url').slice(0, 16);
}

/**
 * What a written page's HTML depends on besides its data: the page code and the server's view
 * code. Cheap (a hash of files, read once per process) and known without loading the renderer,
 * so a page written before a restart is served from disk at once.
 */
export function rendererVersion(distDir: string): string {
  const entry = entryOf(distDir);
  let v = versions.get(entry);
  if (!v) {
    // This module's folder holds the views and image code the page is rendered from.
    const landingsModule = path.resolve(import.meta.dirname, '..');
    if (fs.existsSync(entry)) v = `vike-${treeHash([path.dirname(entry), landingsModule])}`;
    else {
      // Without a build the sources render directly: a changed source changes the version.
      const root = path.resolve(import.meta.dirname, '../../../..');
      v = `direct-${treeHash([path.join(root, 'pages'), path.join(root, 'contracts'), landingsModule])}`;
    }
    versions.set(entry, v);
  }
  return v;
}

/** How a view becomes HTML: through Vike's build, or the same document functions directly. */
interface ViewRenderer {
  kind: PageRenderer['kind'];
  version: string;
  landingHtml(view: PictureView): Promise<string | null>;
  privacyHtml(view: PrivacyPageView): Promise<string | null>;
}

/** The server loads each page's view (signing its form token) and hands it to the page code. */
function withViews(r: ViewRenderer): PageRenderer {
  return {
    kind: r.kind,
    version: r.version,
    async landing(s, l, ctx, variant) {
      const view = await landingViews(ctx.db, { freeScripts: ctx.freeScripts }).landing(s, l, (id) => signRenderStamp(ctx.secret, id, ctx.now), variant);
      if (!view) return null;
      const { pictures, pending } = await imageVariants(ctx.db).pictures(view.landing.content);
      if (pending && ctx.picturesPending) ctx.picturesPending(pending);
      else pending?.catch(() => {}); // no one renders anew: the copies serve the next render
      return r.landingHtml({ ...view, pictures, ...(ctx.origin ? { origin: ctx.origin } : {}) });
    },
    async privacy(s, l, ctx) {
      const view = await landingViews(ctx.db).privacy(s, l);
      return view && r.privacyHtml(view);
    },
    async preview(view) {
      const html = await r.landingHtml(view);
      if (html === null) throw new Error('preview render failed');
      return html;
    },
  };
}

/** Where Vike keeps its request storage (vike/dist/server/runtime/asyncHook.js, shared through globalThis._vike). */
const VIKE_ASYNC_HOOK = 'server/runtime/asyncHook.ts';

/**
 * Vike runs every renderPage inside an AsyncLocalStorage, only so that its getPageContext()
 * (which our pages do not use) can find the page from anywhere. On Node 20 the first run() of
 * one turns on promise hooks for the whole process, for good: every promise of every request —
 * intake, the back office's API — then pays for them (3.5% of intake's event-loop time in a
 * profile). Without the storage, Vike renders the same way, just without it.
 * e2e/render-hooks.e2e.ts renders a landing through the build and checks the hooks stay off.
 */
async function withoutVikeRequestStorage(): Promise<void> {
  const globals = (globalThis as { _vike?: { globals?: Record<string, { installPromise?: Promise<void>; asyncLocalStorage?: unknown }> } })._vike?.globals;
  const hook = globals?.[VIKE_ASYNC_HOOK];
  if (!hook) return;
  await hook.installPromise;
  hook.asyncLocalStorage = null;
}

async function vikeRenderer(entry: string, version: string): Promise<PageRenderer> {
  await import(pathToFileURL(entry).href);
  const { renderPage } = await import('vike/server');
  await withoutVikeRequestStorage();
  const render = async (url: string, init: Record<string, unknown>) => {
    const pc = await renderPage({ urlOriginal: url, ...init });
    const res = pc.httpResponse;
    return res && res.statusCode === 200 ? res.body : null;
  };
  return withViews({
    kind: 'vike',
    version,
    landingHtml: (view) => render(landingPath(view.shop.code, view.landing.code), { landingView: view }),
    privacyHtml: (view) => render(privacyPath(view.shop.code, view.landing.code), { privacyView: view }),
  });
}

async function directRenderer(version: string): Promise<PageRenderer> {
  const { renderLanding, renderPrivacy } = await import('../../../../pages/view/render/document.tsx');
  return withViews({
    kind: 'direct',
    version,
    landingHtml: async (view) => renderLanding(view),
    privacyHtml: async (view) => renderPrivacy(view),
  });
}
