// HTTP details shared by the back office and the server. No zod here: the login screen's
// bundle imports this.
import type { Endpoint } from './endpoint.ts';
import type { accountResponse, loginBody } from './auth.ts';

/**
 * Sent by the back office's own background refreshes (not by a person's action): such a
 * request is answered but does not count as activity, so an open tab still idles out.
 */
export const BACKGROUND_HEADER = 'x-lr-background';

/** The session's own paths; authApi (contracts/auth.ts) declares their endpoints with these. */
export const SESSION_PATHS = { login: '/api/auth/login', logout: '/api/auth/logout' } as const;

/**
 * The login and logout endpoints as the login screen calls them: the same as authApi.login and
 * authApi.logout, declared by type only so its small bundle carries no schema library.
 */
export const sessionApi = {
  login: { method: 'POST', path: SESSION_PATHS.login, response: 'json' } as unknown as Endpoint<undefined, undefined, typeof loginBody, typeof accountResponse>,
  logout: { method: 'POST', path: SESSION_PATHS.logout, response: null } as Endpoint<undefined, undefined, undefined, null>,
};
