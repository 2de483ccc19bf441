// Frozen: landing images in modern formats. Each upload gets AVIF and WebP copies in a few
// widths (never wider than the original), made once with sharp when the image is uploaded, so
// a landing can offer <picture> sources the browser picks from. Uploads made before this get
// theirs from a start-up backfill (or when a page first needs them), not here: converting
// is minutes of CPU on a big database, and a migration must stay quick. `variants_at` says
// when an upload's copies were made (or found impossible: an animated GIF, a broken file),
// so nothing is converted twice. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';
import { dialectOf, id } from '../migration-kit.ts';

export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await db.schema.alterTable('uploads').addColumn('variants_at', 'text').execute();

  await id(db.schema.createTable('upload_variants'), d)
    .addColumn('upload_id', 'integer', (c) => c.notNull().references('uploads.id').onDelete('cascade'))
    // avif | webp
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', d === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('upload_variants_upload_format_width_key', ['upload_id', 'format', 'width'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are frozen; restore from backup instead.');
}
