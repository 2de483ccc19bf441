// Demo data for a first start: code tables, two shops, an account per built-in type (three counselors).
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { hashPassword, randomPassword } from '../lib/password.ts';

const CODES = {
  'client-type': [['치과', 'dental'], ['성형외과', 'plastic'], ['보험', 'insurance'], ['법률', 'law'], ['교육', 'education']],
  'media-type': [['메타', 'meta'], ['네이버', 'naver'], ['카카오', 'kakao'], ['구글', 'google'], ['틱톡', 'tiktok']],
  'event-type': [['상담 신청', 'consult'], ['무료 체험', 'free-trial'], ['이벤트 응모', 'event']],
} as const;

/** The demo accounts' logins and passwords: one random password each, unless `password` is given (DEMO_PASSWORD). */
interface DemoLogin {
  loginId: string;
  role: string;
  password: string;
}

export async function seedDemo(db: Kysely<Database>, password?: string): Promise<DemoLogin[]> {
  const now = new Date().toISOString();
  for (const [kind, rows] of Object.entries(CODES)) {
    await db
      .insertInto('code_items')
      .values(rows.map(([name, code], i) => ({ kind: kind as keyof typeof CODES, name, code, sort_order: i, active: 1, created_at: now, updated_at: now })))
      .execute();
  }
  const typeId = async (code: string) =>
    (await db.selectFrom('code_items').select('id').where('kind', '=', 'client-type').where('code', '=', code).executeTakeFirstOrThrow()).id;

  const shops = [
    {
      shop_code: 'smile-dental', name: '서울미소치과', client_type_id: await typeId('dental'), company_name: '서울미소치과의원',
      representative: '김미소', business_number: '1078616321', phone: '0212345678', address: '서울특별시 강남구 테헤란로 123, 5층',
      privacy_officer_name: '이정민', privacy_officer_contact: 'privacy@smile-dental.kr',
    },
    {
      shop_code: 'hanbit-insurance', name: '한빛손해보험 강남지점', client_type_id: await typeId('insurance'), company_name: '한빛손해보험(주)',
      representative: '박한빛', business_number: '2208162517', phone: '15881234', address: '서울특별시 서초구 서초대로 77',
      privacy_officer_name: '최보안', privacy_officer_contact: '02-555-0100',
    },
  ];
  const shopIds: number[] = [];
  for (const s of shops) {
    const row = await db.insertInto('shops').values({ ...s, status: 'active', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    shopIds.push(row.id);
  }

  const types = await db.selectFrom('account_types').select(['id', 'builtin_key']).execute();
  const typeOf = (key: string) => types.find((t) => t.builtin_key === key)!.id;
  const people = [
    { login_id: 'manager', name: '정관리', type: 'admin', role: '관리자', shops: [] as number[] },
    { login_id: 'marketer', name: '한마케', type: 'marketer', role: '마케터', shops: shopIds },
    { login_id: 'owner', name: '김미소', type: 'shop-owner', role: '업체관리자', shops: [shopIds[0]!] },
    { login_id: 'counselor', name: '오상담', type: 'counselor', role: '상담원', shops: [shopIds[0]!] },
    { login_id: 'counselor2', name: '유상담', type: 'counselor', role: '상담원', shops: [shopIds[0]!] },
    { login_id: 'counselor3', name: '나상담', type: 'counselor', role: '상담원 (보험)', shops: [shopIds[1]!] },
  ];
  const logins: DemoLogin[] = [];
  for (const p of people) {
    const secret = password ?? randomPassword();
    const hash = await hashPassword(secret);
    logins.push({ loginId: p.login_id, role: p.role, password: secret });
    const row = await db
      .insertInto('accounts')
      .values({
        login_id: p.login_id, name: p.name, phone: null, email: `${p.login_id}@leadroom.example`, account_type_id: typeOf(p.type),
        status: 'active', password_hash: hash, failed_logins: 0, locked_until: null, last_login_at: null, last_login_ip: null,
        password_changed_at: now, created_at: now, updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (p.shops.length) {
      await db.insertInto('shop_permissions').values(p.shops.map((shop_id) => ({ account_id: row.id, shop_id, created_at: now }))).execute();
    }
  }
  return logins;
}
