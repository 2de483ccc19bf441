import type { Kysely } from 'kysely';
import type { AccountUpdateRow, Database } from '../../db/schema.ts';
import { accountsRepository, type AccountView } from './accounts.repository.ts';
import { badRequest, conflict, forbidden, foundOr404, notFound } from '../../lib/errors.ts';
import { uniqueOr409 } from '../../db/write-conflicts.ts';
import { audit, auditBy, type Actor } from '../audit/audit.service.ts';
import { addMinutes, type Clock } from '../../lib/clock.ts';
import { hashPassword, randomPassword } from '../../lib/password.ts';
import { inTransaction, serialTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { ACCOUNT_LOCK_MINUTES, type Account, type AccountCreate, type AccountUpdate } from '../../../contracts/accounts.ts';
import type { AccountListQuery } from '../../../contracts/accounts.ts';

const SUPERADMIN = 'superadmin';
const LOGIN_TAKEN = '이미 사용 중인 아이디입니다.';
const LAST_SUPERADMIN = 'accounts:last-superadmin';

function toAccount(r: AccountView): Account {
  return {
    id: r.id, loginId: r.login_id, name: r.name, phone: r.phone, email: r.email, accountTypeId: r.account_type_id,
    accountTypeName: r.type_name, status: r.status, failedLogins: r.failed_logins, lockedUntil: r.locked_until,
    lastLoginAt: r.last_login_at, shopCount: Number(r.shop_count), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

const unlocked = { status: 'active' as const, failed_logins: 0, locked_until: null };

/**
 * Account changes that could leave no active 최고관리자 (a type change, disabling, locking) check
 * and write in one transaction, serial with each other: two 최고관리자 disabling each other at
 * the same moment cannot both pass the check.
 */
export function accountsService(db: Kysely<Database>, clock: Clock) {
  const ops = accountOperations(db, clock);
  return {
    ...ops,
    // Every change and its audit entry commit together.
    create: (input: AccountCreate, actor: Actor) => inTransaction(db, (trx) => accountOperations(trx, clock).create(input, actor)),
    resetPassword: (id: number, password: string, actor: Actor) => inTransaction(db, (trx) => accountOperations(trx, clock).resetPassword(id, password, actor)),
    unlock: (id: number, actor: Actor) => inTransaction(db, (trx) => accountOperations(trx, clock).unlock(id, actor)),
    resetFromConsole: (loginId: string | undefined) => inTransaction(db, (trx) => accountOperations(trx, clock).resetFromConsole(loginId)),
    update: (id: number, input: AccountUpdate, actor: Actor) =>
      serialTransaction(db, LAST_SUPERADMIN, (trx) => accountOperations(trx, clock).update(id, input, actor)),
    lock: (id: number, actor: Actor) => serialTransaction(db, LAST_SUPERADMIN, (trx) => accountOperations(trx, clock).lock(id, actor)),
  };
}

function accountOperations(db: Kysely<Database>, clock: Clock) {
  const repo = accountsRepository(db);

  const load = (id: number) => foundOr404(repo.find(id), '계정을 찾을 수 없습니다.');
  const get = async (id: number) => toAccount(await load(id));

  /** Only a 최고관리자 may change a 최고관리자 account (or its password). */
  function guardSuperadmin(target: AccountView, actor: Actor) {
    if (target.builtin_key === SUPERADMIN && !actor.superadmin) throw forbidden('최고관리자 계정은 최고관리자만 변경할 수 있습니다.');
  }

  /** The last active 최고관리자 account must stay an active 최고관리자. */
  async function guardLastSuperadmin(target: AccountView, field: string, message: string) {
    if (target.builtin_key !== SUPERADMIN || target.status !== 'active') return;
    if ((await repo.otherActiveSuperadmins(target.id)) === 0) throw conflict(message, { [field]: message });
  }

  /** The type an account is given must exist and be in use; the 최고관리자 type is given only by a 최고관리자. */
  async function checkType(accountTypeId: number, actor: Actor) {
    const type = await repo.findType(accountTypeId);
    if (!type) throw badRequest('계정 유형을 찾을 수 없습니다.', { accountTypeId: '계정 유형을 찾을 수 없습니다.' });
    if (!type.active) throw badRequest('사용 중지된 계정 유형입니다.', { accountTypeId: '사용 중지된 계정 유형입니다.' });
    if (type.builtin_key === SUPERADMIN && !actor.superadmin) throw forbidden('최고관리자 유형은 최고관리자만 부여할 수 있습니다.');
    return type;
  }

  async function temporaryPassword(cur: AccountView, password: string): Promise<AccountUpdateRow> {
    return {
      password_hash: await hashPassword(password), password_changed_at: clock().toISOString(), must_change_password: 1,
      ...(cur.status === 'locked' ? unlocked : { failed_logins: 0, locked_until: null }),
    };
  }

  async function save(target: AccountView, row: AccountUpdateRow, actor: Actor, action: string, detail?: object, killSessions = false) {
    const at = clock();
    await repo.update(target.id, { ...row, updated_at: at.toISOString() });
    if (killSessions) await repo.deleteSessions(target.id);
    await auditBy(db, actor, { action, target: 'account', targetId: target.id, detail: { loginId: target.login_id, ...(detail ?? {}) } }, at);
    return get(target.id);
  }

  return {
    list: async (f: AccountListQuery) => itemsOf(await repo.list(f), toAccount),
    get,

    /** A new account; a shop-area account gets the shops chosen with it (administrator areas enter every shop). */
    async create(input: AccountCreate, actor: Actor) {
      const type = await checkType(input.accountTypeId, actor);
      const shopIds = type.area === 'shop' ? [...new Set(input.shopIds ?? [])] : [];
      const existing = await repo.existingShopIds(shopIds);
      if (shopIds.some((s) => !existing.has(s))) throw badRequest('존재하지 않는 업체가 포함되어 있습니다.', { shopIds: '존재하지 않는 업체가 포함되어 있습니다.' });
      if (await repo.findByLoginId(input.loginId)) throw conflict(LOGIN_TAKEN, { loginId: LOGIN_TAKEN });
      const at = clock();
      const now = at.toISOString();
      const passwordHash = await hashPassword(input.password);
      const { id } = await uniqueOr409(
        () =>
          repo.insert({
            login_id: input.loginId, name: input.name, phone: input.phone ?? null, email: input.email ?? null,
            account_type_id: input.accountTypeId, status: 'active', password_hash: passwordHash,
            failed_logins: 0, locked_until: null, last_login_at: null, last_login_ip: null, password_changed_at: now,
            created_at: now, updated_at: now,
          }),
        'loginId', LOGIN_TAKEN,
      );
      await repo.grantShops(id, shopIds, now);
      const { password: _password, ...detail } = input;
      await auditBy(db, actor, { action: 'account.create', target: 'account', targetId: id, detail: { ...detail, shopIds } }, at);
      return get(id);
    },

    async update(id: number, input: AccountUpdate, actor: Actor) {
      const cur = await load(id);
      const row: AccountUpdateRow = { name: input.name, phone: input.phone ?? null, email: input.email ?? null };
      const typeChanged = input.accountTypeId !== cur.account_type_id;
      const disabling = input.status === 'disabled' && cur.status !== 'disabled';
      // The rules about oneself and the last 최고관리자 come first: they hold whoever asks.
      if (typeChanged) {
        const message = '자신의 계정 유형은 변경할 수 없습니다.';
        if (id === actor.id) throw conflict(message, { accountTypeId: message });
        await guardLastSuperadmin(cur, 'accountTypeId', '마지막 최고관리자 계정의 유형은 변경할 수 없습니다.');
        row.account_type_id = input.accountTypeId;
      }
      if (disabling) {
        const message = '자신의 계정은 사용 중지할 수 없습니다.';
        if (id === actor.id) throw conflict(message, { status: message });
        await guardLastSuperadmin(cur, 'status', '마지막 최고관리자 계정은 사용 중지할 수 없습니다.');
        row.status = 'disabled';
      }
      guardSuperadmin(cur, actor);
      if (typeChanged) await checkType(input.accountTypeId, actor);
      // Choosing 정상 for a locked or disabled account lifts the lock as well.
      if (input.status === 'active' && cur.status !== 'active') Object.assign(row, unlocked);
      return save(cur, row, actor, 'account.update', input, disabling);
    },

    /**
     * Sets a temporary password, lifts a lock and ends the account's sessions; the owner
     * chooses a password of their own at the next login.
     */
    async resetPassword(id: number, password: string, actor: Actor) {
      const cur = await load(id);
      guardSuperadmin(cur, actor);
      return save(cur, await temporaryPassword(cur, password), actor, 'account.reset-password', undefined, true);
    },

    /** `npm run admin:reset-password`: a new one-time password for someone locked out of the back office. */
    async resetFromConsole(loginId: string | undefined) {
      const cur = await repo.findForConsoleReset(loginId);
      if (!cur) throw notFound(loginId ? `'${loginId}' 계정이 없습니다.` : '최고관리자 계정이 없습니다.');
      const password = randomPassword();
      const at = clock();
      await repo.update(cur.id, { ...(await temporaryPassword(cur, password)), updated_at: at.toISOString() });
      await repo.deleteSessions(cur.id);
      await audit(db, { accountId: null, action: 'account.reset-password', target: 'account', targetId: cur.id, detail: { loginId: cur.login_id, via: 'console' } }, at);
      return { loginId: cur.login_id, password, disabled: cur.status === 'disabled' };
    },

    async unlock(id: number, actor: Actor) {
      const cur = await load(id);
      if (cur.status === 'disabled') throw conflict('사용 중지된 계정입니다. 잠금 해제 대신 사용 재개하세요.');
      return save(cur, unlocked, actor, 'account.unlock');
    },

    async lock(id: number, actor: Actor) {
      const cur = await load(id);
      if (id === actor.id) throw conflict('자신의 계정은 잠글 수 없습니다.');
      if (cur.status === 'disabled') throw conflict('사용 중지된 계정은 잠글 수 없습니다.');
      await guardLastSuperadmin(cur, 'status', '마지막 최고관리자 계정은 잠글 수 없습니다.');
      guardSuperadmin(cur, actor);
      const lockedUntil = addMinutes(clock(), ACCOUNT_LOCK_MINUTES).toISOString();
      return save(cur, { status: 'locked', locked_until: lockedUntil }, actor, 'account.lock', { lockedUntil }, true);
    },
  };
}
