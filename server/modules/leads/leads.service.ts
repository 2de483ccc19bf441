// The one writer of leads and their access-record events. Intake (its writer thread or the
// event loop), manual entry and import all accept leads through insertAccepted, inside the
// transaction they already hold, so a lead and everything that must happen with it commit
// together: the duplicate rule, its `created` event, and the same-transaction steps.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockKeys } from '../../db/dialect-sql.ts';
import { withLeadRows, type NewLead } from './leads.repository.ts';

export type { NewLead };

const DAY_MS = 86_400_000;

/** A lead to store: checked and refused-or-not already; its window decides duplicates. */
export interface AcceptedLead {
  lead: NewLead;
  /** Days back a lead of the same shop and phone makes this one a duplicate (0: never). */
  duplicateWindowDays: number;
}

export interface CreatedLead {
  leadId: number;
  duplicateOf: number | null;
}

/**
 * Work that runs in the transaction accepting leads, after they are written, in this order
 * (automatic allocation and the delivery outbox join here). Statically listed: no module
 * registers itself at run time.
 */
type SameTransactionStep = (trx: Transaction<Database>, leads: ReadonlyArray<AcceptedLead & CreatedLead>, now: Date) => Promise<void>;
const SAME_TRANSACTION_STEPS: readonly SameTransactionStep[] = [];

/**
 * Writes accepted leads in order, in `trx`: a lead whose shop has a live lead with the same
 * phone inside its landing's window is stored as a duplicate of the earliest one (leads of
 * the same batch count too), each gets its `created` event, then the same-transaction steps run.
 */
export async function insertAccepted(trx: Transaction<Database>, items: readonly AcceptedLead[], now: Date): Promise<CreatedLead[]> {
  if (!items.length) return [];
  const nowIso = now.toISOString();
  // Another process may be committing the same phone for the same shop right now: a lock per
  // shop and phone, held to the commit, makes the later one wait and then see the earlier one.
  await lockKeys(trx, items.filter((i) => i.duplicateWindowDays > 0).map((i) => `lead-phone:${i.lead.shop_id}:${i.lead.phone}`));
  const created = await withLeadRows(trx, async (rows) => {
    // The earliest live lead per window, shop and phone: one probe per distinct triple.
    const earlier = new Map<string, number>();
    const key = (days: number, i: AcceptedLead) => `${days}|${i.lead.shop_id}|${i.lead.phone}`;
    for (const i of items) {
      const k = key(i.duplicateWindowDays, i);
      if (i.duplicateWindowDays <= 0 || earlier.has(k)) continue;
      const found = await rows.earliest(i.lead.shop_id, i.lead.phone, new Date(now.getTime() - i.duplicateWindowDays * DAY_MS).toISOString());
      if (found !== null) earlier.set(k, found);
    }
    const windows = [...new Set(items.map((i) => i.duplicateWindowDays).filter((d) => d > 0))];
    const out: CreatedLead[] = [];
    for (const i of items) {
      const duplicateOf = i.duplicateWindowDays > 0 ? (earlier.get(key(i.duplicateWindowDays, i)) ?? null) : null;
      const leadId = await rows.insert({
        ...i.lead, cs_status: duplicateOf ? '중복' : (i.lead.cs_status ?? '미처리'), duplicate_of: duplicateOf, created_at: nowIso, updated_at: nowIso,
      } as never);
      // Leads of this batch are written in order, so a later one duplicates an earlier one.
      for (const days of windows) if (!earlier.has(key(days, i))) earlier.set(key(days, i), leadId);
      out.push({ leadId, duplicateOf });
    }
    for (const [n, c] of out.entries()) {
      const { lead } = items[n]!;
      await rows.insertEvent({
        lead_id: c.leadId, account_id: null, action: 'created', before: null, ip: lead.ip ?? null, at: nowIso,
        after: JSON.stringify({ source: lead.source, landingId: lead.landing_id, ...(c.duplicateOf ? { duplicateOf: c.duplicateOf } : {}) }),
      });
    }
    return out;
  });
  const written = items.map((i, n) => ({ ...i, ...created[n]! }));
  for (const step of SAME_TRANSACTION_STEPS) await step(trx, written, now);
  return created;
}
