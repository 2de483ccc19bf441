// Demo money for a first start: a contract per demo shop (one still running with returns, one
// with a daily cap some days went past), 60 days of ad spend per medium that matches the demo
// leads' traffic, and target CPA per medium for the last three months — so 계약 현황, 광고 현황
// and CPA 관리 show real figures to a newcomer. Written straight to the tables like the rest
// of the demo data (histories with past times).
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { seoulDay as seoulDaySql } from './dialect-sql.ts';
import { addDays, periodInstants, seoulDay } from '../../contracts/kst.ts';
import { DEMO_DAILY_CAPS, random } from './demo-leads.ts';

interface ContractPlan {
  shopCode: string;
  landingCode: string;
  name: string;
  startDaysAgo: number;
  days: number;
  quantity: number;
  unitPrice: number;
  dailyCap: number | null;
  returns: Array<{ reason: string; status: 'requested' | 'approved' | 'rejected'; note?: string; decision?: string }>;
}

const CONTRACTS: ContractPlan[] = [
  {
    shopCode: 'smile-dental', landingCode: 'implant-event', name: '임플란트 상담 DB 250건', startDaysAgo: 59, days: 90, quantity: 250, unitPrice: 35_000, dailyCap: null,
    returns: [
      { reason: '결번', status: 'approved', note: '없는 번호로 안내됨', decision: '결번 확인, 교체 진행' },
      { reason: '허위', status: 'approved', note: '본인이 신청한 적 없다고 함', decision: '확인되어 승인' },
      { reason: '연락두절', status: 'rejected', note: '3일간 부재', decision: '연락두절은 7일 경과 후 반품 가능합니다.' },
      { reason: '타지역', status: 'requested', note: '부산 거주, 내원 불가' },
    ],
  },
  {
    shopCode: 'hanbit-insurance', landingCode: 'free-checkup', name: '보험료 점검 DB 150건', startDaysAgo: 45, days: 61, quantity: 150, unitPrice: 42_000, dailyCap: DEMO_DAILY_CAPS['free-checkup']!,
    returns: [{ reason: '중복', status: 'approved', note: '기존 고객', decision: '기존 계약자 확인' }],
  },
];

/** Target CPA (KRW) per medium code. */
const TARGETS: Record<string, number> = { meta: 28_000, naver: 32_000, kakao: 30_000, google: 38_000 };

