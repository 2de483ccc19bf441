// Accepting leads: the one way a lead is written. Intake (its writer thread or the event loop),
// manual entry and import all call insertAccepted inside the transaction they already hold, so a
// lead and everything its answer depends on commit together: the duplicate rule, the
// same-transaction steps (allocation, contract caps), and — for manual entry and imports — its
// `created` event and delivery jobs. Intake's leads get those two just after their batch commits
// (followUpLater; follow-up.ts), for many batches at once.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockKeys, reserveIds } from '../../db/dialect-sql.ts';
import { leadRow, withLeadRows, type LeadProbe, type LeadValues, type NewLead } from './leads.repository.ts';
import { autoAllocate } from './allocation.ts';
import { closeAtCaps, lockRunningContracts } from './contract-caps.ts';
import { numberInTransaction } from './lead-feed-seq.ts';
import { writeDeliveryJobs } from '../delivery/delivery.entry.ts';
import { createdEvent } from './follow-up.ts';

const DAY_MS = 86_400_000;

/** A lead to store: checked and refused-or-not already; its window decides duplicates. */
export interface AcceptedLead {
  lead: NewLead;
  /** Days back a lead of the same shop and phone makes this one a duplicate (0: never). */
  duplicateWindowDays: number;
  /** When the lead was received, if before it is stored (an imported file's 접수일); else now. */
  receivedAt?: string;
  /** Who entered it by hand or imported it (its `created` event names them); a visitor's form has no one. */
  by?: { accountId: number; ip: string };
}

export interface CreatedLead {
  leadId: number;
  duplicateOf: number | null;
  /** The counselor the shop's automatic rule gave it to, if any. */
  assigneeId?: number | null;
  /** Landings a contract's cap closed with this lead (set on the last lead of the contract in the call). */
  closedLandingIds?: number[];
}

export interface InsertOptions<T extends AcceptedLead> {
  /**
   * Decides per item, in order, once its duplicate status is known and before it is written,
   * whether it is stored (intake's contract caps); a refused item is not written at all.
   */
  admit?: (item: T, duplicateOf: number | null) => boolean;
  /** The caller's cap gate (contractCapGate) already locked the shops' running contracts in this transaction. */
  contractsLocked?: boolean;
  /**
   * Whether the leads get their pull-feed numbers in this transaction (default). An import's
   * transaction, which lasts minutes, says false: its leads are numbered once it committed
   * (assignFeedSeq), so intake meanwhile is not held behind the feed's counter.
   */
  numberFeed?: boolean;
  /**
   * Intake's batches: the leads' `created` events and delivery jobs are left to followUpLeads,
   * which writes them just after the commit for many batches at once (follow-up.ts).
   */
  followUpLater?: boolean;
}

/**
 * Work that runs in the transaction accepting leads, after they are written, in this order
 * (the automatic allocation, then the contracts' caps closing landings, then the delivery
 * outbox's jobs). Statically listed: no module registers itself at run time.
 */
type SameTransactionStep = (trx: Transaction<Database>, leads: Array<AcceptedLead & CreatedLead>, now: Date) => Promise<void>;
const SAME_TRANSACTION_STEPS: readonly SameTransactionStep[] = [autoAllocate, closeAtCaps, async (trx, leads, now) => void (await writeDeliveryJobs(trx, leads, now))];
/** The steps when the delivery jobs are a follow-up (followUpLater). */
const STEPS_BEFORE_FOLLOW_UP: readonly SameTransactionStep[] = [autoAllocate, closeAtCaps];

/** Distinct phones of one shop beyond which a call locks the shop's phones as a whole (an import's batches). */
const PHONE_LOCKS_PER_SHOP = 256;

/**
 * The duplicate rule's locks, on PostgreSQL (SQLite's writes are serial anyway): a call with a
 * few phones of a shop (intake's batches, manual entry) locks each shop and phone, and the shop
 * in shared mode, so batches with different phones commit side by side; a call with many (an
 * import's transaction of 50,000 leads) locks the shop's phones as a whole, exclusively — one
 * lock instead of thousands (PostgreSQL's lock table has room for about 64 per connection).
 * Shop locks come before phone locks, each group in one fixed order: no two writers wait for each other.
 */
async function lockPhones(trx: Transaction<Database>, items: readonly AcceptedLead[]): Promise<void> {
  const phones = new Map<number, Set<string>>();
  for (const i of items) {
    if (i.duplicateWindowDays <= 0) continue;
    const set = phones.get(i.lead.shop_id) ?? new Set<string>();
    set.add(i.lead.phone);
    phones.set(i.lead.shop_id, set);
  }
  const shared: string[] = [];
  const exclusive: string[] = [];
  for (const [shopId, set] of phones) {
    if (set.size > PHONE_LOCKS_PER_SHOP) {
      exclusive.push(`lead-phones:${shopId}`);
      continue;
    }
    shared.push(`lead-phones:${shopId}`);
    for (const phone of set) exclusive.push(`lead-phone:${shopId}:${phone}`);
  }
  await lockKeys(trx, exclusive, { shared });
}

