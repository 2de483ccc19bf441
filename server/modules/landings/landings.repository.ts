import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, LandingRow } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import { effectivePolicyId } from '../../db/landing-sql.ts';
import type { LandingListQuery } from '../../../contracts/landings.ts';

/** Period bounds for list statistics: Seoul days for visits, UTC instants for leads. */
interface StatsPeriod {
  fromDay: string;
  toDay: string;
  fromIso: string;
  toIso: string;
}

export type LandingFields = Omit<LandingRow, 'id' | 'version' | 'created_at' | 'updated_at' | 'tracking_tags' | 'head_script' | 'body_script' | 'conversion_script' | 'published_at' | 'created_by' | 'closed_by_contract_id' | 'reopen_at'>;

export function landingsRepository(db: Kysely<Database>) {
  const publicBase = () =>
    db
      .selectFrom('landings as l')
      .innerJoin('shops as s', 's.id', 'l.shop_id')
      .select([
        'l.id', 'l.shop_id', 'l.landing_code', 'l.status', 'l.open_at', 'l.close_at', 'l.reopen_at', 'l.version', 's.shop_code',
        's.updated_at as shop_updated_at', 's.status as shop_status', effectivePolicyId.as('policy_id'),
        sql<string | null>`(select o.updated_at from operator_settings o where o.id = 1)`.as('operator_updated_at'),
        // The running experiment: its variants' pages, and when it changed (a stop, a promotion).
        sql<number | null>`(select e.id from landing_experiments e where e.landing_id = l.id and e.status = 'running')`.as('experiment_id'),
        sql<string | null>`(select e.updated_at from landing_experiments e where e.landing_id = l.id and e.status = 'running')`.as('experiment_updated_at'),
      ]);

  return {
    options: (shopId: number) =>
      db.selectFrom('landings').select(['id', 'title', 'landing_code', 'status']).where('shop_id', '=', shopId).orderBy('title').execute(),

    list(shopId: number, f: LandingListQuery, period: StatsPeriod) {
      const qb = db
        .selectFrom('landings as l')
        .leftJoin('code_items as m', 'm.id', 'l.media_type_id')
        .leftJoin('code_items as e', 'e.id', 'l.event_type_id')
        .select([
          'l.id', 'l.landing_code', 'l.title', 'l.status', 'l.open_at', 'l.close_at', 'l.reopen_at', 'l.published_at', 'l.updated_at',
          'm.name as media_type_name', 'e.name as event_type_name', 'l.form_fields',
          sql<string | null>`(select p.items from privacy_policies p where p.id = ${effectivePolicyId})`.as('policy_items'),
          sql<number>`(select coalesce(sum(v.count), 0) from visits v where v.landing_id = l.id and v.day >= ${period.fromDay} and v.day <= ${period.toDay})`.as('visits'),
          sql<number>`(select count(*) from leads d where d.landing_id = l.id and d.deleted_at is null and d.created_at >= ${period.fromIso} and d.created_at < ${period.toIso})`.as('submissions'),
        ])
        .where('l.shop_id', '=', shopId);
      return paginate(qb, f, {
        search: ['l.title', 'l.landing_code'],
        equals: { 'l.status': f.status },
        sortable: {
          title: 'l.title', landingCode: 'l.landing_code', status: 'l.status', openAt: 'l.open_at', closeAt: 'l.close_at',
          publishedAt: 'l.published_at', updatedAt: 'l.updated_at', visits: 'visits', submissions: 'submissions',
        },
        defaultSort: { column: 'l.updated_at', desc: true },
        tieBreaker: 'l.id',
      });
    },
    /** The variants of the landings' experiments that ran in the period (started before its end, not stopped before its start). */
    periodVariants: (landingIds: number[], period: StatsPeriod) =>
      db
        .selectFrom('landing_experiments as e')
        .innerJoin('landing_experiment_variants as v', 'v.experiment_id', 'e.id')
        .select(['e.landing_id', 'e.id as experiment_id', 'e.name', 'v.key'])
        .where('e.landing_id', 'in', landingIds)
        .where('e.started_at', 'is not', null)
        .where('e.started_at', '<', period.toIso)
        .where((eb) => eb.or([eb('e.stopped_at', 'is', null), eb('e.stopped_at', '>=', period.fromIso)]))
        .orderBy('e.id')
        .orderBy('v.key')
        .execute(),

    /** Visits per experiment and variant in the period's Seoul days. */
    variantVisits: (experimentIds: number[], period: StatsPeriod) =>
      db
        .selectFrom('visit_variants')
        .select(['experiment_id', 'variant', (eb) => eb.fn.sum<number>('count').as('n')])
        .where('experiment_id', 'in', experimentIds)
        .where('day', '>=', period.fromDay)
        .where('day', '<=', period.toDay)
        .groupBy(['experiment_id', 'variant'])
        .execute(),

    /** Leads (not deleted) per experiment and variant received in the period. */
    variantLeads: (experimentIds: number[], period: StatsPeriod) =>
      db
        .selectFrom('leads')
        .select(['experiment_id', 'variant', (eb) => eb.fn.countAll<number>().as('n')])
        .where('experiment_id', 'in', experimentIds)
        .where('deleted_at', 'is', null)
        .where('created_at', '>=', period.fromIso)
        .where('created_at', '<', period.toIso)
        .groupBy(['experiment_id', 'variant'])
        .execute(),

    find: (shopId: number, id: number) =>
      db.selectFrom('landings').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),
    /** A landing by its id alone: for the system's own work (a 시스템 예약), never for a request's. */
    findById: (id: number) => db.selectFrom('landings').selectAll().where('id', '=', id).executeTakeFirst(),
    findIdByCode: (shopId: number, code: string) =>
      db.selectFrom('landings').select('id').where('shop_id', '=', shopId).where('landing_code', '=', code).executeTakeFirst(),
    codeItemKind: async (id: number) => (await db.selectFrom('code_items').select('kind').where('id', '=', id).executeTakeFirst())?.kind,
    /** A published policy of this shop: never another shop's, whatever id is asked for. */
    publishedPolicy: (shopId: number, id: number) =>
      db.selectFrom('privacy_policies').selectAll().where('shop_id', '=', shopId).where('id', '=', id).where('published_at', 'is not', null).executeTakeFirst(),
    latestPublishedPolicy: (shopId: number) =>
      db.selectFrom('privacy_policies').select('id').where('shop_id', '=', shopId).where('published_at', 'is not', null).orderBy('version', 'desc').limit(1).executeTakeFirst(),
    insert: (row: LandingFields & { created_by: number | null; created_at: string; updated_at: string }) =>
      db.insertInto('landings').values(row).returning('id').executeTakeFirstOrThrow(),
    /** Any change bumps the version, which the page cache keys on. */
    /** Publishing or closing by hand also ends a contract's closing (its automatic reopening with it). */
    update: (id: number, row: Partial<LandingFields> & { updated_at: string; published_at?: string | null; closed_by_contract_id?: null; reopen_at?: null }) =>
      db.updateTable('landings').set({ ...row, version: sql<number>`version + 1` }).where('id', '=', id).execute(),

    insertUpload: (row: Omit<Insertable<Database['uploads']>, 'id'>) => db.insertInto('uploads').values(row).returning('id').executeTakeFirstOrThrow(),
    findUpload: (key: string) => db.selectFrom('uploads').select(['mime', 'data', 'size']).where('key', '=', key).executeTakeFirst(),
    uploadsByKey: (keys: string[]) =>
      keys.length ? db.selectFrom('uploads').select(['key', 'mime', 'data']).where('key', 'in', keys).execute() : Promise.resolve([]),

    // The public side.
    /** Status, schedule and what the rendered HTML depends on, by public codes. */
    publicState: (shopCode: string, landingCode: string) =>
      publicBase().where('s.shop_code', '=', shopCode).where('l.landing_code', '=', landingCode).executeTakeFirst(),
    publicStateById: (id: number) => publicBase().where('l.id', '=', id).executeTakeFirst(),
    /** The same for every landing that is not a draft (page-cache revalidation, prerender). */
    publicStates: () => publicBase().where('l.status', '!=', 'draft').execute(),
    publicLanding: (id: number) =>
      db
        .selectFrom('landings as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .selectAll('l')
        .select([
          's.shop_code', 's.name as shop_name', 's.company_name', 's.representative', 's.business_number', 's.phone as shop_phone',
          's.address', 's.privacy_officer_name', 's.privacy_officer_contact', effectivePolicyId.as('policy_id'),
        ])
        .where('l.id', '=', id)
        .executeTakeFirst(),
    shop: (shopId: number) => db.selectFrom('shops').selectAll().where('id', '=', shopId).executeTakeFirst(),
    /** The agency's details (named as collector on privacy pages); undefined until entered. */
    operator: () => db.selectFrom('operator_settings').selectAll().where('id', '=', 1).executeTakeFirst(),
  };
}

export type PublicState = NonNullable<Awaited<ReturnType<ReturnType<typeof landingsRepository>['publicState']>>>;
