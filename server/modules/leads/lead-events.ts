// Writes on leads and their access records that other parts make with their own transaction:
// a return's request and decision (the contracts module), the delivery worker's `deliver`
// events (handed to it by server/worker/delivery.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { leadsRepository } from './leads.repository.ts';

// ── Returns (무효 교체): the contracts module's writes on leads ───────────────────────────

/** An approved return takes a lead out of the counts for good (validity 'returned'; a later status change keeps it). */
export async function markReturned(trx: Kysely<Database>, leadId: number, now: Date): Promise<void> {
  await leadsRepository(trx).update([leadId], { validity: 'returned', updated_at: now.toISOString() });
}

/** Events in leads' access records, written by another part with its transaction (the delivery worker's `deliver`, many at once). */
export async function recordLeadEvents(
  trx: Kysely<Database>,
  events: ReadonlyArray<{ leadId: number; shopId: number; accountId: number | null; action: string; before: unknown; after: unknown; ip: string | null }>,
  now: Date,
): Promise<void> {
  if (!events.length) return;
  const at = now.toISOString();
  const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
  const rows = events.map((e) => ({
    lead_id: e.leadId, shop_id: e.shopId, account_id: e.accountId, action: e.action, ip: e.ip, at, before: json(e.before), after: json(e.after),
  }));
  // 500 rows of 8 values a statement: well inside both engines' parameter limits.
  for (let i = 0; i < rows.length; i += 500) await leadsRepository(trx).insertEvents(rows.slice(i, i + 500));
}

/** One event in a lead's access record, written by another module's step with its transaction (a return's request or decision). */
export async function recordLeadEvent(
  trx: Kysely<Database>,
  e: { leadId: number; shopId: number; accountId: number | null; action: string; before: unknown; after: unknown; ip: string | null },
  now: Date,
): Promise<void> {
  await leadsRepository(trx).insertEvents([{
    lead_id: e.leadId, shop_id: e.shopId, account_id: e.accountId, action: e.action, ip: e.ip, at: now.toISOString(),
    before: e.before === null || e.before === undefined ? null : JSON.stringify(e.before),
    after: e.after === null || e.after === undefined ? null : JSON.stringify(e.after),
  }]);
}
