// The session as the server has it, asked once as the back office starts (main.tsx), before any
// chunk of the shell arrives: the account (its permissions within) and the shops it may enter, in
// one answer (GET /api/auth/session). A tab without a stored account (a new tab, a bookmark) learns
// from it whether the browser is logged in; the shell takes it as its first session data. No
// schema library here: the entry chunk imports this.
import type { SessionResponse } from '@contracts/auth.ts';
import { SESSION_PATHS } from '@contracts/http.ts';

/** Where the tab keeps its copy of the logged-in account (auth.tsx). */
export const LOGIN_ACCOUNT_KEY = 'loginAccount';

let first: Promise<SessionResponse | null> | null = null;
let taken = false;

/** `/` and the login screen ask nothing: no screen of the back office opens there. */
const asksSession = (pathname: string) => pathname !== '/' && pathname !== '/bclog';

/** Asks the server for the session, once per page load (on a back-office path). */
export function startSession(): void {
  if (first || !asksSession(window.location.pathname)) return;
  first = fetch(SESSION_PATHS.session, { credentials: 'same-origin' }).then(
    (res) => (res.ok ? (res.json() as Promise<SessionResponse>) : null),
    () => null,
  );
}

/** The first answer: null when the browser holds no session (or the server did not answer). */
export function firstSession(): Promise<SessionResponse | null> {
  startSession();
  return first ?? Promise.resolve(null);
}

/**
 * The first answer for the shell's session query, once (later refreshes ask the server): null
 * when there is none to take, or it was no session — the query then asks through the API client,
 * whose 401 ends the stored login as any other does.
 */
export async function takeFirstSession(): Promise<SessionResponse | null> {
  if (taken || !first) return null;
  taken = true;
  return first;
}
