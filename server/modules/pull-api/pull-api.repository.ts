// The SQL of the pull API: a page of a shop's live leads after a feed number, in feed order
// (leads_shop_feed_idx: shop_id, feed_seq), with what a receiver gets of each.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leadVariantContent } from '../../db/landing-sql.ts';

export type FeedRow = Awaited<ReturnType<ReturnType<typeof pullApiRepository>['page']>>[number];

export function pullApiRepository(db: Kysely<Database>) {
  return {
    /** Up to `limit` of the shop's leads numbered after `afterSeq`; deleted and purged leads never. */
    page: (shopId: number, afterSeq: number, limit: number) =>
      db
        .selectFrom('leads as l')
        .leftJoin('landings as g', 'g.id', 'l.landing_id')
        .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
        .select([
          'l.id', 'l.feed_seq', 'l.created_at', 'l.source', 'l.name', 'l.phone', 'l.answers', 'l.landing_id', 'g.landing_code', 'g.title as landing_title', 'g.form_fields', 'l.variant', leadVariantContent.as('variant_content'),
          'm.name as medium_name', 'l.utm_source', 'l.utm_medium', 'l.utm_campaign', 'l.utm_content', 'l.utm_term', 'l.cs_status', 'l.memo',
        ])
        .where('l.shop_id', '=', shopId)
        .where('l.feed_seq', '>', afterSeq)
        .where('l.deleted_at', 'is', null)
        .where('l.purged_at', 'is', null)
        .orderBy('l.feed_seq')
        .limit(limit)
        .execute(),
  };
}
