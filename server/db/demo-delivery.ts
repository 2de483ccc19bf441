// Demo delivery for a first start, so DB 전송 설정, DB 전송, DB 전송 이력 and 시스템 예약 show
// real figures to a newcomer — without the demo sending anything anywhere by itself:
// - 서울미소치과: a webhook to its CRM with two weeks of history (every demo lead of the last 14
//   days delivered — a handful after one failed try, two failed all eight — and each delivery in
//   the lead's access record), paused by staff since; a morning e-mail digest, on, whose jobs
//   the outbox writes as new leads arrive (without SMTP_URL its digest fails with the clear
//   '설정되지 않음' error); a pull API key without full phones, used yesterday.
// - 한빛손해보험: an SMS gateway channel set up and left off.
// - 시스템 예약: a maintenance window on a Sunday night ahead, an announcement up now for
//   everyone, and a landing closed and published again at a time, both run.
// Written straight to the tables like the rest of the demo data (histories with past times);
// the secrets are made in the formats the services make them (they cannot be imported here),
// and the channels' settings pass the settings screen's own schema.
import crypto from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { addDays, seoulDay, seoulDayStart } from '../../contracts/kst.ts';
import { quoted, withJosa } from '../../contracts/korean.ts';
import { backoffMs } from '../../contracts/delivery.ts';
import { deliveryChannelInput, type DeliveryChannelForm } from '../../contracts/delivery-channels.ts';
import { API_KEY_PREFIX, API_KEY_RANDOM_LENGTH, API_KEY_SHOWN_LENGTH } from '../../contracts/api-keys.ts';
import { random } from './demo-leads.ts';

const DAY_MS = 86_400_000;
/** Days of webhook history: the channel was set up this long ago. */
export const DEMO_DELIVERY_DAYS = 14;
/** Leads delivered after one failed try, and leads whose eight tries all failed. */
export const DEMO_FLAKY = 5;
export const DEMO_FAILED = 2;
/** The worker the history names (host:pid:random, as a worker names itself). */
const WORKER = 'leadroom-1:2184:3fa9c1';

const HTTP_503 = `수신 서버가 ${withJosa('HTTP 503', '으로/로')} 답했습니다.`;
const REFUSED = '수신 서버에 연결하지 못했습니다 (ECONNREFUSED).';
const TIMEOUT = '5,000ms 안에 응답이 없었습니다.';
const NGINX_503 =
  '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>';

/** A channel row from the settings form's values, as the channels service stores it. */
function channelRow(form: DeliveryChannelForm) {
  const input = deliveryChannelInput.parse(form);
  return {
    name: input.name, kind: input.kind, enabled: input.enabled ? 1 : 0, mode: input.mode, digest_at: input.digestAt, statuses: JSON.stringify(input.statuses),
    landing_ids: JSON.stringify(input.landingIds), fields: JSON.stringify(input.fields), include_duplicates: input.includeDuplicates ? 1 : 0,
    config: JSON.stringify(input.config),
  };
}

/** A webhook signing secret in the channels service's format (whsec_ and 192 random bits). */
const webhookSecret = () => `whsec_${crypto.randomBytes(24).toString('base64url')}`;

