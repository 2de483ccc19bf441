import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { authRepository, type AccountWithType } from './auth.repository.ts';
import { AppError, unauthenticated } from '../../lib/errors.ts';
import { DUMMY_HASH, hashPassword, sha256, verifyPassword } from '../../lib/password.ts';
import { addMinutes, type Clock } from '../../lib/clock.ts';
import { checkDenyRules } from '../../lib/deny-check.ts';
import { audit } from '../../lib/audit.ts';
import { homePath, normaliseMatrix, type PermissionMatrix } from '../../../contracts/permissions.ts';
import type { SessionAccount } from '../../../contracts/auth.ts';
import { passwordProblem } from '../../../contracts/rules.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { ACCOUNT_LOCK_MINUTES } from '../../../contracts/accounts.ts';

export const MAX_FAILED_LOGINS = 5;
const BAD_CREDENTIALS = '아이디 또는 비밀번호가 올바르지 않습니다.';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
}

export function toSessionAccount(a: AccountWithType): SessionAccount {
  const permissions = normaliseMatrix(JSON.parse(a.permissions) as PermissionMatrix);
  return {
    id: a.id,
    loginId: a.login_id,
    name: a.name,
    accountTypeId: a.account_type_id,
    accountTypeName: a.type_name,
    area: a.area,
    dataScope: a.data_scope,
    canUnmask: !!a.can_unmask,
    canExport: !!a.can_export,
    permissions,
    home: homePath(a.area, permissions),
    lastLoginAt: a.last_login_at,
  };
}

export function authService(db: Kysely<Database>, clock: Clock, policy: SessionPolicy) {
  const repo = authRepository(db);

  return {
    repo,

    async login(loginId: string, password: string, meta: { ip: string; userAgent?: string }) {
      const now = clock();
      const denied = await checkDenyRules(db, 'backoffice-login', { ip: meta.ip }, now);
      if (denied) {
        await audit(db, { accountId: null, action: 'login-denied', target: 'account', detail: { loginId, rule: denied.id }, ip: meta.ip }, now);
        throw new AppError(403, ERROR_CODES.FORBIDDEN, '접근이 차단된 IP입니다. 관리자에게 문의하세요.');
      }
      let account = await repo.findAccountByLoginId(loginId);
      if (account?.status === 'locked' && account.locked_until && new Date(account.locked_until) <= now) {
        await repo.liftExpiredLock(account.id, now.toISOString());
        account = await repo.findAccountByLoginId(loginId);
      }
      // Verify even for an unknown id, so the answer takes the same time either way.
      const ok = await verifyPassword(password, account?.password_hash ?? DUMMY_HASH);
      if (account?.status === 'locked') {
        throw new AppError(423, ERROR_CODES.LOCKED, `로그인 ${MAX_FAILED_LOGINS}회 실패로 계정이 잠겼습니다. ${ACCOUNT_LOCK_MINUTES}분 후 다시 시도하거나 관리자에게 잠금 해제를 요청하세요.`);
      }
      if (!account || !ok || account.status !== 'active' || !account.type_active) {
        if (account && account.status === 'active') {
          const failed = account.failed_logins + 1;
          const lockedUntil = failed >= MAX_FAILED_LOGINS ? addMinutes(now, ACCOUNT_LOCK_MINUTES).toISOString() : null;
          await repo.recordFailure(account.id, failed, lockedUntil, now.toISOString());
          await audit(db, { accountId: account.id, action: lockedUntil ? 'login-locked' : 'login-failed', target: 'account', targetId: account.id, ip: meta.ip }, now);
          if (lockedUntil) {
            throw new AppError(423, ERROR_CODES.LOCKED, `로그인 ${MAX_FAILED_LOGINS}회 실패로 계정이 ${ACCOUNT_LOCK_MINUTES}분간 잠겼습니다.`);
          }
        }
        throw unauthenticated(BAD_CREDENTIALS);
      }
      await repo.recordSuccess(account.id, now.toISOString(), meta.ip);
      const token = crypto.randomBytes(32).toString('base64url');
      await repo.createSession({
        id: sha256(token),
        account_id: account.id,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + policy.absoluteHours * 3_600_000).toISOString(),
        ip: meta.ip,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
      });
      await audit(db, { accountId: account.id, action: 'login', target: 'account', targetId: account.id, ip: meta.ip }, now);
      const fresh = (await repo.findAccountById(account.id))!;
      return { token, account: toSessionAccount({ ...fresh, last_login_at: account.last_login_at }) };
    },

    /**
     * The live session for a cookie token; null when missing, idle or expired. A person's
     * request touches it (the idle clock starts again); a background refresh does not.
     */
    async resume(token: string, o: { background?: boolean } = {}) {
      const id = sha256(token);
      const s = await repo.findSession(id);
      if (!s) return null;
      const now = clock();
      const idleLimit = new Date(new Date(s.last_seen_at).getTime() + policy.idleMinutes * 60_000);
      if (new Date(s.expires_at) <= now || idleLimit <= now || s.status !== 'active' || !s.type_active) {
        await repo.deleteSession(id);
        return null;
      }
      // Touch at most every 30 s: enough precision for a 60-minute idle timeout.
      if (!o.background && now.getTime() - new Date(s.last_seen_at).getTime() > 30_000) await repo.touchSession(id, now.toISOString());
      return { sessionId: id, account: s };
    },

    logout: (sessionId: string) => repo.deleteSession(sessionId),

    async changePassword(accountId: number, current: string, next: string) {
      const account = await repo.findAccountById(accountId);
      if (!account || !(await verifyPassword(current, account.password_hash))) {
        throw new AppError(400, ERROR_CODES.VALIDATION, '현재 비밀번호가 올바르지 않습니다.', { currentPassword: '현재 비밀번호가 올바르지 않습니다.' });
      }
      const problem = passwordProblem(next);
      if (problem) throw new AppError(400, ERROR_CODES.VALIDATION, problem, { newPassword: problem });
      await repo.updatePassword(accountId, await hashPassword(next), clock().toISOString());
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
