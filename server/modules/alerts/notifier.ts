// The notifier: "lead X was assigned / re-routed / is near its deadline for counselor Y" (or "the
// shop's managers must know") becomes a Web Push to each of Y's subscribed browsers and, when Y
// chose it and the shop has an SMS channel, a text to Y's own number — respecting Y's channels and
// quiet hours (Seoul time). Nothing it sends carries unmasked personal data: the lead's phone
// masked, the landing's name, a link into the back office.
//
// Sends run outside every transaction, on a lane of bounded concurrency: intake and the SLA job
// hand it their alerts after their commit and never wait for it, and a failure is recorded, never
// thrown back at them. Each (alert, account, channel) is claimed by its unique key in alert_sends
// before it is sent, so with several workers hearing the same lead change it is sent once.
// Pushes go through the outbound client like every request made on a user's behalf: a
// subscription's endpoint is the browser's to choose, so the same guard against internal addresses.
import crypto from 'node:crypto';
import webpush from 'web-push';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { OutboundError, type OutboundClient } from '../../lib/outbound.ts';
import { workQueue } from '../../lib/work-queue.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { ALERT_DEFAULTS, inQuietHours, type AlertOutcome, type AlertPayload, type AlertReason } from '../../../contracts/alerts.ts';
import { alertsRepository } from './alerts.repository.ts';
import { vapidKeys } from './vapid.ts';
import type { SlaStep } from '../leads/leads.entry.ts';
import type { LeadChange } from '../../../contracts/leads.ts';

const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps an alert for a device that is off: after an hour it is news no more. */
const PUSH_TTL_S = 3600;

/** A text to the account's own number through the shop's SMS channel (the delivery module's, through a link). */
export type StaffText = (channelId: number, o: { to: string; text: string; test: boolean; now: Date }) => Promise<{ ok: boolean; error: string | null }>;

export interface AlertDeps {
  outbound: OutboundClient;
  /** VAPID's subject (vapid.ts vapidSubject). */
  subject: string;
  text?: StaffText;
  /** Failures of the lane itself (a database error): logged, never thrown at whoever queued the alert. */
  onError?: (err: unknown) => void;
  /** Sends at once at most (accounts being alerted in parallel). */
  concurrency?: number;
}

/** One alert: a lead's event for some accounts. */
export interface Alert {
  reason: Exclude<AlertReason, 'test'>;
  leadId: number;
  /** The accounts, or the lead's shop's managers (read when the alert is sent). */
  to: number[] | 'managers';
}

const TITLES: Record<AlertReason, string> = {
  assigned: '새 DB가 배분되었습니다',
  'sla-reroute': '응답 기한이 지난 DB가 재배분되었습니다',
  'sla-remind': '첫 연락 기한이 다가옵니다',
  'sla-notify': '첫 연락 기한을 넘긴 DB가 있습니다',
  'sla-manager': '재배분하지 못한 DB가 미배분으로 돌아왔습니다',
  test: '테스트 알림',
};

type LeadInfo = NonNullable<Awaited<ReturnType<ReturnType<typeof alertsRepository>['lead']>>>;

/** What a push and a text say of a lead. */
export function alertPayload(reason: AlertReason, lead: LeadInfo | null): AlertPayload {
  if (!lead) return { title: TITLES.test, body: '이 기기에서 Leadroom 알림을 받을 수 있습니다.', url: '/database-status', tag: 'leadroom-test', leadId: null, reason };
  const where = lead.landing_title ?? lead.shop_name;
  return {
    title: TITLES[reason],
    body: `${where} · ${maskPhone(lead.phone)}`,
    url: `/database-status?lead=${lead.id}`,
    tag: `lead-${lead.id}`,
    leadId: lead.id,
    reason,
  };
}

