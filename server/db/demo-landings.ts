// Demo data, part two: a published privacy policy and one open landing per demo shop, with
// a generated hero image, so a first `npm start` shows working public pages at once.
import crypto from 'node:crypto';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { FormField, LandingContent } from '../../contracts/landings.ts';

/** A PNG (1200×630 unless told): a diagonal gradient between two colours. */
export function gradientPng(from: [number, number, number], to: [number, number, number], width = 1200, height = 630): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      for (let c = 0; c < 3; c++) raw[(y * width + x) * 3 + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 9 }).toBuffer();
}

interface DemoLanding {
  shopCode: string;
  landingCode: string;
  title: string;
  media: string;
  event: string;
  gradient: [[number, number, number], [number, number, number]];
  heroAlt: string;
  content: Omit<LandingContent, 'hero' | 'images'>;
  formFields: FormField[];
  marketingConsentText: string | null;
  policy: { purpose: string; items: string; retentionDays: number; collector: 'operator' | 'shop' };
}

const DEMO_LANDINGS: DemoLanding[] = [
  {
    shopCode: 'smile-dental', landingCode: 'implant-event', title: '11월 임플란트 무료 상담', media: 'meta', event: 'consult',
    gradient: [[14, 124, 134], [120, 196, 190]], heroAlt: '서울미소치과 임플란트 상담 이벤트',
    content: {
      headline: '임플란트, 이제 부담 없이 시작하세요',
      subheadline: '11월 한 달, 3D CT 정밀 검진과 1:1 상담이 무료입니다',
      body: '치아를 잃은 뒤 오래 두면 잇몸뼈가 줄어 치료가 더 어려워집니다.\n지금 상태를 정확히 알고, 나에게 맞는 치료 계획을 받아 보세요.\n\n신청을 남기시면 상담 코디네이터가 하루 안에 연락드립니다.',
      bullets: ['통합치의학과 전문의 1:1 상담', '3D CT 정밀 진단 무료', '평일 야간·토요일 진료', '무이자 분할 결제 안내'],
      ctaLabel: '무료 상담 신청',
      colors: { primary: '#0e7c86', background: '#eef7f7', text: '#1f2329' },
    },
    formFields: [
      { key: 'treatment', label: '관심 진료', type: 'select', options: ['임플란트', '치아교정', '라미네이트', '일반 진료'], required: true, sensitive: false },
      { key: 'callTime', label: '통화 가능 시간', type: 'radio', options: ['오전 (9~12시)', '오후 (12~18시)', '저녁 (18~21시)'], required: false, sensitive: false },
      { key: 'symptoms', label: '불편한 증상', type: 'checkbox', options: ['씹을 때 통증', '잇몸 출혈', '흔들리는 치아', '시린 이'], required: false, sensitive: true },
    ],
    marketingConsentText: null,
    // The agency collects and provides the leads to the clinic.
    policy: { purpose: '치과 진료 상담 신청 접수, 상담 일정 안내', items: '이름, 연락처, 관심 진료, 통화 가능 시간, 불편한 증상', retentionDays: 180, collector: 'operator' },
  },
  {
    shopCode: 'hanbit-insurance', landingCode: 'free-checkup', title: '보험료 무료 점검 캠페인', media: 'naver', event: 'free-trial',
    gradient: [[30, 79, 216], [129, 161, 245]], heroAlt: '한빛손해보험 보험 무료 점검',
    content: {
      headline: '내 보험, 제대로 가입되어 있을까요?',
      subheadline: '중복 보장은 줄이고 꼭 필요한 보장은 채워 드립니다',
      body: '가입한 보험을 한 번에 모아 보장 내용을 무료로 점검해 드립니다.\n점검 후 가입을 권유하지 않으며, 결과는 문자로도 보내 드립니다.',
      bullets: ['보장 분석 리포트 무료 제공', '중복·과다 보험료 확인', '전문 설계사 1:1 전화 상담'],
      ctaLabel: '무료 점검 신청',
      colors: { primary: '#1e4fd8', background: '#f2f5fd', text: '#1f2329' },
    },
    formFields: [
      { key: 'age', label: '연령대', type: 'select', options: ['20대', '30대', '40대', '50대', '60대 이상'], required: true, sensitive: false },
      { key: 'interest', label: '관심 보험 (복수 선택)', type: 'checkbox', options: ['실손보험', '암보험', '운전자보험', '연금보험'], required: false, sensitive: false },
    ],
    marketingConsentText: '새로운 보험 상품과 이벤트 소식을 문자로 받아 보시겠습니까? 동의하지 않아도 점검 신청은 가능합니다.',
    // The insurer collects for itself; the agency only processes the submissions for it.
    policy: { purpose: '보험 보장 점검 신청 접수 및 상담 안내', items: '이름, 연락처, 연령대, 관심 보험', retentionDays: 365, collector: 'shop' },
  },
];

