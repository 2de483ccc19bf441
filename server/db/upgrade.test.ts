// A live database is the normal case: a database as an earlier release left it is brought to this
// code by its migrations and start, on both engines — each migration's corrections, and the screens
// built-in types gain.
import { afterEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrateToLatest, migrateUpTo } from './migrate.ts';
import type { DbHandle } from './dialect.ts';
import { grantNewScreens } from './seed.ts';
import { freshDatabase, testApp } from '../test-helpers.ts';
import { SCREENS } from '../../contracts/screens.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema of the previous release, not today's (as migrations see it)
type OldDb = Kysely<any>;

let handle: DbHandle | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

const NOW = '2026-11-30T03:00:00.000Z';
/** The shop area's screens as the previous release's built-in 업체관리자 held them (read on all, CPA 관리 and 광고 현황 too). */
const OLD_OWNER = {
  'shop-dashboard': 'read', 'database-status': 'write', 'contract-status': 'read', 'contract-management': 'read',
  'cpa-management': 'read', 'advertising-status': 'read', 'landing-script-management': 'none', 'landing-status': 'read',
};

async function insertType(db: OldDb, name: string, area: 'admin' | 'shop', builtinKey: string | null, permissions: Record<string, string>) {
  await db
    .insertInto('account_types')
    .values({
      name, area, data_scope: 'all', permissions: JSON.stringify(permissions), can_unmask: 0, can_export: 0, builtin_key: builtinKey,
      sort_order: 0, active: 1, created_at: NOW, updated_at: NOW,
    })
    .execute();
}

describe('2026-12-01-agency-side on a database of the previous release', () => {
  it('gives every type its side and takes the agency’s screens from client types, custom ones included', async () => {
    handle = await freshDatabase();
    const db = handle.db as OldDb;
    await migrateUpTo(db, '2026-11-30-shared-state');
    await insertType(db, '최고관리자', 'admin', 'superadmin', { dashboard: 'write', 'cpa-management': 'write' });
    await insertType(db, '마케터', 'shop', 'marketer', { 'cpa-management': 'write', 'advertising-status': 'write', 'contract-management': 'write' });
    await insertType(db, '업체관리자', 'shop', 'shop-owner', OLD_OWNER);
    await insertType(db, '상담원', 'shop', 'counselor', { 'database-status': 'write' });
    // A client type an administrator once granted CPA 관리, 광고 현황, 랜딩 스크립트 and 계약 관리 편집.
    await insertType(db, '지점장', 'shop', null, {
      'cpa-management': 'write', 'advertising-status': 'read', 'landing-script-management': 'write', 'contract-management': 'write', 'cs-stats': 'read',
    });
    await insertType(db, '감사', 'admin', null, { dashboard: 'read', 'cpa-management': 'read' });

    expect(await migrateToLatest(db)).toContain('2026-12-01-agency-side');

    const rows = await db.selectFrom('account_types').select(['name', 'side', 'permissions']).orderBy('id').execute();
    const types = Object.fromEntries(rows.map((r: { name: string; side: string; permissions: string }) => [r.name, { side: r.side, permissions: JSON.parse(r.permissions) }]));
    expect(Object.fromEntries(Object.entries(types).map(([k, v]) => [k, v.side]))).toEqual({
      최고관리자: 'agency', 마케터: 'agency', 업체관리자: 'client', 상담원: 'client', 지점장: 'client', 감사: 'agency',
    });
    expect(types['업체관리자']!.permissions).toEqual({ ...OLD_OWNER, 'cpa-management': 'none', 'advertising-status': 'none' });
    expect(types['지점장']!.permissions).toEqual({
      'cpa-management': 'none', 'advertising-status': 'none', 'landing-script-management': 'none', 'contract-management': 'read', 'cs-stats': 'read',
    });
    // The agency's types keep what they had.
    expect(types['마케터']!.permissions).toEqual({ 'cpa-management': 'write', 'advertising-status': 'write', 'contract-management': 'write' });
    expect(types['감사']!.permissions).toEqual({ dashboard: 'read', 'cpa-management': 'read' });
    expect(types['상담원']!.permissions).toEqual({ 'database-status': 'write' });
  });
});

describe('built-in types and the screens added after their matrices were stored', () => {
  const matrixOf = async (db: OldDb, key: string) =>
    JSON.parse((await db.selectFrom('account_types').select('permissions').where('builtin_key', '=', key).executeTakeFirstOrThrow()).permissions) as Record<string, string>;
  const store = (db: OldDb, key: string, m: Record<string, string>) =>
    db.updateTable('account_types').set({ permissions: JSON.stringify(m) }).where('builtin_key', '=', key).execute();

  it('grants each missing screen its built-in level at start, keeps what is stored, and gives a client type no agency screen', async () => {
    handle = await freshDatabase();
    const db = handle.db as OldDb;
    const first = await testApp({}, { database: handle });
    await first.app.close();
    // As a release whose catalogue lacked 시스템 예약, DB 캘린더, CPA 관리 and 계약 관리 stored them; 상담원's 상담 통계 set to none on purpose.
    const drop = (m: Record<string, string>, ...keys: string[]) => Object.fromEntries(Object.entries(m).filter(([k]) => !keys.includes(k)));
    await store(db, 'superadmin', drop(await matrixOf(db, 'superadmin'), 'system-reservation', 'cpa-management'));
    await store(db, 'counselor', { ...drop(await matrixOf(db, 'counselor'), 'database-calendar'), 'cs-stats': 'none' });
    await store(db, 'shop-owner', drop(await matrixOf(db, 'shop-owner'), 'cpa-management', 'contract-management', 'database-status'));

    const t = await testApp({}, { database: handle });
    handle = undefined;
    try {
      const admin = await t.login();
      expect((await admin.get('/api/system-reservations')).statusCode).toBe(200);
      expect(await matrixOf(db, 'superadmin')).toMatchObject({ 'system-reservation': 'write', 'cpa-management': 'write' });
      expect(await matrixOf(db, 'counselor')).toMatchObject({ 'database-calendar': 'read', 'cs-stats': 'none' });
      // The client's owner: its own lead list to edit, contracts to read, and never the agency's CPA.
      expect(await matrixOf(db, 'shop-owner')).toMatchObject({ 'database-status': 'write', 'contract-management': 'read', 'cpa-management': 'none' });
      for (const m of [await matrixOf(db, 'superadmin'), await matrixOf(db, 'counselor')]) expect(Object.keys(m).sort()).toEqual(SCREENS.map((s) => s.key).sort());
      // Once complete, a matrix is left alone.
      expect(await grantNewScreens(t.app.db, NOW)).toEqual({});
    } finally {
      await t.close();
    }
  });
});
