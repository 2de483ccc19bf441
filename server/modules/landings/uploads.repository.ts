import type { Kysely } from 'kysely';
import type { Database, UploadVariantsTable } from '../../db/schema.ts';

export type NewVariant = Omit<UploadVariantsTable, 'id' | 'upload_id' | 'created_at'>;

/** Uploaded images and their AVIF/WebP copies (upload_variants). */
export function uploadsRepository(db: Kysely<Database>) {
  return {
    /** An upload's copies, once: a copy another process stored first is kept (same bytes from the same original). */
    async insertVariants(uploadId: number, variants: NewVariant[], now: string) {
      if (variants.length) {
        await db
          .insertInto('upload_variants')
          .values(variants.map((v) => ({ ...v, upload_id: uploadId, created_at: now })))
          .onConflict((oc) => oc.columns(['upload_id', 'format', 'width']).doNothing())
          .execute();
      }
      await db.updateTable('uploads').set({ variants_at: now }).where('id', '=', uploadId).execute();
    },

    findVariant: (key: string, width: number, format: 'avif' | 'webp') =>
      db
        .selectFrom('upload_variants as v')
        .innerJoin('uploads as u', 'u.id', 'v.upload_id')
        .select(['v.data', 'v.size'])
        .where('u.key', '=', key)
        .where('v.width', '=', width)
        .where('v.format', '=', format)
        .executeTakeFirst(),

    /** What a page needs to offer an upload as <picture>: its size and which copies exist (no bytes). */
    async picturesByKeys(keys: string[]) {
      if (!keys.length) return { uploads: [], variants: [] };
      const uploads = await db.selectFrom('uploads').select(['id', 'key', 'width', 'height', 'variants_at']).where('key', 'in', keys).execute();
      const variants = uploads.length
        ? await db
            .selectFrom('upload_variants')
            .select(['upload_id', 'format', 'width', 'height'])
            .where('upload_id', 'in', uploads.map((u) => u.id))
            .orderBy('width')
            .execute()
        : [];
      return { uploads, variants };
    },

    /** Uploads whose copies were never made (made before conversion existed), oldest first. */
    pending: (limit: number) =>
      db.selectFrom('uploads').select(['id', 'key']).where('variants_at', 'is', null).orderBy('id').limit(limit).execute(),

    original: (id: number) => db.selectFrom('uploads').select(['id', 'data', 'variants_at']).where('id', '=', id).executeTakeFirst(),

    /** Every copy of these uploads with its bytes (the pre-render writes them next to the pages). */
    variantsByKeys: (keys: string[]) =>
      keys.length
        ? db
            .selectFrom('upload_variants as v')
            .innerJoin('uploads as u', 'u.id', 'v.upload_id')
            .select(['u.key', 'v.format', 'v.width', 'v.data'])
            .where('u.key', 'in', keys)
            .execute()
        : Promise.resolve([]),
  };
}
