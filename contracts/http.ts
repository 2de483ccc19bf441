// HTTP details shared by the back office and the server. No zod here: the login screen's
// bundle imports this.

/**
 * Sent by the back office's own background refreshes (not by a person's action): such a
 * request is answered but does not count as activity, so an open tab still idles out.
 */
export const BACKGROUND_HEADER = 'x-lr-background';

/** The session's own paths; authApi (contracts/auth.ts) and sessionApi (contracts/session.ts) declare their endpoints with these. */
export const SESSION_PATHS = { login: '/api/auth/login', logout: '/api/auth/logout', session: '/api/auth/session' } as const;
