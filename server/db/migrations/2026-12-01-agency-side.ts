// Frozen: agency and client are two sides. Every account type gets a side — the built-in
// 최고관리자, 관리자 and 마케터 the agency's, 업체관리자 and 상담원 the client's, a custom type the
// agency's in the administrator area and the client's in the shop area (an administrator moves
// a custom agency type back in 계정 유형) — and client types lose what only the agency may have:
// CPA 관리, 광고 현황 and 랜딩 스크립트 at all, 계약 관리 beyond reading. The lists are written out
// here, not read from contracts/, so the migration does the same on every database whatever
// the catalogue says later. Never edit; add a new dated migration instead.
import type { Kysely } from 'kysely';

const AGENCY_BUILTINS = ['superadmin', 'admin', 'marketer'];
const CLIENT_BUILTINS = ['shop-owner', 'counselor'];
const AGENCY_SCREENS = ['cpa-management', 'advertising-status', 'landing-script-management'];
const AGENCY_WRITE_SCREENS = ['contract-management'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('account_types').addColumn('side', 'text', (c) => c.notNull().defaultTo('client')).execute();

  const types = (await db.selectFrom('account_types').select(['id', 'area', 'builtin_key', 'permissions']).execute()) as Array<{
    id: number; area: string; builtin_key: string | null; permissions: string;
  }>;
  for (const t of types) {
    const side = t.builtin_key && AGENCY_BUILTINS.includes(t.builtin_key) ? 'agency'
      : t.builtin_key && CLIENT_BUILTINS.includes(t.builtin_key) ? 'client'
      : t.area === 'admin' ? 'agency' : 'client';
    const matrix = JSON.parse(t.permissions) as Record<string, string>;
    if (side === 'client') {
      for (const key of AGENCY_SCREENS) if (key in matrix) matrix[key] = 'none';
      for (const key of AGENCY_WRITE_SCREENS) if (matrix[key] === 'write') matrix[key] = 'read';
    }
    await db.updateTable('account_types').set({ side, permissions: JSON.stringify(matrix) }).where('id', '=', t.id).execute();
  }
}
