// Landing images in modern formats: every upload is converted once (sharp) to AVIF and WebP
// in a few widths, never wider than the original, and pages offer them as <picture> sources.
// Uploads stored before conversion existed get their copies from a start-up backfill, or once a
// page shows them (whichever comes first; a copy made twice by two processes is stored once).
//
// Converting is the costly part of an image (a decode of up to 40 MP, six encodes), so it runs
// inside limits: an image is measured from its header and refused past the limits before any
// decode (image-info.ts), sharp refuses past the same pixel limit by itself, and all conversion
// in this process goes through one queue that runs one image at a time on one libvips thread
// and one of libuv's threads (logins hash passwords on those), so other requests keep the rest
// of the machine (AVIF's encoder, libaom, adds a few threads of its own while it encodes).
// Public pages never wait for it: a page shows an image without copies as its original and is
// rendered anew once they exist.
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { uploadsRepository, type NewVariant } from './uploads.repository.ts';
import { imageInfo, oversizeReason } from './image-info.ts';
import { workQueue } from '../../lib/work-queue.ts';
import { IMAGE_MAX_PIXELS, type LandingContent } from '../../../contracts/landings.ts';

/** Widths a phone (~400 px at 2×), a tablet and the page's widest column at 2× pick from. */
const VARIANT_WIDTHS: readonly number[] = [480, 828, 1200];
const VARIANT_FORMATS = ['avif', 'webp'] as const;
type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** The widths made for an image this wide: the standard ones below it, and at most its own width. */
export function variantWidths(width: number): number[] {
  const below = VARIANT_WIDTHS.filter((w) => w < width);
  const top = Math.min(width, VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!);
  return below.includes(top) ? below : [...below, top];
}

/** /uploads/<key>.<width>.<format>: a dot never occurs in a key, so no original is taken for a copy. */
const variantUrl = (key: string, width: number, format: VariantFormat) => `/uploads/${key}.${width}.${format}`;
export const UPLOAD_FILE_RE = /^([A-Za-z0-9_-]{8,64})\.(?:(png|jpg|webp|gif)|(\d{1,5})\.(avif|webp))$/;
const UPLOAD_KEY_OF_URL = /^\/uploads\/([A-Za-z0-9_-]{8,64})\.(?:png|jpg|webp|gif)$/;

export class UnreadableImage extends Error {}

// One libvips thread per image: with one image at a time, conversion keeps to about one core.
sharp.concurrency(1);

/** Images converted one at a time; an upload is refused while this many wait (each holds its ≤ 3 MB original). */
export const IMAGE_QUEUE_CAPACITY = 8;
/** The one queue of image work in this process (uploads, the backfill, pages' old uploads). */
export const imageWork = workQueue({ concurrency: 1, capacity: IMAGE_QUEUE_CAPACITY });

/** Every sharp call: sharp refuses past the pixel limit itself, whatever the header parser said. */
const INPUT = { failOn: 'error', limitInputPixels: IMAGE_MAX_PIXELS } as const;

/**
 * The copies of an image: each width in AVIF and WebP. None for an animated image (its frames
 * stay in the original). Throws UnreadableImage when the bytes do not decode, or are past the limits.
 * Call it through `imageWork` (or `convertQueued`): it takes a core while it runs.
 */
export async function convertImage(data: Buffer): Promise<NewVariant[]> {
  const info = imageInfo(data);
  if (!info || oversizeReason(info)) throw new UnreadableImage(info ? 'past the image limits' : 'not an image');
  try {
    const meta = await sharp(data, INPUT).metadata();
    if ((meta.pages ?? 1) > 1) return [];
    // Browsers show a JPEG turned by its EXIF orientation: so are the copies.
    const width = meta.autoOrient?.width ?? meta.width;
    if (!width) throw new UnreadableImage('no width');
    const widths = variantWidths(width);
    // The original is decoded once, to the widest copy's size; every copy is made from those
    // pixels (six decodes of a large original would cost six times the CPU).
    const top = await sharp(data, INPUT).rotate().resize({ width: widths[widths.length - 1], withoutEnlargement: true }).raw().toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: top.info.width, height: top.info.height, channels: top.info.channels } };
    const variants: NewVariant[] = [];
    // One encode at a time: one of libuv's threads, never all of them.
    for (const w of widths) {
      for (const format of VARIANT_FORMATS) {
        const resized = sharp(top.data, { ...raw, limitInputPixels: IMAGE_MAX_PIXELS }).resize({ width: w, withoutEnlargement: true });
        // AVIF at effort 2: ~8× faster than the default 4 for ~3 % more bytes (a 1200 px photo in well under a second).
        const encoded = format === 'avif' ? resized.avif({ quality: 55, effort: 2 }) : resized.webp({ quality: 78, effort: 4 });
        const { data: bytes, info: out } = await encoded.toBuffer({ resolveWithObject: true });
        variants.push({ format, width: w, height: out.height, size: bytes.length, data: bytes });
      }
    }
    return variants;
  } catch (err) {
    throw err instanceof UnreadableImage ? err : new UnreadableImage(String(err));
  }
}

