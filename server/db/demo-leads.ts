// Demo leads for a first start: a few hundred over the last 60 days on the demo landings, worked
// the way a shop works them (assigned to its counselors, called, booked, some contracted, some
// duplicates), with their access records and the landings' visits — so every lead screen shows
// real figures to a newcomer. Written straight to the tables like the rest of the demo data:
// these are histories with past times, not new submissions (those go through the leads module).
import type { Insertable, Kysely } from 'kysely';
import type { Database, LeadsTable } from './schema.ts';
import { addDays, seoulDay, seoulDayStart } from '../../contracts/kst.ts';
import type { CsStatus } from '../../contracts/leads.ts';
import { asksMarketing, leadConsents } from '../../contracts/intake.ts';

/** A small deterministic generator: the same demo every time (the bulk seed's too). */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    weighted: <T>(pairs: ReadonlyArray<readonly [T, number]>): T => {
      let r = next() * pairs.reduce((n, [, w]) => n + w, 0);
      for (const [v, w] of pairs) if ((r -= w) < 0) return v;
      return pairs[pairs.length - 1]![0];
    },
  };
}

export const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍'];
export const GIVEN = ['민준', '서연', '도윤', '지우', '하준', '서윤', '은우', '지아', '시우', '하은', '지호', '수아', '예준', '민서', '유진', '현우', '지민', '영숙', '정희', '미경', '성호', '경민', '혜진', '동현'];
export const MEMOS = [
  '오후에 다시 연락 달라고 함', '가격 문의, 견적 문자 발송', '배우자와 상의 후 연락 주기로', '주말 상담 원함', '다른 곳과 비교 중',
  '통화 중 끊김, 재연락 필요', '첫 방문 예약 희망', '상담 만족, 계약 진행', '문자로 안내 요청', '야간 통화만 가능',
];
const SOURCES = [['meta', 5], ['naver', 3], ['kakao', 2], ['google', 1]] as const;
const OLD_STATUSES: ReadonlyArray<readonly [CsStatus, number]> = [
  ['미처리', 2], ['부재', 14], ['통화완료', 28], ['상담예약', 14], ['계약', 13], ['보류', 8], ['거절', 11], ['결번', 5], ['무효', 3],
];
const TODAY_STATUSES: ReadonlyArray<readonly [CsStatus, number]> = [['미처리', 6], ['부재', 2], ['통화완료', 2]];

/**
 * The demo contracts' daily caps by landing (demo-money.ts writes them): today's demo leads of such a
 * landing stay under its cap, as intake would have closed the landing at it.
 */
export const DEMO_DAILY_CAPS: Readonly<Record<string, number>> = { 'free-checkup': 5 };

interface Plan {
  landingCode: string;
  count: number;
  counselors: string[];
  seed: number;
}
const PLANS: Plan[] = [
  { landingCode: 'implant-event', count: 210, counselors: ['counselor', 'counselor2'], seed: 20261123 },
  { landingCode: 'free-checkup', count: 130, counselors: ['counselor3'], seed: 20261124 },
];

type DemoField = { key: string; type: string; options: string[]; required: boolean; sensitive?: boolean };

export function answersFor(fields: DemoField[], rnd: ReturnType<typeof random>) {
  const out: Record<string, string | string[]> = {};
  for (const f of fields) {
    if (!f.required && rnd.next() < 0.3) continue;
    if (f.type === 'checkbox') out[f.key] = f.options.filter(() => rnd.next() < 0.35).slice(0, 3);
    else if (f.options.length) out[f.key] = rnd.pick(f.options);
  }
  return out;
}