/**
 * Writes accepted leads in order, in `trx`: a lead whose shop has a live lead with the same
 * phone inside its landing's window is stored as a duplicate of the earliest one (leads of
 * the same batch count too), each gets its `created` event, then the same-transaction steps run.
 * Answers the written leads in order (with `admit`, only those it admitted).
 */
export async function insertAccepted<T extends AcceptedLead>(trx: Transaction<Database>, items: readonly T[], now: Date, o: InsertOptions<T> = {}): Promise<CreatedLead[]> {
  if (!items.length) return [];
  const nowIso = now.toISOString();
  // The contracts that may close at a cap are locked first, before the phones below: every
  // writer takes its locks in that order (intake's gate took these already).
  if (!o.contractsLocked) await lockRunningContracts(trx, items.map((i) => i.lead.shop_id), now);
  // Another process may be committing the same phone for the same shop right now: a lock per
  // shop and phone, held to the commit, makes the later one wait and then see the earlier one.
  await lockPhones(trx, items);
  // The ids are drawn first (ascending, taken in the batch's order), so the leads go in
  // multi-row statements and a later lead of the batch can name an earlier one as its original.
  const ids = await reserveIds(trx, 'leads', items.length);
  const { out, values } = await withLeadRows(trx, async (rows) => {
    // The earliest live lead per window, shop and phone: one probe for all distinct triples.
    const key = (days: number, i: AcceptedLead) => `${days}|${i.lead.shop_id}|${i.lead.phone}`;
    const probes = new Map<string, LeadProbe>();
    for (const i of items) {
      const k = key(i.duplicateWindowDays, i);
      if (i.duplicateWindowDays > 0 && !probes.has(k)) {
        probes.set(k, { shopId: i.lead.shop_id, phone: i.lead.phone, since: new Date(now.getTime() - i.duplicateWindowDays * DAY_MS).toISOString() });
      }
    }
    const found = await rows.earliest([...probes.values()]);
    const earlier = new Map<string, number>();
    [...probes.keys()].forEach((k, n) => {
      if (found[n] != null) earlier.set(k, found[n]);
    });
    const windows = [...new Set(items.map((i) => i.duplicateWindowDays).filter((d) => d > 0))];
    const out: Array<CreatedLead & { item: T }> = [];
    const values: Array<LeadValues & { id: number }> = [];
    for (const i of items) {
      const duplicateOf = i.duplicateWindowDays > 0 ? (earlier.get(key(i.duplicateWindowDays, i)) ?? null) : null;
      if (o.admit && !o.admit(i, duplicateOf)) continue;
      const leadId = ids[values.length]!;
      values.push(leadRow(i.lead, {
        id: leadId, cs_status: duplicateOf ? '중복' : (i.lead.cs_status ?? '미처리'), duplicate_of: duplicateOf, created_at: i.receivedAt ?? nowIso, updated_at: nowIso,
      }));
      // Leads of this batch are taken in order, so a later one duplicates an earlier one.
      for (const days of windows) if (!earlier.has(key(days, i))) earlier.set(key(days, i), leadId);
      out.push({ leadId, duplicateOf, item: i });
    }
    return { out, values };
  });
  // The pull feed's numbers, as they are written (not by an update after the commit, which
  // would write every lead again): the counter is held from here to the commit on PostgreSQL.
  if (o.numberFeed !== false && values.length) {
    const first = await numberInTransaction(trx, values.length);
    values.forEach((v, k) => (v.feed_seq = first + k));
  }
  await withLeadRows(trx, async (rows) => {
    await rows.insertWithIds(values);
    if (o.followUpLater) return;
    await rows.insertEvents(
      out.map((c) => {
        const { lead, by } = c.item;
        return createdEvent({
          leadId: c.leadId, shopId: lead.shop_id, source: lead.source, landingId: lead.landing_id ?? null, duplicateOf: c.duplicateOf,
          consentBasis: lead.consent_basis ?? null, importId: lead.import_id ?? null, ip: by?.ip ?? lead.ip ?? null, accountId: by?.accountId ?? null, at: nowIso,
        });
      }),
    );
  });
  const written: Array<AcceptedLead & CreatedLead> = out.map(({ item, ...c }) => ({ ...item, ...c }));
  for (const step of o.followUpLater ? STEPS_BEFORE_FOLLOW_UP : SAME_TRANSACTION_STEPS) await step(trx, written, now);
  return written.map((w) => ({
    leadId: w.leadId, duplicateOf: w.duplicateOf, assigneeId: w.assigneeId ?? null, ...(w.closedLandingIds ? { closedLandingIds: w.closedLandingIds } : {}),
  }));
}
