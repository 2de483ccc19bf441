// Test support for landing pages and intake: a shop with a published privacy policy,
// landings, signed form tokens and submissions as a browser would send them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import { testApp, type Client, type TestApp } from './test-helpers.ts';
import { openDatabase, type DbHandle } from './db/dialect.ts';
import type { Config } from './config.ts';
import type { Resolver } from './lib/outbound.ts';
import { landingSecret, signRenderStamp } from './lib/render-stamp.ts';

export interface LandingTestApp extends TestApp {
  dataDir: string;
  admin: Client;
  shopId: number;
  shopCode: string;
}

/**
 * A fresh app with its own data directory, an administrator client and one shop with a published policy.
 * `onDisk`: SQLite in a file under the data directory, as `npm start` runs it (intake then commits
 * on its writer thread); `database`: that one (the app's from then on); otherwise the test dialect's fresh database.
 */
export async function landingTestApp(config: Partial<Config> = {}, o: { onDisk?: boolean; database?: DbHandle; resolveHost?: Resolver } = {}): Promise<LandingTestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-test-'));
  const database = o.database ?? (o.onDisk ? await openDatabase({ url: path.join(dataDir, 'leadroom.sqlite') }) : undefined);
  const t = await testApp({ dataDir, intakeRateLimit: 0, ...config }, { ...(database ? { database } : {}), ...(o.resolveHost ? { resolveHost: o.resolveHost } : {}) });
  const admin = await t.login();
  const shop = await admin.post('/api/shops', {
    shopCode: 'smile', name: '미소치과', companyName: '미소치과의원', representative: '김미소', businessNumber: '1078616321',
    phone: '02-1234-5678', address: '서울 강남구', privacyOfficerName: '이보호', privacyOfficerContact: 'privacy@smile.kr',
  });
  if (shop.statusCode !== 201) throw new Error(`shop: ${shop.statusCode} ${shop.body}`);
  const shopId = shop.json().id as number;
  const operator = await admin.put('/api/operator', OPERATOR);
  if (operator.statusCode !== 200) throw new Error(`operator: ${operator.statusCode} ${operator.body}`);
  await publishPolicy(admin, shopId);
  return {
    ...t, dataDir, admin, shopId, shopCode: 'smile',
    async close() {
      await t.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The agency's details, named as collector on privacy pages. */
const OPERATOR = {
  companyName: '(주)테스트애드', representative: '정대행', businessNumber: '2148812345', phone: '02-1544-7788',
  address: '서울 마포구 양화로 45', privacyOfficerName: '윤보안', privacyOfficerContact: 'privacy@test-ad.kr',
};

export const policyInput = (extra: Record<string, unknown> = {}) => ({
  purpose: '상담 신청 접수 및 안내', items: '이름, 연락처', retentionDays: 180,
  thirdParties: [], officerName: '', officerContact: '', body: '', ...extra,
});

export async function publishPolicy(c: Client, shopId: number, extra: Record<string, unknown> = {}): Promise<number> {
  const created = await c.post(`/api/shops/${shopId}/privacy-policies`, policyInput(extra));
  if (created.statusCode !== 201) throw new Error(`policy: ${created.statusCode} ${created.body}`);
  const id = created.json().id as number;
  const published = await c.post(`/api/shops/${shopId}/privacy-policies/${id}/publish`);
  if (published.statusCode !== 200) throw new Error(`publish policy: ${published.statusCode} ${published.body}`);
  return id;
}

export const landingInput = (extra: Record<string, unknown> = {}) => ({
  landingCode: 'implant',
  title: '임플란트 상담 이벤트',
  content: {
    headline: '임플란트 무료 상담', subheadline: '11월 한정 혜택', body: '첫 문단입니다.\n\n둘째 문단입니다.',
    bullets: ['정밀 3D CT 검사', '야간 진료'], ctaLabel: '상담 신청하기',
  },
  formFields: [
    { key: 'area', label: '지역', type: 'select', options: ['서울', '경기'], required: true },
    { key: 'time', label: '통화 가능 시간', type: 'radio', options: ['오전', '오후'], required: false },
  ],
  ...extra,
});

/** Creates and publishes a landing; returns its id. */
export async function openLanding(t: LandingTestApp, extra: Record<string, unknown> = {}): Promise<number> {
  const created = await t.admin.post(`/api/shops/${t.shopId}/landings`, landingInput(extra));
  if (created.statusCode !== 201) throw new Error(`landing: ${created.statusCode} ${created.body}`);
  const id = created.json().id as number;
  const published = await t.admin.post(`/api/shops/${t.shopId}/landings/${id}/publish`);
  if (published.statusCode !== 200) throw new Error(`publish landing: ${published.statusCode} ${published.body}`);
  return id;
}

/** Sessions that outlive the days, weeks and months a test moves the clock through. */
export const LONG_SESSIONS: Partial<Config> = { sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 };

/** Creates and publishes the second landing (checkup, 건강검진 이벤트); returns its id. */
export const openCheckup = (t: LandingTestApp, extra: Record<string, unknown> = {}) => openLanding(t, { landingCode: 'checkup', title: '건강검진 이벤트', ...extra });

/** Adds a 매체 (media type code); returns its id. */
export async function addMedium(t: LandingTestApp, name: string, code: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await t.admin.post('/api/codes/media-type', { name, code, ...extra });
  if (res.statusCode !== 201) throw new Error(`media type: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

/** A form token as if the page had been rendered `msAgo` before the app's clock. */
export const formToken = (t: LandingTestApp, landingId: number, msAgo = 10_000) =>
  signRenderStamp(landingSecret(t.dataDir), landingId, new Date(t.clock.current.getTime() - msAgo));

export interface SubmitOptions {
  /** Post form-encoded like a browser without JavaScript. */
  form?: boolean;
  ip?: string;
  headers?: Record<string, string>;
}

export async function submit(t: LandingTestApp, body: Record<string, unknown>, o: SubmitOptions = {}) {
  const payload = o.form
    ? new URLSearchParams(
        Object.entries(body).flatMap(([k, v]): Array<[string, string]> => (Array.isArray(v) ? v.map((x) => [k, String(x)]) : v === undefined ? [] : [[k, String(v)]])),
      ).toString()
    : JSON.stringify(body);
  const res = await t.app.inject({
    method: 'POST', url: '/api/public/leads', remoteAddress: o.ip ?? '203.0.113.7', payload,
    headers: {
      host: 'localhost', 'user-agent': 'Mozilla/5.0 (iPhone) test',
      'content-type': o.form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...o.headers,
    },
  });
  // A lead's `created` event and delivery jobs follow its commit by a moment: here, at once.
  await t.app.links.leadFollowUps();
  return res;
}

/** A valid submission for a landing made with landingInput(). */
export const leadBody = (t: LandingTestApp, landingId: number, extra: Record<string, unknown> = {}) => ({
  shopCode: t.shopCode, landingCode: 'implant', name: '홍길동', phone: '010-1234-5678', privacyConsent: true,
  area: '서울', _t: formToken(t, landingId), ...extra,
});

export async function countRows(t: TestApp, table: 'leads' | 'lead_events' | 'blocked_submissions' | 'visits'): Promise<number> {
  const row = await t.app.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A shop-area account of a built-in type (marketer, shop-owner, counselor) permitted the test shop, logged in. */
export async function shopAccount(t: LandingTestApp, loginId: string, builtinKey: string): Promise<Client> {
  const type = await t.app.db.selectFrom('account_types').select('id').where('builtin_key', '=', builtinKey).executeTakeFirstOrThrow();
  const password = 'Shop-pass-2026';
  const created = await t.admin.post('/api/accounts', { loginId, password, name: loginId, accountTypeId: type.id });
  if (created.statusCode !== 201) throw new Error(`account: ${created.statusCode} ${created.body}`);
  const permitted = await t.admin.put(`/api/shop-permissions/${created.json().id}`, { shopIds: [t.shopId] });
  if (permitted.statusCode >= 300) throw new Error(`shop permission: ${permitted.statusCode} ${permitted.body}`);
  return t.login(loginId, password);
}

/** An account's id by its login id. */
export async function accountIdOf(t: TestApp, loginId: string): Promise<number> {
  return (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
}

/**
 * A fresh landing test app with one open landing for every test of the calling file (registers
 * beforeEach and afterEach); `use` hands them to the file's own variables. With `listen`, the app also
 * listens on 127.0.0.1 and `base` is its address (http://127.0.0.1:port).
 */
export function eachLandingTest(use: (t: LandingTestApp, landingId: number, base: string) => void, opts: { listen?: boolean } = {}): void {
  let current: LandingTestApp | undefined;
  beforeEach(async () => {
    current = await landingTestApp();
    const landingId = await openLanding(current);
    use(current, landingId, opts.listen ? await current.app.listen({ host: '127.0.0.1', port: 0 }) : '');
  });
  afterEach(async () => {
    await current?.close();
  });
}
