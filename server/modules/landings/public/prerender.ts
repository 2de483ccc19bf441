// Pre-renders every open landing and its privacy page into a static directory a CDN can
// serve (`npm run prerender` → dist/client/view/<shop>/<landing>/index.html), with the
// uploaded images they show (…/uploads/<key>.<ext>, and the AVIF/WebP copies their <picture>s name).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PageRenderer } from './renderer.ts';
import { landingViews, publicState } from './views.ts';
import { landingsRepository } from '../landings.repository.ts';
import { uploadsRepository } from '../uploads.repository.ts';
import { landingPath, privacyPath } from '../../../../contracts/landings.ts';

interface PrerenderOptions {
  db: Kysely<Database>;
  renderer: PageRenderer;
  secret: Buffer;
  /** Free-form scripts are served (PUBLIC_ORIGIN is set). */
  freeScripts: boolean;
  outDir: string;
  now?: Date;
  concurrency?: number;
}

interface PrerenderResult {
  /** Public paths written. */
  pages: string[];
  uploads: number;
}

export async function prerenderLandings(o: PrerenderOptions): Promise<PrerenderResult> {
  const now = o.now ?? new Date();
  const open = (await landingViews(o.db).states()).filter((s) => publicState(s, now) === 'open');
  const ctx = { db: o.db, secret: o.secret, now, freeScripts: o.freeScripts };
  const pages: string[] = [];
  /** File names under /uploads/ the pages name: originals and copies. */
  const uploadFiles = new Set<string>();

  const write = async (publicPath: string, html: string) => {
    const file = path.join(o.outDir, ...publicPath.split('/').filter(Boolean), 'index.html');
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, html);
    for (const m of html.matchAll(/\/uploads\/([A-Za-z0-9_-]{8,64}\.(?:png|jpg|webp|gif|\d{1,5}\.(?:avif|webp)))/g)) uploadFiles.add(m[1]!);
    pages.push(publicPath);
  };

  let next = 0;
  const worker = async () => {
    while (next < open.length) {
      const s = open[next++]!;
      // A static page is written once: it waits for its images' copies (old uploads) and is rendered with them.
      let pending: Promise<void> | null = null;
      let landing = await o.renderer.landing(s.shop_code, s.landing_code, { ...ctx, picturesPending: (made) => void (pending = made) });
      if (pending) {
        await pending;
        landing = await o.renderer.landing(s.shop_code, s.landing_code, ctx);
      }
      const privacy = await o.renderer.privacy(s.shop_code, s.landing_code, ctx);
      if (landing) await write(landingPath(s.shop_code, s.landing_code), landing);
      if (privacy) await write(privacyPath(s.shop_code, s.landing_code), privacy);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 8 }, worker));

  const keys = [...new Set([...uploadFiles].map((f) => f.slice(0, f.indexOf('.'))))];
  const rows = await landingsRepository(o.db).uploadsByKey(keys);
  const dir = path.join(o.outDir, 'uploads');
  if (rows.length) await fs.mkdir(dir, { recursive: true });
  const written = new Set<string>();
  for (const r of rows) {
    const file = [...uploadFiles].find((f) => f.startsWith(`${r.key}.`) && /^[^.]+\.(?:png|jpg|webp|gif)$/.test(f));
    if (file) await fs.writeFile(path.join(dir, file), Buffer.from(r.data));
    written.add(r.key);
  }
  for (const v of await uploadsRepository(o.db).variantsByKeys(keys)) {
    const file = `${v.key}.${v.width}.${v.format}`;
    if (uploadFiles.has(file)) await fs.writeFile(path.join(dir, file), Buffer.from(v.data));
  }
  return { pages: pages.sort(), uploads: written.size };
}