/** The demo agency, named as collector on the demo privacy pages. */
const DEMO_OPERATOR = {
  company_name: '(주)리드룸마케팅', representative: '박리드', business_number: '2148812345', phone: '0215447788',
  address: '서울특별시 마포구 양화로 45, 8층', privacy_officer_name: '윤보안', privacy_officer_contact: 'privacy@leadroom.example',
};

export async function seedDemoLandings(db: Kysely<Database>): Promise<void> {
  const now = new Date().toISOString();
  if (!(await db.selectFrom('operator_settings').select('id').executeTakeFirst())) {
    await db.insertInto('operator_settings').values({ id: 1, ...DEMO_OPERATOR, updated_by: null, updated_at: now }).execute();
  }
  const code = async (kind: 'media-type' | 'event-type', c: string) =>
    (await db.selectFrom('code_items').select('id').where('kind', '=', kind).where('code', '=', c).executeTakeFirst())?.id ?? null;

  for (const d of DEMO_LANDINGS) {
    const shop = await db.selectFrom('shops').select(['id', 'name', 'company_name']).where('shop_code', '=', d.shopCode).executeTakeFirst();
    if (!shop) continue;
    const recipient = shop.company_name ?? shop.name;
    await db
      .insertInto('privacy_policies')
      .values({
        shop_id: shop.id, version: 1, collector: d.policy.collector, purpose: d.policy.purpose, items: d.policy.items, retention_days: d.policy.retentionDays,
        // The shop itself is named on the page as recipient (or as collector): no row for it here.
        third_parties: '[]',
        officer_name: null, officer_contact: null, body: '', published_at: now, created_by: null, created_at: now, updated_at: now,
      })
      .execute();
    const png = await gradientPng(...d.gradient);
    const key = crypto.randomBytes(16).toString('base64url');
    await db
      .insertInto('uploads')
      .values({ key, shop_id: shop.id, mime: 'image/png', width: 1200, height: 630, size: png.length, data: png, created_by: null, created_at: now })
      .execute();
    const content: LandingContent = { ...d.content, hero: { url: `/uploads/${key}.png`, width: 1200, height: 630, alt: d.heroAlt }, images: [] };
    await db
      .insertInto('landings')
      .values({
        shop_id: shop.id, landing_code: d.landingCode, title: d.title, status: 'open', open_at: null, close_at: null,
        media_type_id: await code('media-type', d.media), event_type_id: await code('event-type', d.event),
        content: JSON.stringify(content), form_fields: JSON.stringify(d.formFields),
        privacy_consent_text: `${recipient} 상담을 위해 이름과 연락처를 수집하며, 상담 안내 목적으로만 이용합니다. 동의를 거부할 수 있으나 거부 시 신청이 제한됩니다.`,
        marketing_consent_text: d.marketingConsentText, thank_you_message: '신청이 접수되었습니다. 담당자가 곧 연락드리겠습니다.', thank_you_url: null,
        duplicate_window_days: 30, privacy_policy_version_id: null, published_at: now, created_by: null, created_at: now, updated_at: now,
      })
      .execute();
  }
}
