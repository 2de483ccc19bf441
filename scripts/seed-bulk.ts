// npm run seed:bulk -- 1000000 [--db=<sqlite file | postgres://…>] [--schema=<pg schema>] [--fresh]
//
// Fills a database with N leads over 20 shops and the last 12 months, as a year of a busy agency
// looks: more leads lately than a year ago, evenings busier than dawn, shops of very different
// sizes, ~8% duplicates (of an earlier lead of the same shop and phone, within 30 days), most
// leads assigned to the shop's counselors (상담원 accounts with their shop permissions) and
// worked (older ones mostly 부재 / 통화완료, recent ones still 미처리), a slice of recent leads
// left unassigned for allocation, each lead with its access record (created, assign, status).
// Runs the migrations first and creates the shops, accounts, privacy policies and landings it needs.
//
// The rows are written the fast way, not through the leads module: prepared inserts in large
// transactions on SQLite (better-sqlite3 itself), unnest() batches of 5,000 rows on PostgreSQL;
// the leads' and events' secondary indexes (and, on PostgreSQL, foreign keys) are dropped for the
// load and created again from their own definitions, then ANALYZE (PostgreSQL: VACUUM ANALYZE). Minutes for a million.
//
// Default database: $DATA_DIR/leadroom.sqlite when DATA_DIR is set, else
// <tmp>/leadroom-bulk/leadroom.sqlite (then `DATA_DIR=<that folder> npm start` opens it).
// A database that already has leads is refused unless --fresh (SQLite: the file is deleted;
// PostgreSQL: the schema is dropped and created again).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Insertable, Kysely } from 'kysely';
import { openDatabase } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { ensureEssentials } from '../server/db/seed.ts';
import { answersFor, FAMILY, GIVEN, MEMOS, random } from '../server/db/demo-leads.ts';
import type { Database } from '../server/db/schema.ts';
import { loadConfig } from '../server/config.ts';
import { hashPassword } from '../server/lib/password.ts';
import { addDays, seoulDay, seoulDayStart } from '../contracts/kst.ts';
import { formFields as formFieldsSchema, landingContent, type FormField } from '../contracts/landings.ts';
import type { CsStatus } from '../contracts/leads.ts';

/** Every account the bulk seed creates (and the first administrator, when it creates that too) has this password. */
export const BULK_PASSWORD = 'Bulk-pass-2026!';
/** The shop-owner of the largest shop (data scope 'all'): what the lead benchmark logs in as. */
export const BULK_OWNER = 'bulk01-owner';

export const isPostgres = (url: string) => /^postgres(ql)?:\/\//.test(url);

export function defaultSqliteFile(): string {
  return process.env.DATA_DIR ? path.resolve(process.env.DATA_DIR, 'leadroom.sqlite') : path.join(os.tmpdir(), 'leadroom-bulk', 'leadroom.sqlite');
}

export interface BulkSeedOptions {
  /** A SQLite file or a postgres:// URL. */
  db: string;
  /** PostgreSQL: the schema to fill (created if missing); default public. */
  schema?: string;
  leads: number;
  /** Start from an empty database: delete the SQLite file, or drop and create the schema. */
  fresh?: boolean;
  now?: Date;
  say?: (line: string) => void;
}

export interface BulkSeedResult {
  leads: number;
  events: number;
  duplicates: number;
  unassigned: number;
  shops: number;
  counselors: number;
  landings: number;
  seconds: number;
}

const DAY = 86_400_000;
const MIN = 60_000;
const DAYS = 365;
const SHOP_COUNT = 20;
const DUPLICATE_RATE = 0.083;
const DUPLICATE_WINDOW = 30 * DAY;
/** The recent non-duplicate leads per shop a duplicate may repeat. */
const RING = 1024;
const PG_BATCH = 5000;
const SQLITE_COMMIT_EVERY = 50_000;

// ── What the agency's year looks like ──────────────────────────────────────────────────

const KINDS = [
  { code: 'dental', names: ['서울미소치과', '강남바른치과', '연세하얀치과', '분당365치과'], topics: ['임플란트', '치아교정', '라미네이트', '스케일링'], ask: '관심 진료' },
  { code: 'plastic', names: ['청담더블유성형외과', '압구정라인성형외과', '신사뷰티성형외과', '부산아름성형외과'], topics: ['눈 성형', '코 성형', '리프팅', '지방흡입'], ask: '관심 시술' },
  { code: 'insurance', names: ['한빛손해보험 강남지점', '미래생명 종로지점', '든든보험 대리점', '행복손해보험 수원지점'], topics: ['실손보험', '암보험', '운전자보험', '연금보험'], ask: '관심 보험' },
  { code: 'law', names: ['법무법인 정의', '새길법률사무소', '한결개인회생센터', '바른이혼상담소'], topics: ['개인회생', '이혼 상담', '교통사고', '상속'], ask: '상담 분야' },
  { code: 'education', names: ['잉글리시업 어학원', '코딩하이 아카데미', '합격공무원학원', '스마트자격증센터'], topics: ['영어회화', '코딩', '공무원', '자격증'], ask: '관심 과정' },
] as const;

