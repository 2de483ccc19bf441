import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { build } from '../../app.ts';
import { landingSecret } from '../../lib/render-stamp.ts';
import { prerenderLandings } from './public/prerender.ts';
import { startupWarm } from './public/page-cache.ts';
import { pageRenderer } from './public/renderer.ts';
import { convertImage, imageVariants, imageWork, variantWidths } from './image-variants.ts';
import { contrastRatio, MIN_TEXT_CONTRAST } from '../../../contracts/contrast.ts';
import { landingTestApp, openLanding, type LandingTestApp } from '../../test-landings.ts';

// Counts how often the page cache needs the renderer (a restart must not, for pages on disk).
const rendererCalls = vi.hoisted(() => ({ n: 0 }));
vi.mock('./public/renderer.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./public/renderer.ts')>();
  return { ...real, pageRenderer: (distDir: string) => (rendererCalls.n++, real.pageRenderer(distDir)) };
});

let t: LandingTestApp;
beforeEach(async () => {
  t = await landingTestApp();
});
afterEach(async () => {
  await t.close();
});

function photo(width: number, height: number, format: 'png' | 'jpeg' = 'png') {
  const img = sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } }).composite([
    { input: Buffer.from(`<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#f5c518"/></svg>`) },
  ]);
  return (format === 'png' ? img.png() : img.jpeg()).toBuffer();
}

