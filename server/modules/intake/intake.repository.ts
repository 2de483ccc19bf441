import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { effectivePolicyId } from '../../db/landing-sql.ts';

const CHUNK = 100;

export function intakeRepository(db: Kysely<Database>) {
  return {
    /** The landing a form posts to, with what intake needs, by its public codes. */
    definition: (shopCode: string, landingCode: string) =>
      db
        .selectFrom('landings as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .select([
          'l.id', 'l.shop_id', 's.shop_code', 'l.landing_code', 'l.title', 'l.status', 'l.open_at', 'l.close_at', 'l.reopen_at', 's.status as shop_status',
          'l.content', 'l.form_fields', 'l.thank_you_message', 'l.thank_you_url', 'l.duplicate_window_days', 'l.media_type_id',
          'l.tracking_tags', 'l.head_script', 'l.conversion_script', 'l.marketing_consent_text', effectivePolicyId.as('policy_id'),
          sql<number | null>`(select e.id from landing_experiments e where e.landing_id = l.id and e.status = 'running')`.as('experiment_id'),
        ])
        .where('s.shop_code', '=', shopCode)
        .where('l.landing_code', '=', landingCode)
        .executeTakeFirst(),

    /** The variants of a running experiment: a form's or beacon's variant is checked against their keys, its answers against their fields. */
    variants: (experimentId: number) => db.selectFrom('landing_experiment_variants').select(['key', 'content']).where('experiment_id', '=', experimentId).execute(),

    /** Active media types by code: a lead whose utm_source names one came from that medium. */
    mediaCodes: () => db.selectFrom('code_items').select(['id', 'code']).where('kind', '=', 'media-type').where('active', '=', 1).execute(),

    /** Submissions refused before or while accepting leads: recorded, never silently dropped. */
    async insertBlocked(rows: Array<Insertable<Database['blocked_submissions']>>) {
      for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('blocked_submissions').values(rows.slice(i, i + CHUNK)).execute();
    },

    /** Adds counted visits of experiment variants (experiment, variant, Seoul day). */
    async addVariantVisits(rows: Array<{ experiment_id: number; variant: string; day: string; count: number }>) {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('visit_variants')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['experiment_id', 'variant', 'day']).doUpdateSet({ count: sql<number>`visit_variants.count + excluded.count` }))
          .execute();
      }
    },

    /** Adds counted visits (landing, Seoul day, source). */
    async addVisits(rows: Array<{ landing_id: number; day: string; source: string; count: number }>) {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('visits')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['landing_id', 'day', 'source']).doUpdateSet({ count: sql<number>`visits.count + excluded.count` }))
          .execute();
      }
    },
  };
}

export type LandingDefinitionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof intakeRepository>['definition']>>>;