export async function seedDemoMoney(db: Kysely<Database>, now = new Date()): Promise<void> {
  const nowIso = now.toISOString();
  const today = seoulDay(now);
  const manager = (await db.selectFrom('accounts').select('id').where('login_id', '=', 'manager').executeTakeFirst())?.id ?? null;
  const owner = (await db.selectFrom('accounts').select('id').where('login_id', '=', 'owner').executeTakeFirst())?.id ?? null;
  const media = await db.selectFrom('code_items').select(['id', 'code']).where('kind', '=', 'media-type').execute();
  const rnd = random(20261126);

  for (const plan of CONTRACTS) {
    const landing = await db
      .selectFrom('landings as l')
      .innerJoin('shops as s', 's.id', 'l.shop_id')
      .select(['l.id', 'l.shop_id'])
      .where('s.shop_code', '=', plan.shopCode)
      .where('l.landing_code', '=', plan.landingCode)
      .executeTakeFirst();
    if (!landing) continue;
    const startsOn = addDays(today, -plan.startDaysAgo);
    const createdAt = periodInstants(addDays(startsOn, -3), addDays(startsOn, -3)).fromIso;
    const contract = await db
      .insertInto('shop_contracts')
      .values({
        shop_id: landing.shop_id, name: plan.name, starts_on: startsOn, ends_on: addDays(startsOn, plan.days - 1), quantity: plan.quantity,
        unit_price: plan.unitPrice, daily_cap: plan.dailyCap, return_window_days: 7, max_return_rate: 10, auto_close: 0, stopped_at: null,
        memo: '월말 정산, 세금계산서 익월 5일 발행', created_by: manager, created_at: createdAt, updated_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('shop_contract_landings').values({ contract_id: contract.id, landing_id: landing.id }).execute();

    // Returns of leads from the last week (inside the window), the oldest first.
    const { fromIso } = periodInstants(addDays(today, -6), today);
    const candidates = await db
      .selectFrom('leads')
      .select(['id', 'created_at', 'assignee_id'])
      .where('landing_id', '=', landing.id)
      .where('created_at', '>=', fromIso)
      .where('created_at', '<', new Date(now.getTime() - 86_400_000).toISOString())
      .where('duplicate_of', 'is', null)
      .where('validity', '=', 'valid')
      .where('deleted_at', 'is', null)
      .orderBy('created_at')
      .limit(plan.returns.length)
      .execute();
    for (const [i, r] of plan.returns.entries()) {
      const lead = candidates[i];
      if (!lead) break;
      const requestedAt = new Date(Date.parse(lead.created_at) + 20 * 3600_000).toISOString();
      const decidedAt = r.status === 'requested' ? null : new Date(Date.parse(requestedAt) + 3 * 3600_000).toISOString();
      await db
        .insertInto('lead_returns')
        .values({
          contract_id: contract.id, shop_id: landing.shop_id, lead_id: lead.id, reason: r.reason, note: r.note ?? null, status: r.status,
          requested_by: owner, requested_at: requestedAt, decided_by: decidedAt ? manager : null, decided_at: decidedAt, decision_note: r.decision ?? null,
        })
        .execute();
      const events: Array<Insertable<Database['lead_events']>> = [
        { lead_id: lead.id, shop_id: landing.shop_id, account_id: owner, action: 'return-request', before: null, after: JSON.stringify({ reason: r.reason, note: r.note ?? null, contractId: contract.id }), ip: null, at: requestedAt },
      ];
      if (decidedAt) {
        events.push({
          lead_id: lead.id, shop_id: landing.shop_id, account_id: manager, action: r.status === 'approved' ? 'return-approve' : 'return-reject',
          before: r.status === 'approved' ? JSON.stringify({ validity: 'valid' }) : null, after: JSON.stringify({ ...(r.status === 'approved' ? { validity: 'returned' } : {}), reason: r.reason, note: r.decision ?? null }), ip: null, at: decidedAt,
        });
      }
      await db.insertInto('lead_events').values(events).execute();
      if (r.status === 'approved') await db.updateTable('leads').set({ validity: 'returned', updated_at: decidedAt! }).where('id', '=', lead.id).execute();
    }
  }

  // Ad spend that fits the leads each medium brought: clicks convert at 1.8–3.3%, impressions click at 1–3%.
  const shops = await db.selectFrom('shops').select('id').execute();
  const { fromIso, toIso } = periodInstants(addDays(today, -59), today);
  const day = seoulDaySql(db, 'created_at');
  const counts = await db
    .selectFrom('leads')
    .select(['shop_id', 'media_type_id', day.as('day'), sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', fromIso)
    .where('created_at', '<', toIso)
    .where('media_type_id', 'is not', null)
    .groupBy(['shop_id', 'media_type_id', day])
    .execute();
  const leadsOn = new Map(counts.map((c) => [`${c.shop_id}|${c.media_type_id}|${c.day}`, Number(c.n)]));
  const activeMedia = new Set(counts.map((c) => `${c.shop_id}|${c.media_type_id}`));
  const rows: Array<Insertable<Database['ad_spend']>> = [];
  for (const shop of shops) {
    for (const m of media) {
      if (!activeMedia.has(`${shop.id}|${m.id}`)) continue;
      const costPerClick = { meta: 620, naver: 980, kakao: 540, google: 1_150 }[m.code] ?? 700;
      for (let d = 59; d >= 0; d--) {
        const on = addDays(today, -d);
        const leads = leadsOn.get(`${shop.id}|${m.id}|${on}`) ?? 0;
        const clicks = Math.max(leads, Math.round((leads + rnd.next() * 0.6) / (0.018 + rnd.next() * 0.015)));
        const impressions = Math.round(clicks / (0.01 + rnd.next() * 0.02));
        const spend = Math.round((clicks * costPerClick * (0.85 + rnd.next() * 0.3)) / 10) * 10;
        rows.push({ shop_id: shop.id, day: on, media_type_id: m.id, landing_id: 0, impressions, clicks, spend, source: d % 7 === 0 ? 'manual' : 'csv', updated_by: manager, updated_at: nowIso });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('ad_spend').values(rows.slice(i, i + 200)).execute();

  const month = today.slice(0, 7);
  const months = [0, 1, 2].map((k) => {
    const d = new Date(`${month}-01T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - k);
    return d.toISOString().slice(0, 7);
  });
  const targets: Array<Insertable<Database['cpa_targets']>> = [];
  for (const shop of shops) {
    for (const m of media) {
      const target = TARGETS[m.code];
      if (!target || !activeMedia.has(`${shop.id}|${m.id}`)) continue;
      for (const mo of months) targets.push({ shop_id: shop.id, media_type_id: m.id, month: mo, target_cpa: target, updated_by: manager, updated_at: nowIso });
    }
  }
  if (targets.length) await db.insertInto('cpa_targets').values(targets).execute();
}
