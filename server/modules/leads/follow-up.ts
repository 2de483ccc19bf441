// Intake's follow-ups. A visitor's lead commits with what its answer depends on (the duplicate
// rule, the caps, the automatic allocation, its pull-feed number); its `created` event and its
// delivery jobs are written just after, for many batches at once, by followUpLeads: the two
// tables' b-trees were over a third of the pages each intake commit wrote. Nothing is lost in
// between: the lead row holds everything the event says (when, from where, its source), and one
// cursor row (lead_follow_up) says how far in the pull feed's order — commit order — the
// follow-ups are done, moved in the same transaction that writes them. So each lead gets them
// exactly once, whoever runs the step (intake right after its batches, the worker as a backstop
// after a crash or for another process's leads), and a restart picks up where it stopped.
// Leads written with their event already (manual entry, imports; a restored lead renumbered)
// are passed over: a lead with a `created` event has had its follow-ups.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { writeDeliveryJobs } from '../delivery/delivery.entry.ts';
import { withLeadRows, type EventValues } from './leads.repository.ts';
import { followUpRepository, type FollowUpLead } from './follow-up.repository.ts';

/** Leads one transaction follows up at most; a backlog is caught up over a few. */
export const FOLLOW_UP_BATCH = 2000;
/** Transactions one call runs at most. */
const MAX_ROUNDS = 50;

/** A lead's `created` event: what it came with, by whom (a visitor's form: no one). */
export function createdEvent(l: {
  leadId: number; shopId: number; source: string | undefined; landingId: number | null; duplicateOf: number | null; consentBasis: string | null; importId: number | null;
  ip: string | null; accountId: number | null; at: string;
}): EventValues {
  return {
    lead_id: l.leadId, shop_id: l.shopId, account_id: l.accountId, action: 'created', before: null, ip: l.ip, at: l.at,
    after: JSON.stringify({
      source: l.source, landingId: l.landingId, ...(l.duplicateOf ? { duplicateOf: l.duplicateOf } : {}),
      ...(l.consentBasis ? { consentBasis: l.consentBasis } : {}), ...(l.importId ? { importId: l.importId } : {}),
    }),
  };
}

const eventOf = (l: FollowUpLead): EventValues => createdEvent({
  leadId: l.id, shopId: l.shop_id, source: l.source, landingId: l.landing_id, duplicateOf: l.duplicate_of, consentBasis: l.consent_basis, importId: l.import_id,
  ip: l.ip, accountId: null, at: l.created_at,
});

/** One transaction's worth: answers the leads followed up, the jobs' count, and whether more wait. */
async function round(trx: Transaction<Database>, now: Date): Promise<{ leads: number; jobs: number; more: boolean }> {
  const repo = followUpRepository(trx);
  const from = await repo.cursor();
  const end = await repo.committedEnd();
  if (end <= from) return { leads: 0, jobs: 0, more: false };
  const upTo = Math.min(end, from + FOLLOW_UP_BATCH);
  const found = await repo.between(from, upTo);
  const done = await repo.withCreatedEvent(found.map((l) => l.id));
  const due = found.filter((l) => !done.has(l.id));
  let jobs = 0;
  if (due.length) {
    await withLeadRows(trx, (rows) => rows.insertEvents(due.map(eventOf)));
    jobs = await writeDeliveryJobs(trx, due.map((l) => ({ lead: l, leadId: l.id, duplicateOf: l.duplicate_of })), now);
  }
  await repo.moveCursor(upTo);
  return { leads: due.length, jobs, more: upTo < end };
}

/**
 * Writes the `created` events and delivery jobs of committed leads that have none yet, in
 * the pull feed's order; answers how many leads it followed up and how many jobs it wrote.
 */
export async function followUpLeads(db: Kysely<Database>, now: Date): Promise<{ leads: number; jobs: number }> {
  if (!db.isTransaction && !(await followUpRepository(db).anyWaiting())) return { leads: 0, jobs: 0 };
  let leads = 0;
  let jobs = 0;
  for (let i = 0; i < MAX_ROUNDS; i++) {
    const r = await inTransaction(db, (trx) => round(trx, now));
    leads += r.leads;
    jobs += r.jobs;
    if (!r.more) break;
  }
  return { leads, jobs };
}