const CODES = {
  'client-type': [['치과', 'dental'], ['성형외과', 'plastic'], ['보험', 'insurance'], ['법률', 'law'], ['교육', 'education']],
  'media-type': [['메타', 'meta'], ['네이버', 'naver'], ['카카오', 'kakao'], ['구글', 'google'], ['틱톡', 'tiktok']],
  'event-type': [['상담 신청', 'consult'], ['무료 체험', 'free-trial'], ['이벤트 응모', 'event']],
} as const;

const MEDIA: Record<string, { medium: string; referrer: string | null; terms: boolean }> = {
  meta: { medium: 'paid_social', referrer: 'https://m.facebook.com/', terms: false },
  naver: { medium: 'cpc', referrer: 'https://m.search.naver.com/', terms: true },
  kakao: { medium: 'display', referrer: 'https://kakao.com/', terms: false },
  google: { medium: 'cpc', referrer: 'https://www.google.com/', terms: true },
  tiktok: { medium: 'paid_social', referrer: null, terms: false },
};
const CAMPAIGNS = ['main', 'retarget', 'brand', 'lookalike'];
const CREATIVES = ['video_a', 'video_b', 'image_a', 'image_b', 'carousel'];
const IP_PREFIXES = ['211.234', '223.38', '223.62', '175.223', '39.7', '106.101', '110.70', '118.235'];
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S921N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-A536N) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0]',
  'Mozilla/5.0 (Linux; Android 14; SM-F946N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 KAKAOTALK 10.6.5',
];
const INVALID_REASONS = ['장난 신청', '본인 아님', '연락처 오류', '중복 문의(타 채널)'];

/** Leads by hour of the Seoul day: quiet at dawn, busiest in the evening. */
const HOUR_WEIGHTS = [1.2, 0.6, 0.3, 0.2, 0.2, 0.3, 0.7, 1.4, 2.4, 3.4, 4, 4, 4.4, 4, 3.9, 3.9, 4, 4.4, 5, 5.6, 6, 6, 5, 3];
// Statuses by the lead's age: worked over the days after it arrived.
const FRESH: ReadonlyArray<readonly [CsStatus, number]> = [['미처리', 50], ['부재', 22], ['통화완료', 18], ['상담예약', 8], ['보류', 2]];
const RECENT: ReadonlyArray<readonly [CsStatus, number]> = [
  ['미처리', 14], ['부재', 25], ['통화완료', 30], ['상담예약', 11], ['계약', 7], ['보류', 5], ['거절', 5], ['결번', 2], ['무효', 1],
];
const OLD: ReadonlyArray<readonly [CsStatus, number]> = [
  ['미처리', 6], ['부재', 22], ['통화완료', 32], ['상담예약', 6], ['계약', 12], ['보류', 6], ['거절', 10], ['결번', 4], ['무효', 2],
];
const ASSIGN_MODES = [['auto-round-robin', 5], ['round-robin', 3], ['weighted', 1], ['manual', 1]] as const;

/** The unassigned share by age: a recent backlog waiting for allocation, a little left behind in older months. */
const unassignedShare = (age: number) => (age < 3 * DAY ? 0.6 : age < 30 * DAY ? 0.08 : 0.015);

// ── Columns as written ─────────────────────────────────────────────────────────────────

const LEAD_COLUMNS = [
  ['id', 'int4'], ['shop_id', 'int4'], ['landing_id', 'int4'], ['source', 'text'], ['name', 'text'], ['phone', 'text'], ['phone_last4', 'text'],
  ['answers', 'text'], ['privacy_consent', 'int4'], ['marketing_consent', 'int4'], ['sensitive_consent', 'int4'], ['privacy_policy_id', 'int4'],
  ['utm_source', 'text'], ['utm_medium', 'text'], ['utm_campaign', 'text'], ['utm_content', 'text'], ['utm_term', 'text'], ['media_type_id', 'int4'],
  ['referrer', 'text'], ['ip', 'text'], ['user_agent', 'text'], ['cs_status', 'text'], ['assignee_id', 'int4'], ['reserved_at', 'text'], ['memo', 'text'],
  ['duplicate_of', 'int4'], ['validity', 'text'], ['invalid_reason', 'text'], ['created_at', 'text'], ['updated_at', 'text'],
  ['first_contact_at', 'text'], ['assigned_at', 'text'],
] as const;
const EVENT_COLUMNS = [['lead_id', 'int4'], ['shop_id', 'int4'], ['account_id', 'int4'], ['action', 'text'], ['before', 'text'], ['after', 'text'], ['ip', 'text'], ['at', 'text']] as const;
type Row = Array<string | number | null>;

