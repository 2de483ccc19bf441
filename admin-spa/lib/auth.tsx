// The UI's copy of the logged-in account, kept in sessionStorage under `loginAccount`.
// The server's session cookie is the authority: any 401 clears it and returns to /bclog
// (keeping unsaved input, and the way back, for the next login). A tab without a stored account
// (a new tab, a bookmark) asks the server (lib/session.ts) and keeps what it answers.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { SessionAccount } from '@contracts/auth.ts';
import { allows, type Action } from '@contracts/permissions.ts';
import { sessionApi } from '@contracts/session.ts';
import { call, setUnauthenticatedHandler } from './api.ts';
import { clearDrafts, keepDrafts } from './drafts.ts';
import { firstSession, LOGIN_ACCOUNT_KEY } from './session.ts';
import { forgetPrefetch } from './prefetch.ts';

interface AuthState {
  account: SessionAccount | null;
  loading: boolean;
  signIn(account: SessionAccount): void;
  /** Ends the session and loads /bclog afresh (nothing of the old session stays in memory). */
  signOut(): Promise<void>;
  can(screen: string, action?: Action): boolean;
}

const AuthContext = createContext<AuthState | null>(null);
let signingOut = false;

function readStoredAccount(): SessionAccount | null {
  try {
    const raw = sessionStorage.getItem(LOGIN_ACCOUNT_KEY);
    return raw ? (JSON.parse(raw) as SessionAccount) : null;
  } catch {
    return null;
  }
}

/** What the tab kept of a login: the account, and the reads it asked for on its loads (prefetch.ts). */
function forgetStoredLogin(): void {
  sessionStorage.removeItem(LOGIN_ACCOUNT_KEY);
  forgetPrefetch();
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [account, setAccount] = useState<SessionAccount | null>(null);
  const [loading, setLoading] = useState(true);

  // As specified: start loading, read sessionStorage once mounted, then clear the flag. Nothing
  // stored: the server says whether this browser is logged in (the guard shows nothing meanwhile).
  useEffect(() => {
    const stored = readStoredAccount();
    if (stored) {
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setAccount(stored);
      setLoading(false);
      return;
    }
    let live = true;
    void firstSession().then((session) => {
      if (!live) return;
      if (session) {
        sessionStorage.setItem(LOGIN_ACCOUNT_KEY, JSON.stringify(session.account));
        setAccount(session.account);
      }
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, []);

  const clear = useCallback(() => {
    forgetStoredLogin();
    // Cached screen data belongs to the old session; the client module loads with the back office.
    void import('./query-client.ts').then((m) => m.queryClient.clear());
    setAccount(null);
  }, []);

  useEffect(() => {
    setUnauthenticatedHandler(() => {
      // A request that was still in flight when the user logged out is no news.
      if (signingOut) return;
      // Unsaved input is kept for after the next login, which comes back here.
      const who = readStoredAccount()?.id;
      if (who !== undefined) keepDrafts(who);
      const { pathname, search } = window.location;
      if (pathname === '/bclog') return clear();
      // A full load, as signOut does: the account is not taken from the guard first, or it sends
      // the tab to `/` while /bclog is loading (on a slow machine that route change won the race).
      forgetStoredLogin();
      window.location.assign(`/bclog?next=${encodeURIComponent(pathname + search)}`);
    });
    return () => setUnauthenticatedHandler(null);
  }, [clear]);

  const value = useMemo<AuthState>(
    () => ({
      account,
      loading,
      signIn(next) {
        signingOut = false;
        sessionStorage.setItem(LOGIN_ACCOUNT_KEY, JSON.stringify(next));
        setAccount(next);
      },
      async signOut() {
        signingOut = true;
        try {
          await call(sessionApi.logout);
        } catch {
          // The session may already be gone; the local copy is cleared either way.
        }
        // A full load rather than a route change: the guard must not see the account vanish
        // first (it would send us to `/`), and no cached screen data survives the session.
        forgetStoredLogin();
        clearDrafts();
        window.location.replace('/bclog');
      },
      can: (screen, action = 'read') => !!account && allows(account.permissions, screen, action),
    }),
    [account, loading],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
