// Data every database needs (built-in account types, the first administrator) and,
// unless SEED_DEMO=0, demo data on an empty database.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import type { Config } from '../config.ts';
import { BUILTIN_ACCOUNT_TYPES, type PermissionMatrix } from '../../contracts/permissions.ts';
import { withNewScreens } from '../../contracts/account-types.ts';
import { hashPassword, randomPassword } from '../lib/password.ts';
import { passwordProblem } from '../../contracts/rules.ts';
import { seedDemo } from './demo-data.ts';
import { seedDemoLandings } from './demo-landings.ts';
import { seedDemoLeads } from './demo-leads.ts';
import { seedDemoMoney } from './demo-money.ts';
import { seedDemoDelivery } from './demo-delivery.ts';
import { seedDemoSla } from './demo-sla.ts';
import { seedDemoExperiments } from './demo-experiments.ts';

export async function ensureEssentials(db: Kysely<Database>, config: Config, say: (m: string) => void, at = new Date()): Promise<void> {
  const now = at.toISOString();
  const existing = await db.selectFrom('account_types').select(['builtin_key']).execute();
  const have = new Set(existing.map((r) => r.builtin_key));
  let order = existing.length;
  for (const t of BUILTIN_ACCOUNT_TYPES) {
    if (have.has(t.key)) continue;
    await db
      .insertInto('account_types')
      .values({
        name: t.name, area: t.area, side: t.side, data_scope: t.dataScope, permissions: JSON.stringify(t.permissions),
        can_unmask: t.canUnmask ? 1 : 0, can_export: t.canExport ? 1 : 0, builtin_key: t.key,
        sort_order: order++, active: 1, created_at: now, updated_at: now,
      })
      .execute();
  }

  await grantNewScreens(db, now);

  const anyAccount = await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst();
  if (anyAccount) return;

  const superType = await db.selectFrom('account_types').select('id').where('builtin_key', '=', 'superadmin').executeTakeFirstOrThrow();
  let password = config.initialAdminPassword;
  if (password && passwordProblem(password)) throw new Error(`INITIAL_ADMIN_PASSWORD: ${passwordProblem(password)}`);
  const generated = !password;
  password ??= randomPassword();
  await db
    .insertInto('accounts')
    .values({
      login_id: 'admin', name: '최고관리자', phone: null, email: null, account_type_id: superType.id, status: 'active',
      password_hash: await hashPassword(password), failed_logins: 0, locked_until: null, last_login_at: null,
      last_login_ip: null, password_changed_at: now, created_at: now, updated_at: now,
      // A generated password is for the first login only; one given in the environment is the operator's own.
      must_change_password: generated ? 1 : 0,
    })
    .execute();
  say(generated ? `관리자: admin / ${password}  (한 번만 표시됩니다. 첫 로그인 때 새 비밀번호를 정합니다)` : '관리자: admin (INITIAL_ADMIN_PASSWORD의 비밀번호)');

  if (config.seedDemo) {
    const logins = await seedDemo(db, config.demoPassword);
    await seedDemoLandings(db);
    await seedDemoLeads(db, at);
    await seedDemoMoney(db, at);
    await seedDemoDelivery(db, at);
    await seedDemoSla(db, at);
    await seedDemoExperiments(db, at);
    for (const l of logins) say(`데모 ${l.role}: ${l.loginId} / ${config.demoPassword ? '(DEMO_PASSWORD)' : l.password}`);
  }
}

/**
 * Built-in types receive the screens added since their matrices were stored, by one rule
 * (withNewScreens), at every start under the set-up lock — no data migration to remember when a
 * screen is added. Answers the screens added per type (empty when every matrix is complete).
 */
export async function grantNewScreens(db: Kysely<Database>, now: string): Promise<Record<string, string[]>> {
  const rows = await db.selectFrom('account_types').select(['id', 'name', 'area', 'side', 'builtin_key', 'permissions']).where('builtin_key', 'is not', null).execute();
  const granted: Record<string, string[]> = {};
  for (const r of rows) {
    const { permissions, added } = withNewScreens({
      builtinKey: r.builtin_key!, area: r.area, side: r.side, permissions: JSON.parse(r.permissions) as Partial<PermissionMatrix>,
    });
    if (!added.length) continue;
    await db.updateTable('account_types').set({ permissions: JSON.stringify(permissions), updated_at: now }).where('id', '=', r.id).execute();
    granted[r.name] = added;
  }
  return granted;
}
