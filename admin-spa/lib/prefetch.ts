// The data a screen asked for as it opened, asked for again on its next load before any chunk
// arrives. A screen asks for its data once it renders, and it renders once the shell's and its
// own chunks are in and evaluated: on a reload that is hundreds of milliseconds in which the
// server sits idle. So the tab remembers (sessionStorage, per account and address) the GET calls
// a page load made in its first seconds, and the next load of the same address starts them as
// the page starts (main.tsx); the API client then takes the answer already on its way instead of
// asking again (takePrefetched). What is remembered is only what the screen itself asked for,
// with the same URLs the client builds, so a screen whose inputs changed (another day, another
// shop) simply asks for its own: an answer nobody takes is dropped. The addresses are the
// page's own (its filters live in its URL), kept for the tab's life and forgotten at logout.
// No schema library here: the entry chunk imports this.
import { LOGIN_ACCOUNT_KEY } from './session.ts';

const STORE_KEY = 'leadroom.prefetch';
/** The calls of a load's first moments are remembered; later ones follow a user's action. */
const RECORD_MS = 3_000;
/** Calls remembered per address, and addresses per tab. */
const MAX_CALLS = 8;
const MAX_PAGES = 20;
/** A prefetched answer older than this is not taken (the screen asks afresh). */
const FRESH_MS = 10_000;

type Recorded = { [page: string]: string[] };

const started = new Map<string, { at: number; response: Promise<Response> }>();
let recording: { pathname: string; until: number; urls: string[] } | null = null;

const accountOf = (storage: Storage): string | null => {
  try {
    const id = (JSON.parse(storage.getItem(LOGIN_ACCOUNT_KEY) ?? 'null') as { id?: unknown } | null)?.id;
    return typeof id === 'number' ? String(id) : null;
  } catch {
    return null;
  }
};

function read(storage: Storage): Recorded {
  try {
    const r = JSON.parse(storage.getItem(STORE_KEY) ?? '{}') as unknown;
    return r && typeof r === 'object' ? (r as Recorded) : {};
  } catch {
    return {};
  }
}

const pageKey = (account: string, loc: { pathname: string; search: string }) => `${account} ${loc.pathname}${loc.search}`;

/**
 * Starts the calls the last load of this address made (none without a record of it for the tab's
 * account), and records this load's calls for the next.
 */
export function startPrefetch(loc: { pathname: string; search: string } = window.location, storage: Storage = sessionStorage, now = Date.now()): void {
  if (loc.pathname === '/' || loc.pathname === '/bclog') return;
  const account = accountOf(storage);
  for (const url of (account && read(storage)[pageKey(account, loc)]) || []) {
    // As the API client sends a plain GET (api.ts send()): the same request, answered the same.
    const response = fetch(url, { method: 'GET', credentials: 'same-origin' });
    response.catch(() => {});
    started.set(url, { at: now, response });
  }
  recording = { pathname: loc.pathname, until: now + RECORD_MS, urls: [] };
  setTimeout(() => saveRecording(storage), RECORD_MS);
  // A reload sooner than that saves what this load asked for so far, as the page goes.
  globalThis.addEventListener?.('pagehide', () => saveRecording(storage), { once: true });
}

/** The API client's GET of `url` (not a background refresh): remembered while this load records. */
export function recordCall(url: string, pathname = window.location.pathname, now = Date.now()): void {
  const r = recording;
  if (!r || now > r.until || pathname !== r.pathname) return;
  if (r.urls.length < MAX_CALLS && !r.urls.includes(url)) r.urls.push(url);
}

/**
 * Writes this load's calls under the tab's account (a new tab learns it as it loads) and the
 * address the page has now (a screen may have put its defaults in it).
 */
export function saveRecording(storage: Storage = sessionStorage, loc: { pathname: string; search: string } = window.location): void {
  const r = recording;
  recording = null;
  const account = accountOf(storage);
  if (!r || !account || loc.pathname !== r.pathname) return;
  const all = read(storage);
  const key = pageKey(account, loc);
  delete all[key];
  if (r.urls.length) all[key] = r.urls;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) delete all[k];
  try {
    storage.setItem(STORE_KEY, JSON.stringify(all));
  } catch {
    // A full storage only costs the next load its head start.
  }
}

/** The answer a prefetch of `url` has on its way, once, while fresh; null when there is none. */
export function takePrefetched(url: string, now = Date.now()): Promise<Response> | null {
  const p = started.get(url);
  if (!p) return null;
  started.delete(url);
  return now - p.at <= FRESH_MS ? p.response : null;
}

/** A change was sent (any call but a GET): answers started before it may no longer hold, and none is handed over. */
export function dropPrefetched(): void {
  started.clear();
}

/** Forgets what the tab recorded (logout: the next account starts from nothing). */
export function forgetPrefetch(storage: Storage = sessionStorage): void {
  started.clear();
  recording = null;
  storage.removeItem(STORE_KEY);
}
