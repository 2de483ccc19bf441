// The one rule for a lead that counts — toward a contract's quantity and daily cap, on the
// settlement sheet, in CPA and the advertising figures: it is alive (not deleted), not a
// duplicate, and valid (neither 무효 nor returned). Every screen that shows such a count
// builds it from here, so the figures agree everywhere.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type { Database, LeadsTable } from './schema.ts';
import { seoulDay } from './dialect-sql.ts';

type WithLeads = Database & { l: LeadsTable };

/** `l` (leads) rows that count. */
export function validLead(eb: ExpressionBuilder<WithLeads, 'l'>) {
  return eb.and([eb('l.deleted_at', 'is', null), eb('l.duplicate_of', 'is', null), eb('l.validity', '=', 'valid')]);
}

/** The leads a contract (or any figure) covers: a shop, a period of instants, optionally some landings and media. */
export interface LeadScope {
  shopIds: readonly number[];
  fromIso: string;
  toIso: string;
  /** Empty: every landing (and leads without one). */
  landingIds?: readonly number[];
  /** Empty: every medium. */
  mediaTypeIds?: readonly number[];
}

/** `leads as l` narrowed to a scope (the covering (shop, created_at, …) index answers it). */
export function scopedLeads(db: Kysely<Database>, s: LeadScope): SelectQueryBuilder<WithLeads, 'l', object> {
  let qb = db.selectFrom('leads as l').where('l.shop_id', 'in', [...s.shopIds]).where('l.created_at', '>=', s.fromIso).where('l.created_at', '<', s.toIso);
  if (s.landingIds?.length) qb = qb.where('l.landing_id', 'in', [...s.landingIds]);
  if (s.mediaTypeIds?.length) qb = qb.where('l.media_type_id', 'in', [...s.mediaTypeIds]);
  return qb as unknown as SelectQueryBuilder<WithLeads, 'l', object>;
}

/** Valid leads per Seoul day in a scope, oldest day first. */
export async function validPerDay(db: Kysely<Database>, s: LeadScope): Promise<Array<{ day: string; count: number }>> {
  const day = seoulDay(db, 'l.created_at');
  const rows = await scopedLeads(db, s)
    .where(validLead)
    .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('count')])
    .groupBy(day)
    .orderBy(day)
    .execute();
  return rows.map((r) => ({ day: r.day, count: Number(r.count) }));
}