function upload(data: Buffer, filename = 'hero.png', type = 'image/png') {
  const boundary = '----leadroom-images';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.admin.request('POST', `/api/shops/${t.shopId}/landings/uploads`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const variantsOf = (uploadId: number) =>
  t.app.db.selectFrom('upload_variants').select(['format', 'width', 'height', 'size']).where('upload_id', '=', uploadId).orderBy('format').orderBy('width').execute();

describe('landing images', () => {
  it('converts an upload once to AVIF and WebP in widths never wider than the original, served immutable', async () => {
    expect(variantWidths(1200)).toEqual([480, 828, 1200]);
    expect(variantWidths(2400)).toEqual([480, 828, 1200]);
    expect(variantWidths(640)).toEqual([480, 640]);
    expect(variantWidths(300)).toEqual([300]);

    const res = await upload(await photo(1200, 630));
    expect(res.statusCode).toBe(201);
    const { id, url, width, height } = res.json();
    expect({ width, height }).toEqual({ width: 1200, height: 630 });
    const rows = await variantsOf(id);
    expect(rows.map((r) => [r.format, r.width, r.height])).toEqual([
      ['avif', 480, 252], ['avif', 828, 435], ['avif', 1200, 630], ['webp', 480, 252], ['webp', 828, 435], ['webp', 1200, 630],
    ]);
    const key = /^\/uploads\/([\w-]+)\.png$/.exec(url)![1];
    for (const [format, w] of [['avif', 480], ['webp', 828], ['avif', 1200]] as const) {
      const served = await get(`/uploads/${key}.${w}.${format}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe(`image/${format}`);
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
      expect(meta.width).toBe(w);
    }
    // The original is kept and served as it was uploaded; no width is made that was not listed.
    expect((await get(url)).headers['content-type']).toBe('image/png');
    expect((await get(`/uploads/${key}.640.avif`)).statusCode).toBe(404);
    expect((await get(`/uploads/${key}.480.gif`)).statusCode).toBe(404);

    // A narrow JPEG: one width, its own.
    const small = await upload(await photo(300, 200, 'jpeg'), 'small.jpg', 'image/jpeg');
    expect(small.statusCode).toBe(201);
    expect((await variantsOf(small.json().id)).map((r) => [r.format, r.width, r.height])).toEqual([['avif', 300, 200], ['webp', 300, 200]]);
  });

  it('refuses what is not an image, or does not decode, with a Korean message', async () => {
    const text = await upload(Buffer.from('안녕하세요. 이미지가 아닙니다.'), 'note.png');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.message).toBe('PNG, JPEG, WebP, GIF 이미지만 올릴 수 있습니다.');
    // A PNG header over garbage: the size reads, the pixels do not.
    const broken = Buffer.concat([(await photo(64, 64)).subarray(0, 33), Buffer.alloc(200, 7)]);
    const res = await upload(broken);
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toContain('이미지를 읽을 수 없습니다');
    expect(await t.app.db.selectFrom('uploads').select('id').execute()).toEqual([]);
    await expect(convertImage(broken)).rejects.toThrow();
  });

  it('renders uploaded images as <picture> with AVIF/WebP srcset and sizes, the hero preloaded and the rest lazy', async () => {
    const hero = (await upload(await photo(1200, 630))).json();
    const more = (await upload(await photo(900, 600))).json();
    await openLanding(t, {
      content: {
        headline: '사진이 있는 랜딩',
        hero: { url: hero.url, width: 1, height: 1, alt: '대표 이미지' },
        images: [{ url: more.url, width: 900, height: 600, alt: '진료실' }, { url: 'https://cdn.example.com/a.jpg', width: 800, height: 400, alt: '외부' }],
      },
    });
    const html = (await get('/view/smile/implant')).body;
    const key = (u: string) => /\/uploads\/([\w-]+)\./.exec(u)![1]!;
    const set = (k: string, f: string, ws: number[]) => ws.map((w) => `/uploads/${k}.${w}.${f} ${w}w`).join(', ');
    // The hero: its size from the upload, not from what the content says; fetched first.
    expect(html).toContain(
      `<picture><source type="image/avif" srcSet="${set(key(hero.url), 'avif', [480, 828, 1200])}" sizes="(min-width: 560px) 560px, 100vw"/>` +
        `<source type="image/webp" srcSet="${set(key(hero.url), 'webp', [480, 828, 1200])}" sizes="(min-width: 560px) 560px, 100vw"/>` +
        `<img class="hero" src="${hero.url}" alt="대표 이미지" width="1200" height="630" fetchPriority="high" decoding="async"/></picture>`,
    );
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(
      `<link rel="preload" as="image" imagesrcset="${set(key(hero.url), 'avif', [480, 828, 1200])}" imagesizes="(min-width: 560px) 560px, 100vw" type="image/avif" fetchpriority="high"><style>`,
    );
    expect(head).not.toContain(`href="${hero.url}"`); // no second, format-less preload of the original
    expect(html).toContain(
      `<source type="image/webp" srcSet="${set(key(more.url), 'webp', [480, 828, 900])}" sizes="(min-width: 560px) 520px, calc(100vw - 40px)"/>` +
        `<img src="${more.url}" alt="진료실" width="900" height="600" loading="lazy" decoding="async"/></picture>`,
    );
    // An image from elsewhere stays a plain lazy <img>; the page's CSP allows what it loads.
    expect(html).toContain('<img src="https://cdn.example.com/a.jpg" alt="외부" width="800" height="400" loading="lazy" decoding="async"/>');
    const csp = (await get('/view/smile/implant')).headers['content-security-policy'] as string;
    expect(csp).toMatch(/img-src 'self' https:/);

    // The editor's preview shows the same pictures.
    const id = (await t.admin.get(`/api/shops/${t.shopId}/landings`)).json().items[0].id;
    const saved = await t.admin.get(`/api/shops/${t.shopId}/landings/${id}/preview`);
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain(`<source type="image/avif" srcSet="${set(key(hero.url), 'avif', [480, 828, 1200])}"`);
    expect(saved.body).toContain('미리보기 화면입니다');

    // The pre-rendered site carries the copies its pages name, next to the originals.
    const outDir = path.join(t.dataDir, 'out');
    const result = await prerenderLandings({
      db: t.app.db, renderer: await pageRenderer(t.app.config.distDir), secret: landingSecret(t.dataDir), freeScripts: false, outDir, now: t.clock.now(),
    });
    expect(result.uploads).toBe(2);
    const files = fs.readdirSync(path.join(outDir, 'uploads')).sort();
    expect(files).toHaveLength(2 + 6 + 6);
    expect(files).toContain(`${key(hero.url)}.828.avif`);
    expect(files).toContain(`${key(more.url)}.900.webp`);
    expect((await sharp(path.join(outDir, 'uploads', `${key(hero.url)}.1200.webp`)).metadata()).width).toBe(1200);
  });

  it('gives uploads stored before conversion their copies: once a page shows them (never while it waits), and by the backfill', async () => {
    const legacy = async (key: string, width: number, height: number) =>
      t.app.db
        .insertInto('uploads')
        .values({ key, shop_id: t.shopId, mime: 'image/png', width, height, size: 1, data: await photo(width, height), created_by: null, created_at: 'x' })
        .returning('id')
        .executeTakeFirstOrThrow();
    const a = await legacy('legacyaaaaaaaaaa', 1000, 500);
    await legacy('legacybbbbbbbbbb', 600, 300);
    const c = await legacy('legacycccccccccc', 700, 350);
    // Not in the migration: nothing was converted yet.
    expect(await variantsOf(a.id)).toEqual([]);

    // A page showing one answers at once with the original, queues the conversion, and is
    // rendered anew with the copies once they exist.
    await openLanding(t, { content: { headline: '예전 사진', hero: { url: '/uploads/legacyaaaaaaaaaa.png', width: 1000, height: 500 } } });
    const first = (await get('/view/smile/implant')).body;
    expect(first).toContain('<img class="hero" src="/uploads/legacyaaaaaaaaaa.png"');
    expect(first).not.toContain('<picture>');
    await imageWork.idle();
    expect((await variantsOf(a.id)).map((v) => v.width)).toEqual([480, 828, 1000, 480, 828, 1000]);
    await vi.waitFor(async () => expect((await get('/view/smile/implant')).body).toContain('/uploads/legacyaaaaaaaaaa.1000.avif 1000w'));

    // A copy asked for directly is queued, not made while the request waits; there once made.
    expect((await get('/uploads/legacybbbbbbbbbb.600.webp')).statusCode).toBe(404);
    await imageWork.idle();
    const copy = await get('/uploads/legacybbbbbbbbbb.600.webp');
    expect(copy.statusCode).toBe(200);
    expect((await sharp(copy.rawPayload).metadata()).width).toBe(600);

    // The start-up backfill converts the rest, once.
    const images = imageVariants(t.app.db);
    expect(await images.backfill()).toBe(1);
    expect((await variantsOf(c.id)).map((v) => `${v.format}${v.width}`)).toEqual(['avif480', 'avif700', 'webp480', 'webp700']);
    expect(await images.backfill()).toBe(0);
    // An upload that does not decode is marked done with no copies, and never tried again.
    await t.app.db.insertInto('uploads').values({ key: 'brokenxxxxxxxxxx', shop_id: t.shopId, mime: 'image/png', width: 10, height: 10, size: 3, data: Buffer.from('png'), created_by: null, created_at: 'x' }).execute();
    expect(await images.backfill()).toBe(1);
    expect(await images.backfill()).toBe(0);
    expect((await get('/uploads/brokenxxxxxxxxxx.10.avif')).statusCode).toBe(404);
  });
});

describe('landing pages after a restart', () => {
  it('answers the first request from the page written to disk, without loading the renderer, and warms open landings at start', async () => {
    await openLanding(t);
    const first = await get('/view/smile/implant', { 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    const file = path.join(t.dataDir, 'pages/smile/implant/index.html');
    expect(fs.existsSync(`${file}.br`) && fs.existsSync(`${file}.gz`)).toBe(true);

    const before = rendererCalls.n;
    const restarted = async () => build({ config: t.app.config, database: { db: t.app.db, dialect: t.app.dialect, close: async () => {} }, clock: t.clock.now });
    const other = await restarted();
    try {
      const again = await other.inject({ method: 'GET', url: '/view/smile/implant', headers: { 'accept-encoding': 'br' } });
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(rendererCalls.n).toBe(before);
    } finally {
      await other.close();
    }

    // Warmed at start: the open landing's pages are in memory before anyone asks. (A page changed
    // on disk after the start is not what is served: the one loaded at start is.)
    const third = await restarted();
    try {
      await third.ready();
      await startupWarm(third);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('임플란트 무료 상담', '바뀐 파일'));
      const origin = await third.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${origin}/view/smile/implant`, { headers: { 'accept-encoding': 'br' } });
      expect(res.headers.get('etag')).toBe(first.headers.etag);
      expect(await res.text()).toContain('임플란트 무료 상담');
      expect(rendererCalls.n).toBe(before);
    } finally {
      await third.close();
    }
  });
});

describe('landing colours', () => {
  it('keeps every text colour readable on its background, whatever theme colours staff choose', async () => {
    const themes = [
      { primary: '#0e7c86', background: '#eef7f7', text: '#1f2329' },
      { primary: '#1677ff', background: '#f5f7fb', text: '#1f2329' },
      { primary: '#ffd400', background: '#fffbe6', text: '#1f2329' },
      { primary: '#7fb3ff', background: '#222222', text: '#cccccc' },
      { primary: '#101010', background: '#ffffff', text: '#bbbbbb' },
    ];
    for (const [i, colors] of themes.entries()) {
      await openLanding(t, { landingCode: `theme${i}`, content: { headline: '색상 점검', colors } });
      const html = (await get(`/view/smile/theme${i}`)).body;
      const v = (name: string) => new RegExp(`--${name}:(#[0-9a-f]{6})`, 'i').exec(html)![1]!;
      const ratio = (a: string, b: string) => contrastRatio(a, b)!;
      expect(v('p')).toBe(colors.primary); // the button keeps the chosen colour; its text follows it
      expect(ratio(v('on-p'), v('p')), `button text on ${colors.primary}`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      expect(ratio(v('pt'), '#ffffff'), `links on white (${colors.primary})`).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      expect(ratio(v('fg'), '#ffffff'), 'text on white').toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      expect(ratio(v('fg'), v('tint')), 'text on the bullets background').toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      expect(ratio(v('pt'), v('tint')), 'check marks on the bullets background').toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      // The theme's own colours are used where they read.
      if (ratio(colors.text, '#ffffff') >= MIN_TEXT_CONTRAST) expect(v('fg')).toBe(colors.text);
      if (ratio(v('fg'), colors.background) >= MIN_TEXT_CONTRAST) expect(v('tint')).toBe(colors.background);
      // No fixed grey below 4.5:1 on the white column (the footer's was 3.2:1).
      for (const m of html.matchAll(/[;{]color:(#[0-9a-f]{6})/gi)) expect(ratio(m[1]!, '#ffffff'), m[1]).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });
});
