// Image uploads run inside limits: an image past the pixel limits is refused from its header,
// never decoded; every sharp call carries sharp's own pixel limit; conversion goes through one
// bounded queue; uploads are limited per account; and public pages never wait for image work.
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_MAX_PIXELS, IMAGE_UPLOADS_PER_MINUTE } from '../../../contracts/landings.ts';
import { oversizeReason } from './image-info.ts';
import { IMAGE_QUEUE_CAPACITY, imageVariants, imageWork } from './image-variants.ts';
import { landingTestApp, openLanding, shopAccount, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';

// Every sharp instance (the app's and this file's) is seen here: how many, with which options; and its
// toBuffer (where pixels are decoded) can be held at a gate, or forbidden outright.
const seen = vi.hoisted(() => ({
  opened: [] as Array<Record<string, unknown> | undefined>,
  forbidDecode: false,
  gate: null as Promise<void> | null,
  atGate: 0,
}));
vi.mock('sharp', async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof sharp }>()).default;
  const watched = (...args: Parameters<typeof sharp>) => {
    seen.opened.push(args[1] as Record<string, unknown> | undefined);
    const s = real(...args);
    const toBuffer = s.toBuffer.bind(s) as (o?: object) => Promise<unknown>;
    Object.assign(s, {
      async toBuffer(o?: object) {
        if (seen.forbidDecode) throw new Error('an image the test says must never be decoded was decoded');
        if (seen.gate) {
          seen.atGate++;
          await seen.gate;
          seen.atGate--;
        }
        return toBuffer(o);
      },
    });
    return s;
  };
  return { default: Object.assign(watched, real) };
});

/** Holds every sharp decode until opened. */
function holdConversions() {
  let open!: () => void;
  seen.gate = new Promise<void>((resolve) => (open = resolve));
  return () => {
    seen.gate = null;
    open();
  };
}

/**
 * A valid 1-bit greyscale PNG of any size, as small as a decompression bomb is: every row is a
 * filter byte and zero bits, which deflate ~1000:1 (20000×13000 → ~32 KB, 32 MB unpacked, 780 MB decoded as RGB).
 */
function bitmapPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + body.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 4 + body.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth 1, colour type 0 (greyscale), deflate, adaptive filtering, no interlace
  const rows = zlib.deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

const photo = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } }).png().toBuffer();

let t: LandingTestApp;
beforeEach(async () => {
  t = await landingTestApp();
  seen.opened = [];
  seen.forbidDecode = false;
});
afterEach(async () => {
  if (seen.gate) holdConversions()();
  seen.gate = null;
  // The image queue is the process's: nothing queued by one test runs into the next one's database.
  await imageWork.idle();
  await t.close();
});

function upload(data: Buffer, as: Client = t.admin) {
  const boundary = '----leadroom-limits';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.png"\r\nContent-Type: image/png\r\n\r\n`),
    data, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return as.request('POST', `/api/shops/${t.shopId}/landings/uploads`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

const storedUploads = () => t.app.db.selectFrom('uploads').select('id').execute();

describe('image upload limits', () => {
  it('refuses a PNG bomb from its header, without decoding it or queueing it', async () => {
    const bomb = bitmapPng(20_000, 13_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    // A real PNG: sharp reads it as 20000×13000 (from the header; nothing decoded).
    expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 20_000, height: 13_000 });

    seen.forbidDecode = true;
    const opened = seen.opened.length;
    const res = await upload(bomb);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: '이미지가 너무 큽니다: 가로·세로 8,000px, 4,000만 화소까지 올릴 수 있습니다. (올린 이미지: 20,000×13,000px)',
    });
    // Never handed to sharp, never in the queue, nothing stored.
    expect(seen.opened.length).toBe(opened);
    expect([imageWork.running, imageWork.waiting]).toEqual([0, 0]);
    expect(await storedUploads()).toEqual([]);
  });

  it('refuses an image over 8,000 px a side or 40 million pixels, and takes one at the limits', async () => {
    const wide = await photo(8_001, 8);
    seen.forbidDecode = true;
    const opened = seen.opened.length;
    const res = await upload(wide);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('이미지가 너무 큽니다: 가로·세로 8,000px, 4,000만 화소까지 올릴 수 있습니다. (올린 이미지: 8,001×8px)');
    const tall = await upload(bitmapPng(10, 8_001));
    expect(tall.json().error.message).toContain('(올린 이미지: 10×8,001px)');
    // Both sides within 8,000, but 42 million pixels.
    const many = await upload(bitmapPng(7_000, 6_000));
    expect(many.statusCode).toBe(413);
    expect(many.json().error.message).toContain('(올린 이미지: 7,000×6,000px)');
    expect(seen.opened.length).toBe(opened);
    expect(await storedUploads()).toEqual([]);

    // The limits themselves are allowed.
    expect(oversizeReason({ width: 8_000, height: 5_000 })).toBeNull();
    expect(oversizeReason({ width: 8_000, height: 5_001 })).not.toBeNull();
    expect(oversizeReason({ width: 1, height: 8_000 })).toBeNull();
  });

  it('still converts a normal image end to end, with sharp’s own pixel limit on every call', async () => {
    const image = await photo(1200, 630);
    const opened = seen.opened.length;
    const res = await upload(image);
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json();
    const variants = await t.app.db.selectFrom('upload_variants').select(['format', 'width']).where('upload_id', '=', id).orderBy('format').orderBy('width').execute();
    expect(variants.map((v) => `${v.format}${v.width}`)).toEqual(['avif480', 'avif828', 'avif1200', 'webp480', 'webp828', 'webp1200']);
    // Every sharp instance the upload opened carried the limit.
    const appCalls = seen.opened.slice(opened);
    expect(appCalls.length).toBeGreaterThan(0);
    for (const options of appCalls) expect(options).toMatchObject({ limitInputPixels: IMAGE_MAX_PIXELS });

    await openLanding(t, { content: { headline: '사진', hero: { url, width: 1200, height: 630 } } });
    const html = (await t.app.inject({ method: 'GET', url: '/view/smile/implant' })).body;
    const key = /\/uploads\/([\w-]+)\.png/.exec(url)![1];
    expect(html).toContain(`/uploads/${key}.828.avif 828w`);
    const copy = await t.app.inject({ method: 'GET', url: `/uploads/${key}.480.webp` });
    expect(copy.statusCode).toBe(200);
    expect((await sharp(copy.rawPayload).metadata()).width).toBe(480);
  });

  it(`limits uploads to ${IMAGE_UPLOADS_PER_MINUTE} a minute per account, with a Korean 429`, async () => {
    const notAnImage = Buffer.from('이미지가 아닙니다');
    for (let i = 0; i < IMAGE_UPLOADS_PER_MINUTE; i++) expect((await upload(notAnImage)).statusCode).toBe(415);
    const refused = await upload(await photo(64, 64));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toEqual({ code: 'RATE_LIMITED', message: `이미지는 계정마다 1분에 ${IMAGE_UPLOADS_PER_MINUTE}장까지 올릴 수 있습니다. 잠시 후 다시 시도하세요.` });
    // Per account, not per address: a colleague at the same address uploads on.
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await upload(await photo(64, 64), marketer)).statusCode).toBe(201);
  });

  it(`converts one image at a time and refuses an upload with a Korean 503 while ${IMAGE_QUEUE_CAPACITY} wait`, async () => {
    const image = await photo(64, 64);
    const release = holdConversions();
    const queued = Array.from({ length: 1 + IMAGE_QUEUE_CAPACITY }, () => upload(image));
    await vi.waitFor(() => expect([imageWork.running, imageWork.waiting]).toEqual([1, IMAGE_QUEUE_CAPACITY]), { timeout: 20_000 });
    expect(seen.atGate).toBe(1); // one conversion decoding, the rest waiting their turn

    const refused = await upload(image);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json().error).toEqual({ code: 'BUSY', message: '이미지 변환 작업이 밀려 있습니다. 잠시 후 다시 시도하세요.' });

    release();
    for (const res of await Promise.all(queued)) expect(res.statusCode).toBe(201);
    expect(await storedUploads()).toHaveLength(1 + IMAGE_QUEUE_CAPACITY);
  });
});

