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

/** The first live rule of `scope` matching the subject, with its hit counted; null when none. */
export async function checkDenyRules(
  db: Kysely<Database>,
  scope: DenyScope,
  subject: DenySubject,
  now: Date,
): Promise<DenyRuleRow | null> {
  const nowIso = now.toISOString();
  const rules = await db
    .selectFrom('deny_rules')
    .selectAll()
    .where('scope', '=', scope)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]))
    .execute();
  const text = subject.text?.toLowerCase() ?? '';
  const hit = rules.find((r) => {
    if (r.kind === 'ip' || r.kind === 'cidr') return !!subject.ip && ruleMatchesIp(r, subject.ip);
    if (r.kind === 'phone') return !!subject.phone && r.value === subject.phone;
    return !!text && text.includes(r.value.toLowerCase());
  });
  if (!hit) return null;
  await db
    .updateTable('deny_rules')
    .set({ hits: sql<number>`hits + 1`, last_hit_at: nowIso })
    .where('id', '=', hit.id)
    .execute();
  return hit;
}