interface Sink {
  lead(row: Row): void;
  event(row: Row): void;
  /** After each lead: writes out a full batch. */
  next(leadsSoFar: number): Promise<void> | void;
  finish(): Promise<void>;
}

// ── The shops, people and landings ─────────────────────────────────────────────────────

interface Counselor {
  id: number;
  name: string;
}
interface PlannedLanding {
  id: number;
  mediaTypeId: number;
  media: string;
  fields: FormField[];
  marketing: boolean;
}
interface PlannedShop {
  id: number;
  weight: number;
  topics: readonly string[];
  policyId: number;
  ownerId: number;
  counselors: Counselor[];
  landings: PlannedLanding[];
  landingCdf: number[];
  rr: number;
  ringIds: Int32Array;
  ringAt: Float64Array;
  ringPhones: string[];
  ringCount: number;
}

async function setUp(db: Kysely<Database>, rnd: ReturnType<typeof random>, now: Date): Promise<PlannedShop[]> {
  const at = now.toISOString();
  for (const [kind, rows] of Object.entries(CODES)) {
    const have = new Set((await db.selectFrom('code_items').select('code').where('kind', '=', kind as keyof typeof CODES).execute()).map((r) => r.code));
    const missing = rows.filter(([, code]) => !have.has(code));
    if (missing.length) {
      await db
        .insertInto('code_items')
        .values(missing.map(([name, code], i) => ({ kind: kind as keyof typeof CODES, name, code, sort_order: have.size + i, active: 1, created_at: at, updated_at: at })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  const codes = await db.selectFrom('code_items').select(['id', 'kind', 'code']).execute();
  const codeId = (kind: string, code: string) => codes.find((c) => c.kind === kind && c.code === code)?.id ?? null;
  if (!(await db.selectFrom('operator_settings').select('id').executeTakeFirst())) {
    await db
      .insertInto('operator_settings')
      .values({
        id: 1, company_name: '(주)리드룸마케팅', representative: '박리드', business_number: '2148812345', phone: '0215447788',
        address: '서울특별시 마포구 양화로 45, 8층', privacy_officer_name: '윤보안', privacy_officer_contact: 'privacy@leadroom.example', updated_by: null, updated_at: at,
      })
      .execute();
  }

  const types = await db.selectFrom('account_types').select(['id', 'builtin_key']).execute();
  const typeOf = (key: string) => types.find((t) => t.builtin_key === key)!.id;
  // One hash for every bulk account: scrypt per account would cost a second for nothing.
  const hash = await hashPassword(BULK_PASSWORD);
  const account = async (loginId: string, name: string, type: string) =>
    (
      await db
        .insertInto('accounts')
        .values({
          login_id: loginId, name, phone: null, email: `${loginId}@bulk.leadroom.example`, account_type_id: typeOf(type), status: 'active', password_hash: hash,
          failed_logins: 0, locked_until: null, last_login_at: null, last_login_ip: null, password_changed_at: at, must_change_password: 0, created_at: at, updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const media = Object.keys(MEDIA);
  const shops: PlannedShop[] = [];
  const marketer = await account('bulk-marketer', '한마케', 'marketer');
  for (let k = 0; k < SHOP_COUNT; k++) {
    const kind = KINDS[k % KINDS.length]!;
    const name = kind.names[Math.floor(k / KINDS.length)]!;
    const nn = String(k + 1).padStart(2, '0');
    const shopId = (
      await db
        .insertInto('shops')
        .values({
          shop_code: `bulk-${kind.code}-${nn}`, name, client_type_id: codeId('client-type', kind.code), status: 'active', company_name: name,
          representative: rnd.pick(FAMILY) + rnd.pick(GIVEN), business_number: null, phone: `02${rnd.int(2000, 9999)}${rnd.int(1000, 9999)}`,
          address: `서울특별시 ${rnd.pick(['강남구', '서초구', '마포구', '송파구', '종로구'])} ${rnd.int(1, 300)}`, privacy_officer_name: rnd.pick(FAMILY) + rnd.pick(GIVEN),
          privacy_officer_contact: `privacy@bulk${nn}.example`, created_at: at, updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const policyId = (
      await db
        .insertInto('privacy_policies')
        .values({
          shop_id: shopId, version: 1, collector: 'operator', purpose: `${kind.topics[0]} 등 상담 신청 접수 및 안내`, items: `이름, 연락처, ${kind.ask}`,
          retention_days: 180, third_parties: '[]', officer_name: null, officer_contact: null, body: '', published_at: at, created_by: null, created_at: at, updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Shop sizes fall off like a real client list: the first shop gets ~18% of all leads, the last ~2%.
    const weight = 1 / Math.pow(k + 1, 0.7);
    const ownerId = await account(`bulk${nn}-owner`, rnd.pick(FAMILY) + rnd.pick(GIVEN), 'shop-owner');
    const counselors: Counselor[] = [];
    const headcount = Math.max(3, Math.round(8 * weight));
    for (let j = 1; j <= headcount; j++) {
      const person = rnd.pick(FAMILY) + rnd.pick(GIVEN);
      counselors.push({ id: await account(`bulk${nn}-c${j}`, person, 'counselor'), name: person });
    }
    await db
      .insertInto('shop_permissions')
      .values([marketer, ownerId, ...counselors.map((c) => c.id)].map((account_id) => ({ account_id, shop_id: shopId, created_at: at })))
      .execute();
    await db.insertInto('lead_settings').values({ shop_id: shopId, updated_at: at }).execute();

    const fields = formFieldsSchema.parse([
      { key: 'interest', label: kind.ask, type: 'select', options: [...kind.topics], required: true },
      { key: 'callTime', label: '통화 가능 시간', type: 'radio', options: ['오전 (9~12시)', '오후 (12~18시)', '저녁 (18~21시)'], required: false },
    ]);
    const landings: PlannedLanding[] = [];
    const mediaHere = [media[k % media.length]!, media[(k + 1) % media.length]!, media[(k + 3) % media.length]!];
    for (const [n, m] of mediaHere.entries()) {
      const topic = kind.topics[n]!;
      const content = landingContent.parse({
        headline: `${topic}, 지금 무료 상담 받으세요`, subheadline: `${name} ${topic} 이벤트`, body: `${topic} 상담을 신청하시면 담당자가 하루 안에 연락드립니다.`,
        bullets: ['1:1 맞춤 상담', '상담 후 결정', '평일 야간 상담 가능'], ctaLabel: '무료 상담 신청',
      });
      const id = (
        await db
          .insertInto('landings')
          .values({
            shop_id: shopId, landing_code: `${['event', 'consult', 'promo'][n]}-${nn}`, title: `${topic} 상담 이벤트`, status: 'open', open_at: null, close_at: null,
            media_type_id: codeId('media-type', m), event_type_id: codeId('event-type', n === 2 ? 'event' : 'consult'), content: JSON.stringify(content),
            form_fields: JSON.stringify(fields), privacy_consent_text: `${name} 상담을 위해 이름과 연락처를 수집하며, 상담 안내 목적으로만 이용합니다.`,
            marketing_consent_text: n === 1 ? '이벤트 소식을 문자로 받아 보시겠습니까?' : null, thank_you_message: '신청이 접수되었습니다. 담당자가 곧 연락드리겠습니다.',
            thank_you_url: null, duplicate_window_days: 30, privacy_policy_version_id: null, published_at: at, created_by: ownerId, created_at: at, updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      landings.push({ id, mediaTypeId: codeId('media-type', m)!, media: m, fields, marketing: n === 1 });
    }
    const lw = [0.5, 0.3, 0.2];
    shops.push({
      id: shopId, weight, topics: kind.topics, policyId, ownerId, counselors, landings, landingCdf: lw.map((_, i) => lw.slice(0, i + 1).reduce((a, b) => a + b, 0)),
      rr: 0, ringIds: new Int32Array(RING), ringAt: new Float64Array(RING), ringPhones: new Array<string>(RING), ringCount: 0,
    });
  }
  return shops;
}

// ── The leads ──────────────────────────────────────────────────────────────────────────

/** Arrival times, sorted: more leads lately (the agency grew), by hour of the Seoul day, fewer at weekends. */
function arrivals(n: number, rnd: ReturnType<typeof random>, now: Date): Float64Array {
  const today = seoulDay(now);
  const first = addDays(today, -(DAYS - 1));
  const dayStart = Float64Array.from({ length: DAYS }, (_, d) => seoulDayStart(addDays(first, d)).getTime());
  const weekend = Uint8Array.from({ length: DAYS }, (_, d) => [0, 6].includes(new Date(`${addDays(first, d)}T00:00:00Z`).getUTCDay()) ? 1 : 0);
  const total = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
  const hourCdf = HOUR_WEIGHTS.map((_, i) => HOUR_WEIGHTS.slice(0, i + 1).reduce((a, b) => a + b, 0) / total);
  const latest = now.getTime() - MIN;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let d: number;
    do {
      // Density 0.6 + 0.8x over the year (x from 0 a year ago to 1 today): inverse of its CDF.
      const x = (-0.6 + Math.sqrt(0.36 + 1.6 * rnd.next())) / 0.8;
      d = Math.min(DAYS - 1, Math.floor(x * DAYS));
    } while (weekend[d] && rnd.next() < 0.3);
    const u = rnd.next();
    let h = 0;
    while (hourCdf[h]! < u) h++;
    let t = dayStart[d]! + (h + rnd.next()) * 3_600_000;
    if (t > latest) t = dayStart[DAYS - 1]! + rnd.next() * Math.max(0, latest - dayStart[DAYS - 1]!);
    out[i] = t;
  }
  return out.sort();
}

async function generate(shops: PlannedShop[], n: number, firstId: number, rnd: ReturnType<typeof random>, now: Date, sink: Sink, say: (l: string) => void) {
  const times = arrivals(n, rnd, now);
  const total = shops.reduce((a, s) => a + s.weight, 0);
  const shopCdf = shops.map((_, i) => shops.slice(0, i + 1).reduce((a, s) => a + s.weight, 0) / total);
  const nowMs = now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const started = performance.now();
  let events = 0;
  for (let i = 0; i < n; i++) {
    const at = times[i]!;
    const id = firstId + i;
    const age = nowMs - at;
    const u = rnd.next();
    let s = 0;
    while (shopCdf[s]! < u) s++;
    const shop = shops[s]!;
    const lu = rnd.next();
    const landing = shop.landings[shop.landingCdf.findIndex((c) => lu <= c)] ?? shop.landings[0]!;

    // A duplicate repeats the phone of one of the shop's recent leads (within the 30-day window).
    let duplicateOf: number | null = null;
    let phone = '';
    if (shop.ringCount > 0 && rnd.next() < DUPLICATE_RATE) {
      // The ring is in arrival order: the oldest entry still inside the window, by bisection.
      let lo = Math.max(0, shop.ringCount - RING);
      let hi = shop.ringCount;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (at - shop.ringAt[mid % RING]! < DUPLICATE_WINDOW) hi = mid;
        else lo = mid + 1;
      }
      if (lo < shop.ringCount) {
        const slot = rnd.int(lo, shop.ringCount - 1) % RING;
        duplicateOf = shop.ringIds[slot]!;
        phone = shop.ringPhones[slot]!;
      }
    }
    if (!duplicateOf) {
      phone = `010${rnd.int(2000, 9999)}${String(rnd.int(0, 9999)).padStart(4, '0')}`;
      const slot = shop.ringCount % RING;
      shop.ringIds[slot] = id;
      shop.ringAt[slot] = at;
      shop.ringPhones[slot] = phone;
      shop.ringCount++;
    }

    let status: CsStatus = '중복';
    let assignee: Counselor | null = null;
    let assignedAt: number | null = null;
    let contactAt: number | null = null;
    let reservedAt: number | null = null;
    let mode = '';
    if (!duplicateOf) {
      status = '미처리';
      const m = rnd.weighted(ASSIGN_MODES);
      const a = at + (m === 'auto-round-robin' ? rnd.int(50, 3000) : rnd.int(2, 240) * MIN);
      // Assigned (unless left in the backlog) when that time has come; contacted likewise.
      if (rnd.next() >= unassignedShare(age) && a < nowMs) {
        assignee = rnd.next() < 0.7 ? shop.counselors[shop.rr++ % shop.counselors.length]! : rnd.pick(shop.counselors);
        mode = m;
        assignedAt = a;
        const worked = rnd.weighted(age < DAY ? FRESH : age < 14 * DAY ? RECENT : OLD);
        const c = a + rnd.int(3, age < DAY ? 120 : 36 * 60) * MIN;
        if (worked !== '미처리' && c < nowMs) {
          status = worked;
          contactAt = c;
          if (status === '상담예약') reservedAt = seoulDayStart(addDays(seoulDay(c), rnd.int(1, 7))).getTime() + rnd.int(10, 18) * 3_600_000;
        }
      }
    }

    const createdAt = iso(at);
    const media = MEDIA[landing.media]!;
    const ip = `${rnd.pick(IP_PREFIXES)}.${rnd.int(0, 255)}.${rnd.int(1, 254)}`;
    const month = createdAt.slice(2, 7).replace('-', '');
    const invalid = status === '무효';
    const updatedAt = iso(Math.max(at, assignedAt ?? 0, contactAt ?? 0));
    sink.lead([
      id, shop.id, landing.id, 'landing', rnd.pick(FAMILY) + rnd.pick(GIVEN), phone, phone.slice(-4), JSON.stringify(answersFor(landing.fields, rnd)),
      1, landing.marketing && rnd.next() < 0.45 ? 1 : 0, 0, shop.policyId,
      landing.media, media.medium, `${month}_${rnd.pick(CAMPAIGNS)}`, rnd.next() < 0.35 ? rnd.pick(CREATIVES) : null,
      media.terms && rnd.next() < 0.6 ? `${rnd.pick(shop.topics)} ${rnd.pick(['가격', '비용', '후기', '상담', '추천'])}` : null, landing.mediaTypeId,
      media.referrer && rnd.next() < 0.7 ? media.referrer : null, ip, rnd.pick(USER_AGENTS), status, assignee?.id ?? null,
      reservedAt ? iso(reservedAt) : null, contactAt && rnd.next() < 0.4 ? rnd.pick(MEMOS) : null, duplicateOf,
      invalid ? 'invalid' : 'valid', invalid ? rnd.pick(INVALID_REASONS) : null, createdAt, updatedAt,
      contactAt ? iso(contactAt) : null, assignedAt ? iso(assignedAt) : null,
    ]);
    sink.event([
      id, shop.id, null, 'created', null, `{"source":"landing","landingId":${landing.id}${duplicateOf ? `,"duplicateOf":${duplicateOf}` : ''}}`, ip, createdAt,
    ]);
    events++;
    if (assignee && assignedAt) {
      sink.event([
        id, shop.id, mode.startsWith('auto') ? null : shop.ownerId, 'assign', '{"assigneeId":null,"assigneeName":null}',
        JSON.stringify({ assigneeId: assignee.id, assigneeName: assignee.name, mode }), null, iso(assignedAt),
      ]);
      events++;
    }
    if (contactAt) {
      sink.event([
        id, shop.id, assignee?.id ?? null, 'status', '{"csStatus":"미처리"}',
        JSON.stringify({ csStatus: status, ...(reservedAt ? { reservedAt: iso(reservedAt) } : {}) }), null, iso(contactAt),
      ]);
      events++;
    }
    await sink.next(i + 1);
    if ((i + 1) % 100_000 === 0 || i + 1 === n) {
      say(`  ${(i + 1).toLocaleString('en-US').padStart(10)} / ${n.toLocaleString('en-US')} leads, ${events.toLocaleString('en-US')} events  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
  await sink.finish();
}

// ── The engines ────────────────────────────────────────────────────────────────────────

async function loadSqlite(file: string, fill: (sink: Sink) => Promise<void>, say: (l: string) => void) {
  const Sqlite = (await import('better-sqlite3')).default;
  const db = new Sqlite(file);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1048576');
  db.pragma('temp_store = MEMORY');
  const indexes = db.prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name in ('leads', 'lead_events') and sql is not null`).all() as Array<{ name: string; sql: string }>;
  // Without their secondary indexes the tables take rows in order; the indexes are then built in one sort each.
  for (const i of indexes) db.exec(`drop index "${i.name}"`);
  try {
    const insertLead = db.prepare(`insert into leads (${LEAD_COLUMNS.map(([c]) => `"${c}"`).join(', ')}) values (${LEAD_COLUMNS.map(() => '?').join(', ')})`);
    const insertEvent = db.prepare(`insert into lead_events (${EVENT_COLUMNS.map(([c]) => `"${c}"`).join(', ')}) values (${EVENT_COLUMNS.map(() => '?').join(', ')})`);
    db.exec('begin');
    await fill({
      lead: (row) => void insertLead.run(row),
      event: (row) => void insertEvent.run(row),
      next(count) {
        if (count % SQLITE_COMMIT_EVERY === 0) db.exec('commit; begin');
      },
      async finish() {
        db.exec('commit');
      },
    });
  } finally {
    if (db.inTransaction) db.exec('rollback');
    const t0 = performance.now();
    for (const i of indexes) db.exec(i.sql);
    say(`  ${indexes.length} indexes of leads and lead_events built (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const t1 = performance.now();
  db.exec('analyze');
  db.pragma('wal_checkpoint(TRUNCATE)');
  say(`  ANALYZE (${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  db.close();
}

async function loadPostgres(url: string, schema: string, fill: (sink: Sink) => Promise<void>, say: (l: string) => void) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url, options: `-c search_path="${schema}"` });
  await client.connect();
  try {
    await client.query(`set synchronous_commit = off`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    // One transaction: a failed load leaves the tables as they were, indexes and keys included.
    await client.query('begin');
    const indexes = (
      await client.query<{ name: string; def: string }>(
        `select i.relname as name, pg_get_indexdef(i.oid) as def
           from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid join pg_namespace n on n.oid = t.relnamespace
          where n.nspname = current_schema() and t.relname in ('leads', 'lead_events')
            and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`,
      )
    ).rows;
    const keys = (
      await client.query<{ tbl: string; name: string; def: string }>(
        `select t.relname as tbl, c.conname as name, pg_get_constraintdef(c.oid) as def
           from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_namespace n on n.oid = t.relnamespace
          where n.nspname = current_schema() and t.relname in ('leads', 'lead_events') and c.contype = 'f'`,
      )
    ).rows;
    for (const k of keys) await client.query(`alter table "${k.tbl}" drop constraint "${k.name}"`);
    for (const i of indexes) await client.query(`drop index "${i.name}"`);

    const insertSql = (table: string, cols: ReadonlyArray<readonly [string, string]>) =>
      `insert into ${table} (${cols.map(([c]) => `"${c}"`).join(', ')}) select * from unnest(${cols.map(([, t], n) => `$${n + 1}::${t}[]`).join(', ')})`;
    const leadSql = insertSql('leads', LEAD_COLUMNS);
    const eventSql = insertSql('lead_events', EVENT_COLUMNS);
    const columns = (width: number) => Array.from({ length: width }, (): Row => []);
    let leads = columns(LEAD_COLUMNS.length);
    let events = columns(EVENT_COLUMNS.length);
    let pending: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      const [l, e] = [leads, events];
      leads = columns(LEAD_COLUMNS.length);
      events = columns(EVENT_COLUMNS.length);
      // The next batch is generated while this one is written.
      await pending;
      pending = (async () => {
        if (l[0]!.length) await client.query(leadSql, l);
        if (e[0]!.length) await client.query(eventSql, e);
      })();
    };
    await fill({
      lead: (row) => row.forEach((v, c) => leads[c]!.push(v)),
      event: (row) => row.forEach((v, c) => events[c]!.push(v)),
      async next() {
        if (leads[0]!.length >= PG_BATCH) await flush();
      },
      async finish() {
        await flush();
        await pending;
      },
    });
    const t0 = performance.now();
    for (const i of indexes) await client.query(i.def);
    for (const k of keys) await client.query(`alter table "${k.tbl}" add constraint "${k.name}" ${k.def}`);
    say(`  ${indexes.length} indexes and ${keys.length} foreign keys of leads and lead_events built (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    await client.query(`select setval(pg_get_serial_sequence('leads', 'id'), (select max(id) from leads))`);
    await client.query('commit');
    const t1 = performance.now();
    // VACUUM as well: it sets the visibility map autovacuum would set on a live database, without
    // which no index-only scan skips the table.
    await client.query('vacuum (analyze) leads, lead_events');
    await client.query('analyze');
    say(`  VACUUM (ANALYZE) (${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

async function dropSchema(url: string, schema: string) {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.query(`create schema "${schema}"`);
  } finally {
    await c.end();
  }
}

// ── Putting it together ────────────────────────────────────────────────────────────────

/**
 * The money side of the year: each shop's 12-month contract over all its landings (ending today),
 * a day of ad spend per landing's medium for the whole year, and a target CPA per medium and month.
 */
async function seedBulkMoney(db: Kysely<Database>, shops: PlannedShop[], now: Date, rnd: ReturnType<typeof random>) {
  const at = now.toISOString();
  const today = seoulDay(now);
  const first = addDays(today, -364);
  for (const shop of shops) {
    await db
      .insertInto('shop_contracts')
      .values({
        shop_id: shop.id, name: '연간 상담 DB 계약', starts_on: first, ends_on: today, quantity: 200_000, unit_price: 30_000 + 1_000 * (shop.id % 5), daily_cap: null,
        return_window_days: 7, max_return_rate: 10, auto_close: 0, stopped_at: null, memo: null, created_by: null, created_at: at, updated_at: at,
      })
      .execute();
    const rows: Array<Insertable<Database['ad_spend']>> = [];
    for (const l of shop.landings) {
      for (let d = 0; d < 365; d++) {
        const clicks = Math.round(shop.weight * (200 + rnd.next() * 300));
        rows.push({
          shop_id: shop.id, day: addDays(first, d), media_type_id: l.mediaTypeId, landing_id: 0, impressions: clicks * (40 + rnd.int(0, 40)), clicks,
          spend: clicks * rnd.int(500, 1_200), source: 'csv', updated_by: null, updated_at: at,
        });
      }
    }
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('ad_spend').values(rows.slice(i, i + 500)).execute();
    const months = [...new Set(Array.from({ length: 365 }, (_, d) => addDays(first, d).slice(0, 7)))];
    await db
      .insertInto('cpa_targets')
      .values(shop.landings.flatMap((l) => months.map((month) => ({ shop_id: shop.id, media_type_id: l.mediaTypeId, month, target_cpa: 30_000, updated_by: null, updated_at: at }))))
      .execute();
  }
}

export async function seedBulk(o: BulkSeedOptions): Promise<BulkSeedResult> {
  const say = o.say ?? ((l: string) => console.log(l));
  const now = o.now ?? new Date();
  const pgUrl = isPostgres(o.db) ? o.db : null;
  const schema = o.schema ?? 'public';
  const file = pgUrl ? null : path.resolve(o.db);
  const started = performance.now();
  if (o.fresh) {
    if (file) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    else await dropSchema(pgUrl!, schema);
  }
  const handle = await openDatabase(pgUrl ? { url: pgUrl, pgSchema: schema, poolSize: 2 } : { url: file! });
  const rnd = random(20261124);
  let shops: PlannedShop[];
  let firstId: number;
  try {
    await migrateToLatest(handle.db);
    await ensureEssentials(handle.db, { ...loadConfig(), seedDemo: false, initialAdminPassword: BULK_PASSWORD }, () => {}, now);
    const existing = Number((await handle.db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    if (existing > 0) throw new Error(`${pgUrl ? `${pgUrl} (schema ${schema})` : file} already has ${existing.toLocaleString('en-US')} leads: add --fresh to start over.`);
    if (await handle.db.selectFrom('shops').select('id').where('shop_code', 'like', 'bulk-%').executeTakeFirst()) {
      throw new Error('bulk shops are already there (an earlier run stopped half-way?): add --fresh to start over.');
    }
    shops = await setUp(handle.db, rnd, now);
    firstId = Number((await handle.db.selectFrom('leads').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0) + 1;
  } finally {
    await handle.close();
  }
  say(`  ${shops.length} shops, ${shops.reduce((a, s) => a + s.counselors.length, 0)} counselors, ${shops.length * 3} landings; writing ${o.leads.toLocaleString('en-US')} leads…`);
  const fill = (sink: Sink) => generate(shops, o.leads, firstId, rnd, now, sink, say);
  if (file) await loadSqlite(file, fill, say);
  else await loadPostgres(pgUrl!, schema, fill, say);

  const check = await openDatabase(pgUrl ? { url: pgUrl, pgSchema: schema, poolSize: 1 } : { url: file! });
  try {
    await seedBulkMoney(check.db, shops, now, rnd);
    const count = async (table: 'leads' | 'lead_events') =>
      Number((await check.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const leads = check.db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n'));
    const duplicates = Number((await leads.where('duplicate_of', 'is not', null).executeTakeFirstOrThrow()).n);
    const unassigned = Number((await leads.where('assignee_id', 'is', null).where('duplicate_of', 'is', null).executeTakeFirstOrThrow()).n);
    return {
      leads: await count('leads'),
      events: await count('lead_events'),
      duplicates,
      unassigned,
      shops: shops.length,
      counselors: shops.reduce((a, s) => a + s.counselors.length, 0),
      landings: shops.reduce((a, s) => a + s.landings.length, 0),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await check.close();
  }
}

function arg(name: string): string | undefined {
  const hit = process.argv.slice(2).find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return hit === undefined ? undefined : hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : '';
}

async function cli() {
  const positional = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const leads = Number((positional ?? '1000000').replace(/[_,]/g, ''));
  if (!Number.isInteger(leads) || leads < 1) throw new Error(`leads: a whole number, not ${positional}`);
  const db = arg('db') || defaultSqliteFile();
  const schema = arg('schema') || undefined;
  const where = isPostgres(db) ? `${db.replace(/\/\/[^@/]*@/, '//…@')} (schema ${schema ?? 'public'})` : path.resolve(db);
  console.log(`\nseed:bulk — ${leads.toLocaleString('en-US')} leads into ${where}\n`);
  const r = await seedBulk({ db, schema, leads, fresh: arg('fresh') !== undefined });
  const fmt = (n: number) => n.toLocaleString('en-US');
  console.log(`\n  leads ${fmt(r.leads)} (duplicates ${fmt(r.duplicates)}, ${((r.duplicates / r.leads) * 100).toFixed(1)}%; unassigned ${fmt(r.unassigned)})`);
  console.log(`  lead_events ${fmt(r.events)} · shops ${r.shops} · counselors ${r.counselors} · landings ${r.landings}`);
  console.log(`  done in ${r.seconds.toFixed(1)} s`);
  console.log(`\n  Logins (password ${BULK_PASSWORD}): admin (if this run created it), ${BULK_OWNER} … bulk20-owner (업체관리자), bulk01-c1 … (상담원), bulk-marketer (마케터)`);
  const url = isPostgres(db) && schema && schema !== 'public' ? `${db}${db.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}` : db;
  console.log(`  Open it: DATABASE_URL='${isPostgres(db) ? url : path.resolve(db)}' npm start\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await cli().catch((err: unknown) => {
    console.error(`\nseed:bulk failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });
}