/** An API key in the api-keys service's format: the prefix and uniform base62 characters. */
function apiKey(): string {
  const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = API_KEY_PREFIX;
  while (out.length < API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH) {
    for (const b of crypto.randomBytes(48)) if (b < 248 && out.length < API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH) out += BASE62[b % 62];
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

interface Outcome {
  ok: boolean;
  code: number | null;
  error: string | null;
  excerpt: string | null;
  durationMs: number;
}

export async function seedDemoDelivery(db: Kysely<Database>, now = new Date()): Promise<void> {
  const nowMs = now.getTime();
  const today = seoulDay(now);
  const rnd = random(20261127);
  const shops = new Map((await db.selectFrom('shops').select(['id', 'shop_code', 'name']).execute()).map((s) => [s.shop_code, s]));
  const accountId = async (loginId: string) => (await db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirst())?.id ?? null;
  const owner = await accountId('owner');
  const manager = await accountId('manager');

  const smile = shops.get('smile-dental');
  if (smile) {
    // The CRM webhook: set up DEMO_DELIVERY_DAYS ago, every lead since delivered, paused by staff now.
    const since = nowMs - DEMO_DELIVERY_DAYS * DAY_MS;
    const { id: webhookId } = await db
      .insertInto('delivery_channels')
      .values({
        shop_id: smile.id,
        ...channelRow({ name: '병원 CRM 연동', kind: 'webhook', enabled: false, mode: 'instant', url: 'https://crm.smile-dental.example/hooks/leadroom' }),
        secret: webhookSecret(), previous_secret: null, previous_secret_until: null, disabled_reason: null, disabled_at: null,
        created_by: owner, created_at: iso(since), updated_at: iso(nowMs - 60_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await seedWebhookHistory(db, { shopId: smile.id, channelId: webhookId, channelName: '병원 CRM 연동', since, nowMs, rnd });

    // The director's morning digest: on, set up after the demo leads (the outbox writes its jobs as new ones arrive).
    const mailAt = iso(nowMs - 3 * 60_000);
    await db
      .insertInto('delivery_channels')
      .values({
        shop_id: smile.id,
        ...channelRow({ name: '원장님 메일 알림', kind: 'email', enabled: true, mode: 'digest', digestAt: '09:00', recipients: ['director@smile-dental.example'] }),
        secret: null, previous_secret: null, previous_secret_until: null, disabled_reason: null, disabled_at: null,
        created_by: owner, created_at: mailAt, updated_at: mailAt,
      })
      .execute();

    // The CRM's pull key: no full phones, last used yesterday evening.
    const key = apiKey();
    await db
      .insertInto('api_keys')
      .values({
        shop_id: smile.id, name: 'CRM 동기화', prefix: key.slice(0, API_KEY_SHOWN_LENGTH), key_hash: crypto.createHash('sha256').update(key).digest('hex'),
        full_phone: 0, created_by: owner, created_at: iso(since - 6 * DAY_MS),
        last_used_at: iso(seoulDayStart(addDays(today, -1)).getTime() + (23 * 60 + 10) * 60_000), last_used_ip: '203.0.113.45', revoked_at: null,
      })
      .execute();
  }

  const hanbit = shops.get('hanbit-insurance');
  if (hanbit) {
    // Set up and left off (the branch's sender number is still being registered): no jobs.
    const at = iso(nowMs - 3 * DAY_MS);
    await db
      .insertInto('delivery_channels')
      .values({
        shop_id: hanbit.id,
        ...channelRow({
          name: '지점 문자 알림', kind: 'sms', enabled: false, mode: 'instant', preset: 'generic', gatewayUrl: 'https://sms.example.com/v1/send', sender: '15881234',
          receivers: ['01090001234'], template: '[한빛] 새 상담 신청 #{이름} #{연락처} (#{랜딩})', apiKey: 'demo',
        }),
        secret: `sk_demo_${crypto.randomBytes(16).toString('hex')}`, previous_secret: null, previous_secret_until: null, disabled_reason: null, disabled_at: null,
        created_by: manager, created_at: at, updated_at: at,
      })
      .execute();
  }

  await seedReservations(db, { now, today, manager, hanbitId: hanbit?.id ?? null });
}

/**
 * Two weeks of the CRM webhook: a job per lead as the outbox wrote it (not duplicates, not
 * deleted), sent within a second; DEMO_FLAKY answered 503 or timed out once and went through
 * on the retry after the backoff; DEMO_FAILED met a CRM that was down for all eight tries. Each
 * delivery is a 'deliver' event in the lead's access record, as the worker writes it.
 */
async function seedWebhookHistory(
  db: Kysely<Database>,
  o: { shopId: number; channelId: number; channelName: string; since: number; nowMs: number; rnd: ReturnType<typeof random> },
): Promise<void> {
  const { rnd } = o;
  const leads = await db
    .selectFrom('leads')
    .select(['id', 'created_at'])
    .where('shop_id', '=', o.shopId)
    .where('created_at', '>=', iso(o.since))
    .where('duplicate_of', 'is', null)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (!leads.length) return;

  // The failed ones came in during one CRM outage 2–10 days ago; the flaky ones anywhere older than an hour.
  const old = (l: { created_at: string }, from: number, to: number) => {
    const age = o.nowMs - Date.parse(l.created_at);
    return age >= from && age <= to;
  };
  const pick = (pool: number[], n: number) => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, pool.length)) chosen.add(pool[Math.floor(rnd.next() * pool.length)]!);
    return chosen;
  };
  // The outage: the DEMO_FAILED leads in a row 2–10 days old that came closest together.
  const failedPool = leads.map((l, i) => (old(l, 2 * DAY_MS, 10 * DAY_MS) ? i : -1)).filter((i) => i >= 0);
  let first = failedPool[0] ?? -1;
  for (let k = 0; k + DEMO_FAILED - 1 < failedPool.length; k++) {
    const span = (i: number) => Date.parse(leads[i + DEMO_FAILED - 1]!.created_at) - Date.parse(leads[i]!.created_at);
    if (span(failedPool[k]!) < span(first)) first = failedPool[k]!;
  }
  const failed = new Set(first < 0 ? [] : failedPool.filter((i) => i >= first).slice(0, DEMO_FAILED));
  const flaky = pick(leads.map((l, i) => (!failed.has(i) && old(l, 3600_000, Infinity) ? i : -1)).filter((i) => i >= 0), DEMO_FLAKY);

  const ok = (): Outcome => ({ ok: true, code: 200, error: null, excerpt: `{"ok":true,"id":"crm-${rnd.int(100000, 999999)}"}`, durationMs: rnd.int(80, 400) });
  const unavailable = (): Outcome => ({ ok: false, code: 503, error: HTTP_503, excerpt: NGINX_503, durationMs: rnd.int(20, 120) });
  const refused = (): Outcome => ({ ok: false, code: null, error: REFUSED, excerpt: null, durationMs: rnd.int(1, 5) });
  const timedOut = (): Outcome => ({ ok: false, code: null, error: TIMEOUT, excerpt: null, durationMs: 5000 + rnd.int(1, 30) });

  type Job = Insertable<Database['delivery_jobs']>;
  type Attempt = Omit<Insertable<Database['delivery_attempts']>, 'job_id'>;
  const jobs: Array<{ job: Job; attempts: Attempt[] }> = [];
  leads.forEach((lead, i) => {
    const plan: Outcome[] = failed.has(i)
      ? Array.from({ length: 8 }, (_, k) => (k % 3 === 2 ? refused() : unavailable()))
      : flaky.has(i)
        ? [rnd.next() < 0.5 ? unavailable() : timedOut(), ok()]
        : [ok()];
    // Claimed within a second of the intake's commit, then each retry at its backoff after the last.
    let claimAt = Date.parse(lead.created_at) + rnd.int(40, 900);
    let dueAt = Date.parse(lead.created_at);
    const attempts: Attempt[] = [];
    plan.forEach((a, k) => {
      if (k > 0) {
        dueAt = Date.parse(attempts[k - 1]!.at) + backoffMs(k, rnd.next);
        claimAt = dueAt + rnd.int(20, 950);
      }
      attempts.push({
        shop_id: o.shopId, channel_id: o.channelId, lead_id: lead.id, attempt: k + 1, status: a.ok ? 'succeeded' : 'failed', response_code: a.code, error: a.error,
        response_excerpt: a.excerpt, duration_ms: a.durationMs, worker: WORKER, at: iso(claimAt + a.durationMs),
      });
    });
    const last = plan[plan.length - 1]!;
    const lastAt = attempts[attempts.length - 1]!.at;
    jobs.push({
      job: {
        shop_id: o.shopId, channel_id: o.channelId, lead_id: lead.id, status: last.ok ? 'succeeded' : 'failed', trigger: 'intake', reason: null, attempts: plan.length,
        next_attempt_at: iso(dueAt), lease_until: null, claimed_by: WORKER, idempotency_key: crypto.randomUUID(), last_error: last.error, response_code: last.code,
        delivered_at: last.ok ? lastAt : null, created_by: null, created_at: lead.created_at, updated_at: lastAt,
      },
      attempts,
    });
  });

  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < jobs.length; i += 200) {
      const part = jobs.slice(i, i + 200);
      const ids = new Map(
        (await trx.insertInto('delivery_jobs').values(part.map((p) => p.job)).returning(['id', 'idempotency_key']).execute()).map((r) => [r.idempotency_key, r.id]),
      );
      const attempts: Array<Insertable<Database['delivery_attempts']>> = [];
      const events: Array<Insertable<Database['lead_events']>> = [];
      for (const p of part) {
        const jobId = ids.get(p.job.idempotency_key)!;
        for (const a of p.attempts) attempts.push({ ...a, job_id: jobId });
        if (p.job.status === 'succeeded') {
          events.push({
            lead_id: p.job.lead_id, shop_id: o.shopId, account_id: null, action: 'deliver', before: null, ip: null, at: p.job.delivered_at!,
            after: JSON.stringify({ channelId: o.channelId, channelName: o.channelName, kind: 'webhook', jobId, trigger: 'intake' }),
          });
        }
      }
      for (let k = 0; k < attempts.length; k += 200) await trx.insertInto('delivery_attempts').values(attempts.slice(k, k + 200)).execute();
      if (events.length) await trx.insertInto('lead_events').values(events).execute();
    }
  });
}