/** An upload's copies, made in its turn in the queue; rejects with QueueFull when the queue is full. */
export const convertQueued = (data: Buffer) => imageWork.run(() => convertImage(data), { refuseWhenFull: true });

export type { Pictures } from '../../../contracts/landings.ts';
import type { Pictures } from '../../../contracts/landings.ts';

function uploadKeysOf(content: Pick<LandingContent, 'hero' | 'images'>): Map<string, string> {
  const keys = new Map<string, string>();
  for (const img of [content.hero, ...content.images]) {
    const m = img && UPLOAD_KEY_OF_URL.exec(img.url);
    if (m) keys.set(m[1]!, img.url);
  }
  return keys;
}

// One conversion per upload at a time in this process, whoever asks (a page, the backfill).
const converting = new WeakMap<object, Map<number, Promise<void>>>();

export function imageVariants(db: Kysely<Database>, now: () => Date = () => new Date()) {
  const repo = uploadsRepository(db);
  let running = converting.get(db);
  if (!running) converting.set(db, (running = new Map()));
  const inflight = running;

  /**
   * Makes an upload's copies, in its turn in the queue, unless they exist. An image that does not
   * decode, is animated, or is past the limits (stored before there were limits: never decoded)
   * gets none, once.
   */
  function ensure(uploadId: number): Promise<void> {
    let p = inflight.get(uploadId);
    if (!p) {
      p = imageWork
        .run(async () => {
          const row = await repo.original(uploadId);
          if (!row || row.variants_at) return;
          let variants: NewVariant[] = [];
          try {
            variants = await convertImage(Buffer.from(row.data));
          } catch (err) {
            if (!(err instanceof UnreadableImage)) throw err;
          }
          await repo.insertVariants(uploadId, variants, now().toISOString());
        })
        .finally(() => inflight.delete(uploadId));
      inflight.set(uploadId, p);
    }
    return p;
  }

  return {
    ensure,

    /**
     * The pictures of a landing's uploaded images whose copies exist, at once. Copies not made yet
     * are queued (never waited for): `pending` settles once they are made, and the page is then
     * rendered anew; meanwhile it shows those images as their originals.
     */
    async pictures(content: Pick<LandingContent, 'hero' | 'images'>): Promise<{ pictures: Pictures; pending: Promise<void> | null }> {
      const urls = uploadKeysOf(content);
      const found = await repo.picturesByKeys([...urls.keys()]);
      const missing = found.uploads.filter((u) => !u.variants_at);
      const pending = missing.length ? Promise.all(missing.map((u) => ensure(u.id))).then(() => undefined) : null;
      const pictures: Pictures = {};
      for (const u of found.uploads) {
        const own = found.variants.filter((v) => v.upload_id === u.id);
        const of = (format: VariantFormat) => own.filter((v) => v.format === format).map((v) => ({ url: variantUrl(u.key, v.width, format), width: v.width }));
        const [avif, webp] = [of('avif'), of('webp')];
        if (avif.length && webp.length) pictures[urls.get(u.key)!] = { width: u.width, height: u.height, avif, webp };
      }
      return { pictures, pending };
    },

    /** Converts uploads that have no copies yet, oldest first, one at a time, until none is left or `stopped()`. */
    async backfill(stopped: () => boolean = () => false): Promise<number> {
      let done = 0;
      for (;;) {
        const batch = await repo.pending(20);
        if (!batch.length || stopped()) return done;
        for (const u of batch) {
          if (stopped()) return done;
          await ensure(u.id);
          done++;
        }
      }
    },
  };
}
