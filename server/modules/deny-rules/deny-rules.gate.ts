// The gate login and intake both pass: the only part of this module other modules import
// (intake's batch runs on the SQLite writer thread too, where no link reaches). Reads and hit
// counts run on the caller's transaction, so a refusal and its record commit together.
import type { Kysely } from 'kysely';
import type { Database, DenyRuleRow } from '../../db/schema.ts';
import { denyRulesRepository } from './deny-rules.repository.ts';
import { matchDenyRule, type DenyScope, type DenySubject } from '../../../contracts/deny-rules.ts';

/** The first live rule of `scope` matching the subject, with its hit counted. */
export async function checkDenyRules(db: Kysely<Database>, scope: DenyScope, subject: DenySubject, now: Date): Promise<DenyRuleRow | null> {
  const gate = await denyGate(db, scope, now);
  const hit = gate.match(subject) ?? null;
  await gate.countHits();
  return hit;
}

/**
 * The rules of `scope` in force at `now`, loaded once for many subjects (an intake batch):
 * `match` finds a subject's rule and notes the hit; `countHits` writes the hits noted.
 */
export async function denyGate(db: Kysely<Database>, scope: DenyScope, now: Date) {
  const repo = denyRulesRepository(db);
  const rules = await repo.live(scope, now);
  const hits = new Map<number, number>();
  return {
    match(subject: DenySubject): DenyRuleRow | undefined {
      const rule = rules.length ? matchDenyRule(rules, subject) : undefined;
      if (rule) hits.set(rule.id, (hits.get(rule.id) ?? 0) + 1);
      return rule;
    },
    async countHits(): Promise<void> {
      for (const [ruleId, n] of hits) await repo.countHits(ruleId, n, now);
      hits.clear();
    },
  };
}
