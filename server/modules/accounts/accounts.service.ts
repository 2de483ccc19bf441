import type { Kysely } from 'kysely';
import type { AccountUpdateRow, Database } from '../../db/schema.ts';
import { accountsRepository, type AccountFilter, type AccountView } from './accounts.repository.ts';
import { badRequest, conflict, forbidden, notFound, uniqueOr409 } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../../lib/audit.ts';
import { addMinutes, type Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/password.ts';
import { serialTransaction } from '../../lib/serial.ts';
import { ACCOUNT_LOCK_MINUTES, type Account, type AccountCreate, type AccountUpdate } from '../../../contracts/accounts.ts';

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
    update: (id: number, input: AccountUpdate, actor: Actor) =>
      serialTransaction(db, LAST_SUPERADMIN, (trx) => accountOperations(trx, clock).update(id, input, actor)),
    lock: (id: number, actor: Actor) => serialTransaction(db, LAST_SUPERADMIN, (trx) => accountOperations(trx, clock).lock(id, actor)),
  };
}

function accountOperations(db: Kysely<Database>, clock: Clock) {
  const repo = accountsRepository(db);

  async function load(id: number) {
    const row = await repo.find(id);
    if (!row) throw notFound('계정을 찾을 수 없습니다.');
    return row;
  }
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
  }

  async function save(target: AccountView, row: AccountUpdateRow, actor: Actor, action: string, detail?: object, killSessions = false) {
    const at = clock();
    await repo.update(target.id, { ...row, updated_at: at.toISOString() });
    if (killSessions) await repo.deleteSessions(target.id);
    await auditBy(db, actor, { action, target: 'account', targetId: target.id, detail: { loginId: target.login_id, ...(detail ?? {}) } }, at);
    return get(target.id);
  }

  return {
    async list(f: AccountFilter) {
      const { rows, total } = await repo.list(f);
      return { items: rows.map(toAccount), total };
    },
    get,

    async create(input: AccountCreate, actor: Actor) {
      await checkType(input.accountTypeId, actor);
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
      const { password: _password, ...detail } = input;
      await auditBy(db, actor, { action: 'account.create', target: 'account', targetId: id, detail }, at);
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

    /** Sets a new password, lifts a lock and ends the account's sessions. */
    async resetPassword(id: number, password: string, actor: Actor) {
      const cur = await load(id);
      guardSuperadmin(cur, actor);
      const row: AccountUpdateRow = {
        password_hash: await hashPassword(password), password_changed_at: clock().toISOString(),
        ...(cur.status === 'locked' ? unlocked : { failed_logins: 0, locked_until: null }),
      };
      return save(cur, row, actor, 'account.reset-password', undefined, true);
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
