// 통화 시도: a counselor's tap on 전화 걸기. The number to dial for an account that may see it,
// the reveal and the call recorded together with the time; the first call is the lead's first
// contact, which stops its SLA clock (escalation leaves a contacted lead alone). A counselor
// reaches only their own leads (the repository's scope), others answer 404.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { forbidden, foundOr404 } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor } from '../audit/audit.service.ts';
import { leadsRepository } from './leads.repository.ts';
import { scopeOf } from './leads.service.ts';
import { formatPhone } from '../../../contracts/rules.ts';
import { CALL_ATTEMPT_ACTION, type LeadChange } from '../../../contracts/leads.ts';

export function callAttemptService(db: Kysely<Database>, clock: Clock, announce: (change: LeadChange) => void = () => {}) {
  return async function callAttempt(shopId: number, id: number, actor: Actor): Promise<{ phone: string; at: string }> {
    if (!actor.canUnmask) throw forbidden('전화번호 전체를 볼 권한이 없어 이 화면에서 전화를 걸 수 없습니다.');
    const row = await foundOr404(leadsRepository(db).find(shopId, scopeOf(actor), id), 'DB를 찾을 수 없습니다.');
    const at = clock().toISOString();
    const phone = await inTransaction(db, async (trx) => {
      const r = leadsRepository(trx);
      // Conditioned on none yet: two taps racing record one first contact.
      const first = Number((await r.firstContact([id], at))[0]?.numUpdatedRows ?? 0) === 1;
      const event = (action: string, after: unknown) => ({
        lead_id: id, shop_id: shopId, account_id: actor.id, ip: actor.ip, at, action, before: null, after: after === null ? null : JSON.stringify(after),
      });
      await r.insertEvents([event('unmask', null), event(CALL_ATTEMPT_ACTION, { at, firstContact: first })]);
      return (await r.phone(id)).phone;
    });
    announce({ shopId, kind: 'changed', leads: [{ id, assigneeId: row.assignee_id }] });
    return { phone: formatPhone(phone), at };
  };
}
