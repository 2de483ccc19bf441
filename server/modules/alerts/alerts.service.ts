// An account's own alert settings and push subscriptions: every call is the caller's own account
// (the routes pass the session's), so no account reads or changes another's.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import type { OutboundClient } from '../../lib/outbound.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { ALERT_DEFAULTS, type AlertSettings, type AlertSettingsInput, type PushSubscriptionInput } from '../../../contracts/alerts.ts';
import { alertsRepository } from './alerts.repository.ts';
import { vapidKeys } from './vapid.ts';

export function alertsService(db: Kysely<Database>, clock: Clock, outbound: OutboundClient) {
  const repo = alertsRepository(db);

  async function settings(accountId: number): Promise<AlertSettings> {
    const [p, phone, subscriptions] = await Promise.all([repo.preferences(accountId), repo.accountPhone(accountId), repo.countSubscriptions(accountId)]);
    const chosen = p
      ? { enabled: !!p.enabled, browser: !!p.browser, push: !!p.push, sms: !!p.sms, quietStart: p.quiet_start, quietEnd: p.quiet_end }
      : { ...ALERT_DEFAULTS };
    return { ...chosen, phone: phone ? maskPhone(phone) : null, subscriptions, updatedAt: p?.updated_at ?? null };
  }

  return {
    settings,
    async updateSettings(actor: Actor, input: AlertSettingsInput): Promise<AlertSettings> {
      if (input.sms && !(await repo.accountPhone(actor.id))) {
        throw badRequest('문자 알림을 받으려면 계정에 휴대폰 번호가 있어야 합니다.', { sms: '계정에 휴대폰 번호가 없습니다. 관리자에게 번호 등록을 요청하세요.' });
      }
      const now = clock();
      await inTransaction(db, async (trx) => {
        await alertsRepository(trx).savePreferences({
          account_id: actor.id, enabled: input.enabled ? 1 : 0, browser: input.browser ? 1 : 0, push: input.push ? 1 : 0, sms: input.sms ? 1 : 0,
          quiet_start: input.quietStart, quiet_end: input.quietEnd, updated_at: now.toISOString(),
        });
        await auditBy(trx, actor, { action: 'alert-settings-update', target: 'account', targetId: actor.id, detail: input }, now);
      });
      return settings(actor.id);
    },
    vapidPublicKey: async () => ({ publicKey: (await vapidKeys(db, clock)).publicKey }),
    async subscribe(accountId: number, input: PushSubscriptionInput, userAgent: string | null): Promise<{ id: number }> {
      // The endpoint is the browser's to choose: an internal address is refused here, and again at every send.
      const problem = await outbound.urlProblem(input.endpoint);
      if (problem) throw badRequest(problem, { endpoint: problem });
      const id = await repo.saveSubscription({
        account_id: accountId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth,
        user_agent: userAgent?.slice(0, 300) ?? null, created_at: clock().toISOString(),
      });
      return { id };
    },
    async unsubscribe(accountId: number, endpoint: string): Promise<void> {
      await repo.removeSubscription(accountId, endpoint);
    },
  };
}
