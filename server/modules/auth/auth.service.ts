import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { authRepository } from './auth.repository.ts';
import { toSessionAccount, type AccountWithType, type SessionPolicy } from '../../db/sessions.ts';
import { AppError, badRequest, unauthenticated } from '../../lib/errors.ts';
import { DUMMY_HASH, hashPassword, sha256, verifyPassword } from '../../lib/password.ts';
import { addMinutes, type Clock } from '../../lib/clock.ts';
import { checkDenyRules } from '../deny-rules/deny-rules.gate.ts';
import { audit } from '../audit/audit.service.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { passwordProblem } from '../../../contracts/rules.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { ACCOUNT_LOCK_MINUTES } from '../../../contracts/accounts.ts';

const MAX_FAILED_LOGINS = 5;
/**
 * The one answer to every refused login: a wrong password, an unknown id, and a locked or
 * disabled account whatever password was given. It names the lock rule, since the person who
 * knows their password learns of the lock only from it.
 */
const BAD_CREDENTIALS =
  `아이디 또는 비밀번호가 올바르지 않습니다. 비밀번호를 ${MAX_FAILED_LOGINS}번 틀리면 계정이 ${ACCOUNT_LOCK_MINUTES}분 동안 잠기고, ` +
  '잠긴 동안에는 맞는 비밀번호로도 로그인되지 않습니다. 급하면 관리자에게 잠금 해제를 요청하세요.';
const WRONG_CURRENT = '현재 비밀번호가 올바르지 않습니다.';
const SAME_PASSWORD = '지금 쓰는 비밀번호와 다른 비밀번호를 정하세요.';

/** The fifth wrong current password in a password change: its owner is signed in, so the lock is no secret. */
const lockedByPasswordChange = () =>
  new AppError(423, ERROR_CODES.LOCKED, `현재 비밀번호를 여러 번 잘못 입력해 계정이 잠겼습니다. ${ACCOUNT_LOCK_MINUTES}분 후 다시 시도하거나 관리자에게 잠금 해제를 요청하세요.`);

export function authService(db: Kysely<Database>, clock: Clock, policy: SessionPolicy) {
  const repo = authRepository(db);

  /** One failed password for a known account; true when this attempt locked it. */
  function countFailure(account: AccountWithType, ip: string, now: Date): Promise<boolean> {
    return inTransaction(db, async (trx) => {
      const r = await authRepository(trx).recordFailure(account.id, MAX_FAILED_LOGINS, addMinutes(now, ACCOUNT_LOCK_MINUTES).toISOString(), now.toISOString());
      if (!r) return false;
      await audit(trx, { accountId: account.id, action: r.locked ? 'login-locked' : 'login-failed', target: 'account', targetId: account.id, ip }, now);
      return r.locked;
    });
  }

  return {
    repo,

    /**
     * Checks a login. Who may learn what (see README, 'Login answers'): a wrong password,
     * an unknown id and a locked or disabled account all answer the same 401 — nothing tells
     * which ids exist, and while an account is locked or disabled nothing tells whether the
     * password was right (no answer, no extra work: guessing during a lock learns nothing).
     */
    async login(loginId: string, password: string, meta: { ip: string; userAgent?: string }) {
      const now = clock();
      const denied = await inTransaction(db, async (trx) => {
        const rule = await checkDenyRules(trx, 'backoffice-login', { ip: meta.ip }, now);
        if (rule) await audit(trx, { accountId: null, action: 'login-denied', target: 'account', detail: { loginId, rule: rule.id }, ip: meta.ip }, now);
        return !!rule;
      });
      if (denied) throw new AppError(403, ERROR_CODES.FORBIDDEN, '접근이 차단된 IP입니다. 관리자에게 문의하세요.');
      let account = await repo.findAccountByLoginId(loginId);
      if (account?.status === 'locked' && account.locked_until && new Date(account.locked_until) <= now) {
        await repo.liftExpiredLock(account.id, now.toISOString());
        account = await repo.findAccountByLoginId(loginId);
      }
      // Verify even for an unknown id, so the answer takes the same time either way.
      const ok = await verifyPassword(password, account?.password_hash ?? DUMMY_HASH);
      // Decided before the password's result is looked at: a locked or disabled account does the same work either way.
      if (!account || !account.type_active || account.status !== 'active') throw unauthenticated(BAD_CREDENTIALS);
      if (!ok) {
        await countFailure(account, meta.ip, now);
        throw unauthenticated(BAD_CREDENTIALS);
      }
      const token = crypto.randomBytes(32).toString('base64url');
      const started = await inTransaction(db, async (trx) => {
        const r = authRepository(trx);
        if (!(await r.recordSuccess(account.id, now.toISOString(), meta.ip))) return false;
        await r.createSession({
          id: sha256(token),
          account_id: account.id,
          created_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          expires_at: new Date(now.getTime() + policy.absoluteHours * 3_600_000).toISOString(),
          ip: meta.ip,
          user_agent: meta.userAgent?.slice(0, 300) ?? null,
        });
        await audit(trx, { accountId: account.id, action: 'login', target: 'account', targetId: account.id, ip: meta.ip }, now);
        return true;
      });
      // Locked meanwhile (by parallel guesses or an administrator): the same answer as any lock.
      if (!started) throw unauthenticated(BAD_CREDENTIALS);
      const fresh = (await repo.findAccountById(account.id))!;
      return { token, account: toSessionAccount({ ...fresh, last_login_at: account.last_login_at }) };
    },

    logout: (sessionId: string) => repo.deleteSession(sessionId),

    /**
     * The account's own password change. A wrong current password counts toward the lockout
     * like a wrong login; a change ends every other session of the account.
     */
    async changePassword(session: { sessionId: string; accountId: number }, current: string, next: string, ip: string) {
      const now = clock();
      const account = await repo.findAccountById(session.accountId);
      if (!account) throw unauthenticated();
      if (!(await verifyPassword(current, account.password_hash))) {
        if (await countFailure(account, ip, now)) {
          await repo.deleteOtherSessions(account.id, null);
          throw lockedByPasswordChange();
        }
        throw badRequest(WRONG_CURRENT, { currentPassword: WRONG_CURRENT });
      }
      const problem = passwordProblem(next);
      if (problem) throw badRequest(problem, { newPassword: problem });
      if (await verifyPassword(next, account.password_hash)) throw badRequest(SAME_PASSWORD, { newPassword: SAME_PASSWORD });
      const hash = await hashPassword(next);
      await inTransaction(db, async (trx) => {
        const r = authRepository(trx);
        await r.updatePassword(account.id, hash, now.toISOString());
        await r.deleteOtherSessions(account.id, session.sessionId);
        await audit(trx, { accountId: account.id, action: 'password-change', target: 'account', targetId: account.id, ip }, now);
      });
    },
  };
}

