import { z } from './zod.ts';
import { idParam, listEndpoint } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { LOGIN_ID_RE } from './rules.ts';
import { optionalEmail, optionalPhone, passwordField, requiredText, rowTimes } from './fields.ts';

export const ACCOUNT_STATUSES = ['active', 'locked', 'disabled'] as const;
type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
/** How long a lock (5 failed logins, or an administrator's lock) lasts. */
export const ACCOUNT_LOCK_MINUTES = 30;
export const ACCOUNT_STATUS_LABELS: Record<AccountStatus, string> = { active: '정상', locked: '잠김', disabled: '사용 중지' };

export const account = z.object({
  id: z.number(),
  loginId: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  accountTypeId: z.number(),
  accountTypeName: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  failedLogins: z.number(),
  lockedUntil: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  shopCount: z.number(),
  ...rowTimes,
});
export type Account = z.infer<typeof account>;

const accountFields = {
  name: requiredText(30, '이름을 입력하세요.'),
  phone: optionalPhone(),
  email: optionalEmail,
  accountTypeId: z.number('계정 유형을 선택하세요.').int().positive(),
};

export const accountCreate = z.object({
  loginId: z
    .string('아이디를 입력하세요.')
    .trim()
    .min(1, '아이디를 입력하세요.')
    .regex(LOGIN_ID_RE, '아이디는 영문 소문자로 시작하는 4~30자의 영문 소문자·숫자·._- 입니다.'),
  password: passwordField,
  ...accountFields,
  /** Shops a shop-area account may enter from the start (ignored for administrator-area types). */
  shopIds: z.array(z.number().int().positive(), '업체를 선택하세요.').max(1000).optional(),
});
export type AccountCreate = z.infer<typeof accountCreate>;

export const accountUpdate = z.object({
  ...accountFields,
  status: z.enum(['active', 'disabled']).optional(),
});
export type AccountUpdate = z.infer<typeof accountUpdate>;

export const resetPasswordBody = z.object({ password: passwordField });

// No DELETE: accounts are disabled, so their history keeps its names.
export const accountsApi = {
  list: listEndpoint({
    path: '/api/accounts', item: account,
    sort: ['loginId', 'name', 'lastLoginAt', 'createdAt', 'status'],
    filters: { status: z.enum(ACCOUNT_STATUSES).optional(), accountTypeId: z.coerce.number().int().positive().optional() },
  }),
  get: endpoint({ method: 'GET', path: '/api/accounts/:id', params: idParam, response: account }),
  create: endpoint({ method: 'POST', path: '/api/accounts', body: accountCreate, response: account, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/accounts/:id', params: idParam, body: accountUpdate, response: account }),
  resetPassword: endpoint({ method: 'POST', path: '/api/accounts/:id/reset-password', params: idParam, body: resetPasswordBody, response: account }),
  unlock: endpoint({ method: 'POST', path: '/api/accounts/:id/unlock', params: idParam, response: account }),
  lock: endpoint({ method: 'POST', path: '/api/accounts/:id/lock', params: idParam, response: account }),
};
export type AccountListQuery = QueryOf<typeof accountsApi.list>;
