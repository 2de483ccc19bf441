// One group-committed batch of submissions, in one transaction: deny rules (hits counted,
// refusals logged), then the accepted leads through the leads module (duplicates, their
// `created` events, the same-transaction steps). Runs on the event loop's connection or on
// the SQLite writer thread (intake-writer.ts) alike.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { intakeRepository } from './intake.repository.ts';
import { denyRulesRepository } from '../deny-rules/deny-rules.repository.ts';
import { insertAccepted } from '../leads/leads.service.ts';
import type { NewLead } from '../leads/leads.repository.ts';
import { matchDenyRule } from '../../../contracts/deny-rules.ts';

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

export type Outcome = { status: 'created'; leadId: number; duplicateOf: number | null } | { status: 'denied'; ruleId: number } | { status: 'blocked' };

export function commitBatch(db: Kysely<Database>, items: Array<PendingLead | PendingBlock>, now: Date): Promise<Outcome[]> {
  return db.transaction().execute(async (trx) => {
    const nowIso = now.toISOString();
    const outcomes: Outcome[] = new Array(items.length);
    const blocked: Array<Insertable<Database['blocked_submissions']>> = [];
    const hits = new Map<number, number>();
    const accepted: Array<{ index: number; item: PendingLead }> = [];
    const denyRules = denyRulesRepository(trx);

    const rules = items.some((i) => i.kind === 'lead') ? await denyRules.live('intake', now) : [];
    items.forEach((item, index) => {
      if (item.kind === 'block') {
        blocked.push({ ...item.row, deny_rule_id: null, at: nowIso });
        outcomes[index] = { status: 'blocked' };
        return;
      }
      const l = item.lead;
      const rule = rules.length ? matchDenyRule(rules, { ip: l.ip ?? undefined, phone: l.phone, text: item.text }) : undefined;
      if (!rule) return accepted.push({ index, item });
      hits.set(rule.id, (hits.get(rule.id) ?? 0) + 1);
      blocked.push({
        shop_id: l.shop_id, landing_id: l.landing_id ?? null, reason: 'deny-rule', deny_rule_id: rule.id, ip: l.ip ?? null,
        phone: l.phone, name: l.name, user_agent: l.user_agent ?? null, detail: JSON.stringify({ kind: rule.kind, value: rule.value }), at: nowIso,
      });
      outcomes[index] = { status: 'denied', ruleId: rule.id };
    });

    const created = await insertAccepted(trx, accepted.map((a) => a.item), now);
    accepted.forEach(({ index }, n) => (outcomes[index] = { status: 'created', ...created[n]! }));
    await intakeRepository(trx).insertBlocked(blocked);
    for (const [ruleId, n] of hits) await denyRules.countHits(ruleId, n, now);
    return outcomes;
  });
}