/** The Seoul day of the demo's maintenance window: the first Sunday at least two days after `today`. */
export function demoMaintenanceDay(today: string): string {
  const weekday = new Date(`${today}T00:00:00Z`).getUTCDay();
  const ahead = 7 - weekday;
  return addDays(today, ahead < 2 ? ahead + 7 : ahead);
}

/**
 * 시스템 예약: a maintenance window at 02:00–04:00 Seoul on the first Sunday at least two days
 * ahead (never under way, nor within the banner's day, while a freshly started demo — or a test
 * run against one — is in use); an announcement for everyone, up since two days ago and for a
 * week more (the worker put it up); and a landing of 한빛 closed and published again in a quiet
 * stretch of its leads weeks ago, both run — so the list shows a history beside what is to come.
 */
async function seedReservations(db: Kysely<Database>, o: { now: Date; today: string; manager: number | null; hanbitId: number | null }): Promise<void> {
  const { today, manager } = o;
  const nowMs = o.now.getTime();
  const seoulAt = (day: string, hour: number, minute = 0) => iso(seoulDayStart(day).getTime() + (hour * 60 + minute) * 60_000);
  type Row = Insertable<Database['system_reservations']>;
  const rows: Row[] = [];

  const sunday = demoMaintenanceDay(today);
  rows.push({
    kind: 'maintenance', title: '정기 점검', starts_at: seoulAt(sunday, 2), ends_at: seoulAt(sunday, 4),
    payload: JSON.stringify({ message: '데이터베이스 정기 점검으로 02:00~04:00에 관리 화면을 쓸 수 없습니다. 랜딩 페이지의 DB 접수와 전송은 그대로 동작합니다.' }),
    status: 'scheduled', executed_at: null, finished_at: null, result: null, created_by: manager, created_at: iso(nowMs - DAY_MS), updated_at: iso(nowMs - DAY_MS),
    cancelled_at: null,
  });

  // This month's statements go out early next month.
  const month = Number(today.slice(5, 7));
  const next = (month % 12) + 1;
  const upAt = seoulAt(addDays(today, -2), 9);
  rows.push({
    kind: 'announcement', title: `${next}월 정산서 발행 일정 안내`, starts_at: upAt, ends_at: seoulAt(addDays(today, 7), 18),
    payload: JSON.stringify({
      message: `${month}월분 정산서와 세금계산서는 ${next}월 5일에 발행합니다. 무효 교체 요청은 ${next}월 3일까지 마무리해 주세요.\n정산 내역은 계약 현황 › 정산에서 미리 확인할 수 있습니다.`,
      accountTypeIds: [],
      // About 계약 현황: those who cannot open it (counselors) do not see it.
      screen: 'contract-status',
    }),
    status: 'running', executed_at: iso(Date.parse(upAt) + 7_000), finished_at: null, result: null, created_by: manager,
    created_at: seoulAt(addDays(today, -3), 16, 20), updated_at: iso(Date.parse(upAt) + 7_000), cancelled_at: null,
  });

  const landing = o.hanbitId
    ? await db
        .selectFrom('landings as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .select(['l.id', 'l.title', 's.name as shop_name'])
        .where('l.shop_id', '=', o.hanbitId)
        .where('l.landing_code', '=', 'free-checkup')
        .executeTakeFirst()
    : undefined;
  const gap = landing && (await quietStretch(db, landing.id, nowMs - 59 * DAY_MS, nowMs - 14 * DAY_MS));
  if (landing && gap) {
    const ran = (kind: 'landing-close' | 'landing-open', title: string, at: number): Row => {
      const done = iso(at + 9_000);
      return {
        kind, title, starts_at: iso(at), ends_at: null, payload: JSON.stringify({ landingId: landing.id }), status: 'done', executed_at: iso(at + 8_000), finished_at: done,
        result: `${landing.shop_name} ${quoted(landing.title, '을/를')} ${kind === 'landing-open' ? '게시' : '종료'}했습니다.`, created_by: manager,
        created_at: iso(gap.from - 2 * DAY_MS), updated_at: done, cancelled_at: null,
      };
    };
    rows.push(ran('landing-close', '보험료 점검 캠페인 소재 교체로 일시 종료', gap.from), ran('landing-open', '보험료 점검 캠페인 새 소재로 다시 게시', gap.to));
  }
  await db.insertInto('system_reservations').values(rows).execute();
}

/**
 * The longest stretch between two leads of a landing in [from, to), trimmed to whole hours an
 * hour from each and to a day and a half at most (a pause for new ad creatives); null when no
 * stretch holds three hours.
 */
async function quietStretch(db: Kysely<Database>, landingId: number, from: number, to: number): Promise<{ from: number; to: number } | null> {
  const times = (await db.selectFrom('leads').select('created_at').where('landing_id', '=', landingId).where('created_at', '>=', iso(from)).where('created_at', '<', iso(to)).orderBy('created_at').execute())
    .map((l) => Date.parse(l.created_at));
  const bounds = [from, ...times, to];
  let best: { from: number; to: number } | null = null;
  for (let i = 1; i < bounds.length; i++) {
    const start = Math.ceil((bounds[i - 1]! + 3600_000) / 3600_000) * 3600_000;
    const end = Math.floor((bounds[i]! - 3600_000) / 3600_000) * 3600_000;
    if (end - start >= 3 * 3600_000 && (!best || end - start > best.to - best.from)) best = { from: start, to: end };
  }
  return best && { from: best.from, to: Math.min(best.to, best.from + 36 * 3600_000) };
}