export async function seedDemoLeads(db: Kysely<Database>, now = new Date()): Promise<void> {
  const today = seoulDay(now);
  for (const plan of PLANS) {
    const landing = await db
      .selectFrom('landings')
      .select(['id', 'shop_id', 'media_type_id', 'form_fields', 'marketing_consent_text'])
      .where('landing_code', '=', plan.landingCode)
      .executeTakeFirst();
    if (!landing) continue;
    // One landing takes traffic from several media; the utm_source names the medium (as intake reads it).
    const media = new Map((await db.selectFrom('code_items').select(['id', 'code']).where('kind', '=', 'media-type').execute()).map((m) => [m.code, m.id]));
    const policy = await db.selectFrom('privacy_policies').select('id').where('shop_id', '=', landing.shop_id).orderBy('version', 'desc').executeTakeFirst();
    const counselors = await db.selectFrom('accounts').select(['id', 'name', 'login_id']).where('login_id', 'in', plan.counselors).execute();
    const fields = JSON.parse(landing.form_fields) as DemoField[];
    const asked = { formFields: fields, asksMarketing: asksMarketing(landing.marketing_consent_text) };
    const rnd = random(plan.seed);

    // When each lead arrives: more recently than long ago, more in the evening than at dawn.
    const times: number[] = [];
    for (let i = 0; i < plan.count; i++) {
      const daysAgo = i < 9 ? 0 : Math.min(59, Math.floor(-Math.log(1 - rnd.next() * 0.95) * 18));
      const day = addDays(today, -daysAgo);
      const hour = rnd.weighted([[9, 2], [11, 3], [13, 3], [15, 3], [18, 3], [20, 4], [22, 3], [0, 1]] as const) + rnd.next() * 2;
      let at = seoulDayStart(day).getTime() + hour * 3600_000;
      if (at > now.getTime() - 5 * 60_000) {
        at = now.getTime() - rnd.int(5, 6 * 60) * 60_000;
        // Today's leads stay today, also when the demo is seeded just after Seoul midnight.
        const start = seoulDayStart(day).getTime();
        if (daysAgo === 0 && at < start) at = start + ((now.getTime() - at) % Math.max(1, now.getTime() - 60_000 - start));
      }
      times.push(at);
    }
    // A capped landing takes no more than its cap today (intake closes it there): those past it came yesterday.
    const cap = DEMO_DAILY_CAPS[plan.landingCode];
    if (cap !== undefined) {
      const todayStart = seoulDayStart(today).getTime();
      let kept = 0;
      for (let i = 0; i < times.length; i++) {
        if (times[i]! >= todayStart && ++kept >= cap) times[i] = times[i]! - 86400_000;
      }
    }
    times.sort((a, b) => a - b);

    const phones: Array<{ phone: string; at: number; id: number }> = [];
    const visits = new Map<string, number>();
    let rr = 0;
    await db.transaction().execute(async (trx) => {
      for (const at of times) {
        const createdAt = new Date(at).toISOString();
        const fresh = now.getTime() - at < 12 * 3600_000;
        // About one in sixteen calls again within the month: a duplicate of the first.
        const earlier = phones.filter((p) => at - p.at < 30 * 86400_000);
        const again = earlier.length > 5 && rnd.next() < 0.06 ? rnd.pick(earlier) : null;
        const phone = again?.phone ?? `010${rnd.int(2000, 9999)}${String(rnd.int(0, 9999)).padStart(4, '0')}`;
        let status: CsStatus = again ? '중복' : rnd.weighted(fresh ? TODAY_STATUSES : OLD_STATUSES);
        const assignee = again || (fresh && rnd.next() < 0.5) ? null : counselors[rr++ % counselors.length] ?? null;
        if (!assignee && status !== '중복') status = '미처리';
        const contactAt = status !== '미처리' && status !== '중복' ? Math.min(now.getTime() - 60_000, at + rnd.int(4, fresh ? 90 : 300) * 60_000) : null;
        const reservedAt = status === '상담예약' ? seoulDayStart(addDays(seoulDay(at), rnd.int(1, 6))).getTime() + rnd.int(10, 18) * 3600_000 : null;
        const source = rnd.weighted(SOURCES);
        // Consents as intake records them: the marketing box only where the form shows it, and the
        // sensitive consent that intake requires with a sensitive answer.
        const answers = answersFor(fields, rnd);
        const consents = leadConsents(asked, answers, rnd.next() < 0.4);
        const row: Insertable<LeadsTable> = {
          shop_id: landing.shop_id, landing_id: landing.id, source: 'landing', name: rnd.pick(FAMILY) + rnd.pick(GIVEN), phone, phone_last4: phone.slice(-4),
          answers: JSON.stringify(answers), privacy_consent: 1, marketing_consent: consents.marketing_consent, sensitive_consent: consents.sensitive_consent,
          privacy_policy_id: policy?.id ?? null, utm_source: source, utm_medium: 'cpc', utm_campaign: rnd.pick(['nov_main', 'nov_retarget', 'brand']),
          utm_content: null, utm_term: null, media_type_id: media.get(source) ?? landing.media_type_id, referrer: null, ip: `203.0.113.${rnd.int(1, 254)}`,
          user_agent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', cs_status: status, assignee_id: assignee?.id ?? null,
          assigned_at: assignee ? new Date(at + 60_000).toISOString() : null, reserved_at: reservedAt ? new Date(reservedAt).toISOString() : null,
          memo: contactAt && rnd.next() < 0.45 ? rnd.pick(MEMOS) : null, duplicate_of: again?.id ?? null,
          validity: status === '무효' ? 'invalid' : 'valid', invalid_reason: status === '무효' ? '장난 신청' : null,
          first_contact_at: contactAt ? new Date(contactAt).toISOString() : null,
          created_at: createdAt, updated_at: new Date(contactAt ?? at).toISOString(),
        };
        const { id } = await trx.insertInto('leads').values(row).returning('id').executeTakeFirstOrThrow();
        if (!again) phones.push({ phone, at, id });
        const events: Array<Insertable<Database['lead_events']>> = [
          { lead_id: id, shop_id: landing.shop_id, account_id: null, action: 'created', before: null, after: JSON.stringify({ source: 'landing', landingId: landing.id, ...(again ? { duplicateOf: again.id } : {}) }), ip: row.ip, at: createdAt },
        ];
        if (assignee) {
          events.push({ lead_id: id, shop_id: landing.shop_id, account_id: null, action: 'assign', before: JSON.stringify({ assigneeId: null }), after: JSON.stringify({ assigneeId: assignee.id, assigneeName: assignee.name, mode: 'auto-round-robin' }), ip: null, at: row.assigned_at! });
        }
        if (contactAt) {
          events.push({
            lead_id: id, shop_id: landing.shop_id, account_id: assignee?.id ?? null, action: 'status', before: JSON.stringify({ csStatus: '미처리' }),
            after: JSON.stringify({ csStatus: status, ...(row.reserved_at ? { reservedAt: row.reserved_at } : {}) }), ip: null, at: new Date(contactAt).toISOString(),
          });
        }
        await trx.insertInto('lead_events').values(events).execute();
        const day = seoulDay(at);
        visits.set(`${day}|${source}`, (visits.get(`${day}|${source}`) ?? 0) + rnd.int(6, 14));
      }
      const rows = [...visits].map(([k, count]) => {
        const [day, source] = k.split('|') as [string, string];
        return { landing_id: landing.id, day, source, count };
      });
      for (let i = 0; i < rows.length; i += 200) await trx.insertInto('visits').values(rows.slice(i, i + 200)).execute();
    });
  }
}
