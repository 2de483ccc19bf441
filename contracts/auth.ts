import { z } from './zod.ts';
import { accountTypeGrants } from './account-types.ts';
import { passwordField, requiredText } from './fields.ts';
import { endpoint } from './endpoint.ts';
import { SESSION_PATHS } from './http.ts';

export const loginBody = z.object({
  loginId: requiredText(60, '아이디를 입력하세요.'),
  password: z.string('비밀번호를 입력하세요.').min(1, '비밀번호를 입력하세요.').max(200, '200자 이하로 입력하세요.'),
});

/** The logged-in account as the UI keeps it (sessionStorage `loginAccount`). */
export const sessionAccount = z.object({
  id: z.number(),
  loginId: z.string(),
  name: z.string(),
  accountTypeId: z.number(),
  accountTypeName: z.string(),
  /** Its type's; the permissions are what the account may use: its type's matrix within its side's reach (a client's never names an agency-only screen). */
  ...accountTypeGrants,
  home: z.string(),
  lastLoginAt: z.string().nullable(),
  /** The account must choose a new password before anything else (a generated or reset one). */
  mustChangePassword: z.boolean(),
});
export type SessionAccount = z.infer<typeof sessionAccount>;

export const accountResponse = z.object({ account: sessionAccount });

export const myShop = z.object({ id: z.number(), shopCode: z.string(), name: z.string(), status: z.string() });
export type MyShop = z.infer<typeof myShop>;
export const myShopsResponse = z.object({ items: z.array(myShop) });

/** The session as the back office opens with it, in one answer: the account (its permissions within) and the shops it may enter. */
export const sessionResponse = z.object({ account: sessionAccount, shops: z.array(myShop) });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const changePasswordBody = z.object({
  currentPassword: z.string('현재 비밀번호를 입력하세요.').min(1, '현재 비밀번호를 입력하세요.').max(200, '200자 이하로 입력하세요.'),
  newPassword: passwordField,
});

export const authApi = {
  login: endpoint({ method: 'POST', path: SESSION_PATHS.login, body: loginBody, response: accountResponse }),
  me: endpoint({ method: 'GET', path: '/api/auth/me', response: accountResponse }),
  /** The account and its shops in one answer: what the back office asks first on every load (a new tab included). */
  session: endpoint({ method: 'GET', path: SESSION_PATHS.session, response: sessionResponse }),
  logout: endpoint({ method: 'POST', path: SESSION_PATHS.logout, response: null }),
  password: endpoint({ method: 'POST', path: '/api/auth/password', body: changePasswordBody, response: null }),
  /** Shops the account may enter: every shop for administrator-area types, else its shop permissions. */
  shops: endpoint({ method: 'GET', path: '/api/auth/shops', response: myShopsResponse }),
};
