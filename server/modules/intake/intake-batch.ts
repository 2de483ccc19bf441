// One group-committed batch of submissions, in one transaction: deny rules (hits counted,
// refusals logged), the contracts' caps (a lead past a cap that closes its landing is refused),
// then the accepted leads through the leads module (duplicates, their `created` events, the
// same-transaction steps, which close landings at a cap). Runs on the event loop's connection
// or on the SQLite writer thread (intake-writer.ts) alike: outcomes are plain data.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { intakeRepository } from './intake.repository.ts';
import { denyGate } from '../deny-rules/deny-rules.gate.ts';
import { contractCapGate, insertAccepted, type NewLead } from '../leads/leads.entry.ts';

/** A submission that passed validation; deny rules and duplicates are decided in the batch. */
export interface PendingLead {
  kind: 'lead';
  lead: NewLead;
  duplicateWindowDays: number;
  /** Text keyword rules look at (name, answers). */
  text: string;
}

/** A submission refused before the database (honeypot, too fast): recorded, not silently dropped. */
export interface PendingBlock {
  kind: 'block';
  row: { shop_id: number; landing_id: number; reason: 'honeypot' | 'too-fast'; ip: string | null; phone: string | null; name: string | null; user_agent: string | null; detail: string | null };
}

/**
 * What became of a submission. `closed`: refused, its landing closed by a contract's cap (or
 * the cap reached). `closedLandingIds`: landings a cap closed in this transaction.
 */
export type Outcome =
  | { status: 'created'; leadId: number; duplicateOf: number | null; assigneeId?: number | null; closedLandingIds?: number[] }
  | { status: 'denied'; ruleId: number }
  | { status: 'blocked' }
  | { status: 'closed'; closedLandingIds?: number[] };

export function commitBatch(db: Kysely<Database>, items: Array<PendingLead | PendingBlock>, now: Date): Promise<Outcome[]> {
  return db.transaction().execute(async (trx) => {
    const nowIso = now.toISOString();
    const outcomes: Outcome[] = new Array(items.length);
    const blocked: Array<Insertable<Database['blocked_submissions']>> = [];
    const accepted: Array<{ index: number; item: PendingLead }> = [];
    const gate = items.some((i) => i.kind === 'lead') ? await denyGate(trx, 'intake', now) : null;
    items.forEach((item, index) => {
      if (item.kind === 'block') {
        blocked.push({ ...item.row, deny_rule_id: null, at: nowIso });
        outcomes[index] = { status: 'blocked' };
        return;
      }
      const l = item.lead;
      const rule = gate?.match({ ip: l.ip ?? undefined, phone: l.phone, text: item.text });
      if (!rule) return accepted.push({ index, item });
      blocked.push({
        shop_id: l.shop_id, landing_id: l.landing_id ?? null, reason: 'deny-rule', deny_rule_id: rule.id, ip: l.ip ?? null,
        phone: l.phone, name: l.name, user_agent: l.user_agent ?? null, detail: JSON.stringify({ kind: rule.kind, value: rule.value }), at: nowIso,
      });
      outcomes[index] = { status: 'denied', ruleId: rule.id };
    });

    // The contracts are locked and counted before any lead is written; insertAccepted asks the
    // gate per lead once it knows whether the lead is a duplicate (duplicates use no place).
    const caps = await contractCapGate(trx, accepted.map((a) => a.item), now);
    const refused = new Set<PendingLead>();
    // The leads' `created` events and delivery jobs follow just after the commit (followUpLeads).
    const created = await insertAccepted(trx, accepted.map((a) => a.item), now, {
      followUpLater: true,
      contractsLocked: true,
      admit(item, duplicateOf) {
        if (caps.admit(item, duplicateOf)) return true;
        refused.add(item);
        return false;
      },
    });
    const closed = await caps.settle();
    let n = 0;
    for (const { index, item } of accepted) {
      outcomes[index] = refused.has(item) ? { status: 'closed', ...(closed.length ? { closedLandingIds: closed } : {}) } : { status: 'created', ...created[n++]! };
    }
    await intakeRepository(trx).insertBlocked(blocked);
    await gate?.countHits();
    return outcomes;
  });
}