export function alertNotifier(db: Kysely<Database>, clock: Clock, deps: AlertDeps) {
  const repo = alertsRepository(db);
  const lane = workQueue({ concurrency: deps.concurrency ?? 8, capacity: Number.MAX_SAFE_INTEGER });

  async function preferencesOf(accountId: number) {
    const p = await repo.preferences(accountId);
    return p
      ? { enabled: !!p.enabled, push: !!p.push, sms: !!p.sms, quietStart: p.quiet_start, quietEnd: p.quiet_end }
      : { ...ALERT_DEFAULTS };
  }

  /** One push to each of the account's subscriptions; a 404/410 from the push service removes the subscription. */
  async function pushAll(accountId: number, payload: AlertPayload): Promise<Omit<AlertOutcome, 'channel'>> {
    const subs = await repo.subscriptions(accountId);
    if (!subs.length) return { status: 'off', delivered: 0, attempted: 0, error: '푸시 알림을 받을 기기가 없습니다.' };
    const keys = await vapidKeys(db, clock);
    const body = JSON.stringify(payload);
    let delivered = 0;
    const errors: string[] = [];
    await Promise.all(subs.map(async (s) => {
      const at = clock().toISOString();
      try {
        const details = webpush.generateRequestDetails({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, body, {
          vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey }, TTL: PUSH_TTL_S, urgency: 'high',
        });
        const headers = Object.fromEntries(
          Object.entries(details.headers).filter(([k]) => k.toLowerCase() !== 'content-length').map(([k, v]) => [k.toLowerCase(), String(v)]),
        );
        const answer = await deps.outbound.post(new URL(s.endpoint), { headers, body: details.body as Buffer, timeoutMs: PUSH_TIMEOUT_MS });
        if (answer.status >= 200 && answer.status < 300) {
          delivered++;
          await repo.markPush(s.id, true, at);
        } else if (answer.status === 404 || answer.status === 410) {
          // The browser unsubscribed or the subscription expired: it will never take a push again.
          await repo.removeSubscriptionById(s.id);
          errors.push(`푸시 서비스가 구독이 끝났다고 응답했습니다 (${answer.status}). 이 기기의 구독을 지웠습니다.`);
        } else {
          await repo.markPush(s.id, false, at);
          errors.push(`푸시 서비스가 ${answer.status} 오류를 응답했습니다.`);
        }
      } catch (err) {
        await repo.markPush(s.id, false, at);
        errors.push(err instanceof OutboundError ? err.message : '푸시를 보내지 못했습니다.');
      }
    }));
    return { status: delivered > 0 ? 'sent' : 'failed', delivered, attempted: subs.length, error: errors.length ? [...new Set(errors)].join(' ') : null };
  }

  async function textOne(accountId: number, shopId: number | null, payload: AlertPayload, test: boolean): Promise<Omit<AlertOutcome, 'channel'>> {
    const phone = await repo.accountPhone(accountId);
    if (!phone) return { status: 'off', delivered: 0, attempted: 0, error: '계정에 휴대폰 번호가 없습니다.' };
    const channel = shopId === null ? await repo.smsChannelOfAccount(accountId) : await repo.smsChannel(shopId);
    if (!channel || !deps.text) return { status: 'off', delivered: 0, attempted: 0, error: '업체에 문자 전송 채널이 없습니다.' };
    const r = await deps.text(channel.id, { to: phone, text: `[Leadroom] ${payload.title}\n${payload.body}`, test, now: clock() });
    return { status: r.ok ? 'sent' : 'failed', delivered: r.ok ? 1 : 0, attempted: 1, error: r.error };
  }

  /**
   * One account's alert on each channel it chose: claimed, then sent or skipped (quiet hours), and
   * recorded. Answers the outcomes (empty: alerts off, or every channel claimed already).
   */
  async function alertAccount(accountId: number, reason: AlertReason, lead: LeadInfo | null, key: string, o: { quietToo?: boolean } = {}): Promise<AlertOutcome[]> {
    const prefs = await preferencesOf(accountId);
    if (!prefs.enabled && reason !== 'test') return [];
    // A disabled account's browsers and phone hear nothing more of the shop's leads.
    if (!(await repo.active(accountId))) return [];
    const payload = alertPayload(reason, lead);
    const now = clock();
    const quiet = !o.quietToo && inQuietHours(prefs, now);
    const channels = (['push', 'sms'] as const).filter((c) => prefs[c]);
    const out: AlertOutcome[] = [];
    for (const channel of channels) {
      const id = await repo.claim({
        key: `${key}:${channel}`, account_id: accountId, shop_id: lead?.shop_id ?? null, lead_id: lead?.id ?? null, reason, channel,
        status: quiet ? 'quiet' : 'sending', at: now.toISOString(),
      });
      if (id === null) continue;
      if (quiet) {
        out.push({ channel, status: 'quiet', delivered: 0, attempted: 0, error: null });
        continue;
      }
      let r: Omit<AlertOutcome, 'channel'>;
      try {
        r = channel === 'push' ? await pushAll(accountId, payload) : await textOne(accountId, lead?.shop_id ?? null, payload, reason === 'test');
      } catch (err) {
        deps.onError?.(err);
        r = { status: 'failed', delivered: 0, attempted: 0, error: '알림을 보내지 못했습니다.' };
      }
      await repo.finish(id, { status: r.status, delivered: r.delivered, attempted: r.attempted, error: r.error });
      out.push({ channel, ...r });
    }
    return out;
  }

  /** Sends an alert now (the lane calls it); answers each account's outcomes. */
  async function send(alert: Alert): Promise<Map<number, AlertOutcome[]>> {
    const out = new Map<number, AlertOutcome[]>();
    const lead = await repo.lead(alert.leadId);
    if (!lead) return out;
    const to = alert.to === 'managers' ? (await repo.managers(lead.shop_id)).map((m) => m.id) : alert.to;
    for (const accountId of new Set(to)) {
      out.set(accountId, await alertAccount(accountId, alert.reason, lead, `${alert.reason}:${lead.id}:${accountId}`));
    }
    return out;
  }

  /** Queues an alert on the lane and returns at once; failures go to onError, never to the caller. */
  function enqueue(alert: Alert): void {
    if (!alert.to.length) return;
    void lane.run(() => send(alert)).catch((err: unknown) => deps.onError?.(err));
  }

  return {
    send,
    enqueue,
    /** Settles when nothing is queued or sending (tests; a clean stop). */
    idle: () => lane.idle(),
    /** "테스트 알림 보내기": the account's own channels now, quiet hours or not, with a sample text. */
    test: (accountId: number) => alertAccount(accountId, 'test', null, `test:${accountId}:${crypto.randomUUID()}`, { quietToo: true }),
    /** A lead handed to someone — by intake's automatic rule, or by hand (DB 배분, DB 배분 수정) — alerts its new holder. */
    leadsChanged(change: LeadChange): void {
      // Escalation's moves are alerted by slaSteps, in the SLA's words.
      if (change.cause === 'sla') return;
      for (const l of change.leads) {
        // New and assigned (intake's rule), or handed to someone by hand (DB 배분, DB 배분 수정).
        const handed = change.kind === 'created' || (l.previousAssigneeId !== undefined && l.previousAssigneeId !== l.assigneeId);
        if (handed && l.assigneeId !== null) enqueue({ reason: 'assigned', leadId: l.id, to: [l.assigneeId] });
      }
    },
    /** The SLA job's steps: a reminder to the holder, a re-route to the new holder, a missed deadline to the shop's managers. */
    slaSteps(steps: readonly SlaStep[]): void {
      for (const s of steps) {
        if (s.action === 'sla-remind' || s.action === 'sla-reroute') {
          if (s.to !== null) enqueue({ reason: s.action, leadId: s.leadId, to: [s.to] });
        } else enqueue({ reason: s.action, leadId: s.leadId, to: 'managers' });
      }
    },
  };
}

export type AlertNotifier = ReturnType<typeof alertNotifier>;