describe('uploads stored before there were limits', () => {
  it('are never decoded by the backfill when past the limits: marked done without copies', async () => {
    const bomb = bitmapPng(20_000, 13_000);
    const { id } = await t.app.db
      .insertInto('uploads')
      .values({ key: 'bombxxxxxxxxxxxx', shop_id: t.shopId, mime: 'image/png', width: 20_000, height: 13_000, size: bomb.length, data: bomb, created_by: null, created_at: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    seen.forbidDecode = true;
    const opened = seen.opened.length;
    expect(await imageVariants(t.app.db).backfill()).toBe(1);
    expect(seen.opened.length).toBe(opened);
    const row = await t.app.db.selectFrom('uploads').select('variants_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.variants_at).not.toBeNull();
    expect(await t.app.db.selectFrom('upload_variants').select('id').execute()).toEqual([]);
  });
});

describe('public pages and image work', () => {
  it('answers a landing GET while conversions are queued, with the original until its copies exist', async () => {
    // An upload stored before conversion existed, shown as the landing's hero: its copies are still to make.
    const legacyKey = 'legacyhero000000';
    await t.app.db
      .insertInto('uploads')
      .values({ key: legacyKey, shop_id: t.shopId, mime: 'image/png', width: 900, height: 450, size: 1, data: await photo(900, 450), created_by: null, created_at: 'x' })
      .execute();
    await openLanding(t, { content: { headline: '예전 사진', hero: { url: `/uploads/${legacyKey}.png`, width: 900, height: 450 } } });

    // A staff upload is being converted and held there: the queue is busy.
    const image = await photo(1200, 630);
    const release = holdConversions();
    let uploadAnswered = false;
    const staffUpload = upload(image).finally(() => (uploadAnswered = true));
    await vi.waitFor(() => expect(seen.atGate).toBe(1), { timeout: 20_000 });

    const page = await t.app.inject({ method: 'GET', url: '/view/smile/implant' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<img class="hero" src="/uploads/${legacyKey}.png"`);
    expect(page.body).not.toContain('<picture>');
    // A copy asked for directly is not made while that request waits either.
    expect((await t.app.inject({ method: 'GET', url: `/uploads/${legacyKey}.480.avif` })).statusCode).toBe(404);
    expect(uploadAnswered).toBe(false);
    expect(imageWork.waiting).toBe(1); // the hero's conversion, queued behind the upload

    release();
    expect((await staffUpload).statusCode).toBe(201);
    await imageWork.idle();
    // Once its copies exist, the page is rendered anew with them.
    await vi.waitFor(async () => expect((await t.app.inject({ method: 'GET', url: '/view/smile/implant' })).body).toContain(`/uploads/${legacyKey}.900.avif 900w`), {
      timeout: 20_000,
    });
    expect((await t.app.inject({ method: 'GET', url: `/uploads/${legacyKey}.480.avif` })).statusCode).toBe(200);
  });
});
