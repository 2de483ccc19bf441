// API keys of the pull API: made and shown once, kept only as a hash, checked on every pull,
// revoked for good, their last use noted at most once a minute, every grant and revocation in
// the audit trail — on both engines.
import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, shopAccount, type LandingTestApp } from '../../test-landings.ts';
import { API_KEY_RE, MAX_ACTIVE_API_KEYS } from '../../../contracts/api-keys.ts';
import { KEY_MESSAGES } from './api-keys.service.ts';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

describe('API keys', () => {
  let t: LandingTestApp;
  const base = () => `/api/shops/${t.shopId}/api-keys`;
  const create = (body: Record<string, unknown>, c = t.admin) => c.post(base(), body);
  const pull = (headers: Record<string, string>, ip = '198.51.100.20') =>
    t.app.inject({ method: 'GET', url: '/api/v1/leads', headers, remoteAddress: ip });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const keyRow = (id: number) => t.app.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const audits = (action: string) =>
    t.app.db.selectFrom('audit_events').select(['action', 'target', 'target_id', 'detail', 'account_id']).where('action', '=', action).orderBy('id').execute();

  beforeEach(async () => {
    t = await landingTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('shows a new key once and keeps only its hash and first characters', async () => {
    const res = await create({ name: '사내 CRM', fullPhone: true });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.key).toMatch(API_KEY_RE);
    expect(created).toMatchObject({ name: '사내 CRM', prefix: created.key.slice(0, 12), fullPhone: true, createdByName: '최고관리자', lastUsedAt: null, revokedAt: null });
    expect(created.prefix).toMatch(/^lr_live_[0-9A-Za-z]{4}$/);

    const row = await keyRow(created.id);
    expect(row).toMatchObject({ shop_id: t.shopId, prefix: created.prefix, key_hash: sha256(created.key), full_phone: 1, created_at: '2026-11-21T01:00:00.000Z' });
    // Nowhere in the row is the key itself.
    expect(Object.values(row).some((v) => typeof v === 'string' && v.includes(created.key.slice(12)))).toBe(false);

    // The list never carries it again.
    const list = await t.admin.get(base());
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toHaveLength(1);
    expect(list.json().items[0]).not.toHaveProperty('key');
    expect(list.body).not.toContain(created.key.slice(12));

    // Two keys are never alike.
    const other = (await create({ name: '백업' })).json();
    expect(other.key).not.toBe(created.key);
    expect(other.fullPhone).toBe(false);

    const [audit] = await audits('api-key-create');
    expect(audit).toMatchObject({ target: 'api-key', target_id: String(created.id) });
    expect(JSON.parse(audit!.detail!)).toEqual({ shopId: t.shopId, name: '사내 CRM', prefix: created.prefix, fullPhone: true });
  });

  it('answers a pull with the key in either header, and refuses a missing, malformed, unknown or revoked key with 401', async () => {
    const { key, id } = (await create({ name: 'CRM' })).json();
    expect((await pull(bearer(key))).statusCode).toBe(200);
    expect((await pull({ authorization: `bearer  ${key}` })).statusCode).toBe(200);
    expect((await pull({ 'x-api-key': key })).statusCode).toBe(200);

    const refused = async (headers: Record<string, string>, message: string) => {
      const res = await pull(headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="leadroom"');
      expect(res.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message } });
    };
    await refused({}, KEY_MESSAGES.missing);
    await refused({ authorization: `Basic ${Buffer.from(`x:${key}`).toString('base64')}` }, KEY_MESSAGES.missing);
    await refused(bearer('lr_live_short'), KEY_MESSAGES.invalid);
    await refused(bearer(`${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`), KEY_MESSAGES.invalid);
    // A session cookie is no key.
    const cookie = await t.admin.request('GET', '/api/v1/leads');
    expect(cookie.statusCode).toBe(401);

    const revoked = await t.admin.post(`${base()}/${id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id, revokedAt: '2026-11-21T01:00:00.000Z' });
    await refused(bearer(key), KEY_MESSAGES.revoked);
    await refused({ 'x-api-key': key }, KEY_MESSAGES.revoked);

    // Revoking again changes nothing and records nothing more.
    t.clock.advanceMinutes(5);
    expect((await t.admin.post(`${base()}/${id}/revoke`)).json().revokedAt).toBe('2026-11-21T01:00:00.000Z');
    const revocations = await audits('api-key-revoke');
    expect(revocations).toHaveLength(1);
    expect(JSON.parse(revocations[0]!.detail!)).toMatchObject({ shopId: t.shopId, name: 'CRM' });

    // Revoked keys sort after those in use.
    await create({ name: '새 키' });
    expect((await t.admin.get(base())).json().items.map((k: { name: string }) => k.name)).toEqual(['새 키', 'CRM']);
  });

  it('notes the last use at most once a minute', async () => {
    const { key, id } = (await create({ name: 'CRM' })).json();
    await pull(bearer(key), '198.51.100.20');
    expect(await keyRow(id)).toMatchObject({ last_used_at: '2026-11-21T01:00:00.000Z', last_used_ip: '198.51.100.20' });
    t.clock.current = new Date('2026-11-21T01:00:59.000Z');
    await pull(bearer(key), '198.51.100.21');
    expect(await keyRow(id)).toMatchObject({ last_used_at: '2026-11-21T01:00:00.000Z', last_used_ip: '198.51.100.20' });
    t.clock.current = new Date('2026-11-21T01:01:01.000Z');
    await pull(bearer(key), '198.51.100.22');
    expect(await keyRow(id)).toMatchObject({ last_used_at: '2026-11-21T01:01:01.000Z', last_used_ip: '198.51.100.22' });
    expect((await t.admin.get(base())).json().items[0]).toMatchObject({ lastUsedAt: '2026-11-21T01:01:01.000Z', lastUsedIp: '198.51.100.22' });
    // A refused key is not noted.
    await t.admin.post(`${base()}/${id}/revoke`);
    t.clock.advanceMinutes(10);
    await pull(bearer(key), '198.51.100.23');
    expect((await keyRow(id)).last_used_ip).toBe('198.51.100.22');
  });

  it('checks the input, the shop, the limit of keys in use and who may grant full numbers', async () => {
    const empty = await create({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ name: '키 이름을 입력하세요. (예: 사내 CRM 연동)' });

    // Another shop's key is not found through this shop.
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' });
    const foreign = (await t.admin.post(`/api/shops/${other.json().id}/api-keys`, { name: '남의 키' })).json();
    expect((await t.admin.post(`${base()}/${foreign.id}/revoke`)).statusCode).toBe(404);
    expect((await keyRow(foreign.id)).revoked_at).toBeNull();

    for (let i = 0; i < MAX_ACTIVE_API_KEYS; i++) expect((await create({ name: `키 ${i}` })).statusCode).toBe(201);
    const tooMany = await create({ name: '하나 더' });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error.message).toBe(KEY_MESSAGES.tooMany);
    await t.admin.post(`${base()}/${(await t.admin.get(base())).json().items[0].id}/revoke`);
    expect((await create({ name: '하나 더' })).statusCode).toBe(201);

    // A marketer (no phone numbers in full) makes masked keys only; a counselor none at all.
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const denied = await marketer.post(base(), { name: '마케터 키', fullPhone: true });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe(KEY_MESSAGES.fullPhoneDenied);
    await t.admin.post(`${base()}/${(await t.admin.get(base())).json().items[0].id}/revoke`);
    expect((await marketer.post(base(), { name: '마케터 키' })).statusCode).toBe(201);
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(base())).statusCode).toBe(200);
    const counselor = await shopAccount(t, 'csr1', 'counselor');
    expect((await counselor.get(base())).statusCode).toBe(403);
    expect((await counselor.post(base(), { name: '상담원 키' })).statusCode).toBe(403);
  });
});
