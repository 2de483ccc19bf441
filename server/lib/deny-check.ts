// Deny-rule matching shared by back-office login and lead intake.
import { sql, type Kysely } from 'kysely';
import type { Database, DenyRuleRow } from '../db/schema.ts';
import { ruleMatchesIp, type DenyScope } from '../../contracts/deny-rules.ts';

export interface DenySubject {
  ip?: string;
  phone?: string;
  /** Free text checked against keyword rules (name, answers …). */
  text?: string;
}

/** The live rules of a scope (one query; intake loads them once per batch). */
export function loadDenyRules(db: Kysely<Database>, scope: DenyScope, now: Date): Promise<DenyRuleRow[]> {
  const nowIso = now.toISOString();
  return db
    .selectFrom('deny_rules')
    .selectAll()
    .where('scope', '=', scope)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
    .execute();
}

/** The first rule matching the subject, or undefined. */
export function matchDenyRule(rules: readonly DenyRuleRow[], subject: DenySubject): DenyRuleRow | undefined {
  const text = subject.text?.toLowerCase() ?? '';
  return rules.find((r) => {
    if (r.kind === 'ip' || r.kind === 'cidr') return !!subject.ip && ruleMatchesIp(r, subject.ip);
    if (r.kind === 'phone') return !!subject.phone && r.value === subject.phone;
    return !!text && text.includes(r.value.toLowerCase());
  });
}

/** Counts `n` hits on a rule. */
export async function countDenyHits(db: Kysely<Database>, ruleId: number, n: number, now: Date): Promise<void> {
  await db
    .updateTable('deny_rules')
    .set({ hits: sql<number>`hits + ${n}`, last_hit_at: now.toISOString() })
    .where('id', '=', ruleId)
    .execute();
}

/** The first live rule of `scope` matching the subject, with its hit counted; null when none. */
export async function checkDenyRules(
  db: Kysely<Database>,
  scope: DenyScope,
  subject: DenySubject,
  now: Date,
): Promise<DenyRuleRow | null> {
  const hit = matchDenyRule(await loadDenyRules(db, scope, now), subject);
  if (!hit) return null;
  await countDenyHits(db, hit.id, 1, now);
  return hit;
}
