// The login screen's endpoints, without a schema library in its small bundle.
import type { Endpoint } from './endpoint.ts';
import type { accountResponse, loginBody } from './auth.ts';
import { SESSION_PATHS } from './http.ts';

/**
 * The login and logout endpoints as the login screen calls them: the same as authApi.login and
 * authApi.logout, declared by type only so its small bundle carries no schema library.
 */
export const sessionApi = {
  login: { method: 'POST', path: SESSION_PATHS.login, response: 'json' } as unknown as Endpoint<undefined, undefined, typeof loginBody, typeof accountResponse>,
  logout: { method: 'POST', path: SESSION_PATHS.logout, response: null } as Endpoint<undefined, undefined, undefined, null>,
};
