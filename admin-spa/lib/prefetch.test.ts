import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from './test-storage.ts';
import { dropPrefetched, forgetPrefetch, recordCall, saveRecording, startPrefetch, takePrefetched } from './prefetch.ts';

const page = { pathname: '/advertising-status', search: '' };
const account = (id: number) => JSON.stringify({ id, loginId: `u${id}` });

describe('prefetch', () => {
  let storage: MemoryStorage & Storage;
  let fetched: string[];

  beforeEach(() => {
    vi.useFakeTimers();
    storage = new MemoryStorage() as MemoryStorage & Storage;
    fetched = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      fetched.push(`${init.method} ${url} ${init.credentials}`);
      return Promise.resolve(new Response(JSON.stringify({ url })));
    });
  });
  afterEach(() => {
    forgetPrefetch(storage);
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** One page load at `loc`: what the API client asked for in its first moments, saved for the next. */
  function load(loc: { pathname: string; search: string }, calls: string[], now = Date.now()) {
    startPrefetch(loc, storage, now);
    for (const url of calls) recordCall(url, loc.pathname, now + 100);
    saveRecording(storage, loc);
  }

  it('asks for what the last load of the address asked for, as the page starts, and hands it over once', async () => {
    storage.setItem('loginAccount', account(1));
    load(page, ['/api/shops/1/ad-spend?from=2026-12-01&to=2026-12-07', '/api/notices', '/api/notices']);
    expect(fetched).toEqual([]);

    startPrefetch(page, storage);
    expect(fetched).toEqual(['GET /api/shops/1/ad-spend?from=2026-12-01&to=2026-12-07 same-origin', 'GET /api/notices same-origin']);
    const res = takePrefetched('/api/notices');
    expect(await (await res!).json()).toEqual({ url: '/api/notices' });
    // Once: a second call of the same URL asks the server.
    expect(takePrefetched('/api/notices')).toBeNull();
    // A URL the screen builds differently this time (another period) was never started.
    expect(takePrefetched('/api/shops/1/ad-spend?from=2026-12-01&to=2026-12-08')).toBeNull();
  });

  it('keeps the record per account and address, and forgets it at logout', () => {
    storage.setItem('loginAccount', account(1));
    load(page, ['/api/notices']);
    startPrefetch({ pathname: '/dashboard', search: '' }, storage);
    startPrefetch({ pathname: page.pathname, search: '?byLanding=1' }, storage);
    storage.setItem('loginAccount', account(2));
    startPrefetch(page, storage);
    expect(fetched).toEqual([]);

    storage.setItem('loginAccount', account(1));
    forgetPrefetch(storage);
    startPrefetch(page, storage);
    expect(fetched).toEqual([]);
  });

  it('records only the first moments of a load on its own address, and nothing on the login page', () => {
    storage.setItem('loginAccount', account(1));
    vi.stubGlobal('window', { location: page });
    const now = Date.now();
    startPrefetch(page, storage, now);
    recordCall('/api/early', page.pathname, now + 2_000);
    recordCall('/api/other-screen', '/dashboard', now + 2_100);
    recordCall('/api/late', page.pathname, now + 3_500);
    vi.advanceTimersByTime(3_000); // the load's record is saved by itself
    startPrefetch(page, storage);
    expect(fetched).toEqual(['GET /api/early same-origin']);

    fetched = [];
    load({ pathname: '/bclog', search: '' }, ['/api/auth/me']);
    startPrefetch({ pathname: '/bclog', search: '' }, storage);
    expect(fetched).toEqual([]);
  });

  it('saves a new tab\'s load under the account it learned while loading, and the address the screen settled on', () => {
    startPrefetch({ pathname: '/database-status', search: '' }, storage);
    recordCall('/api/shops/1/leads?page=1', '/database-status');
    storage.setItem('loginAccount', account(3));
    saveRecording(storage, { pathname: '/database-status', search: '?page=1' });
    startPrefetch({ pathname: '/database-status', search: '?page=1' }, storage);
    expect(fetched).toEqual(['GET /api/shops/1/leads?page=1 same-origin']);
  });

  it('hands over nothing once a change was sent', () => {
    storage.setItem('loginAccount', account(1));
    load(page, ['/api/notices']);
    startPrefetch(page, storage);
    dropPrefetched();
    expect(takePrefetched('/api/notices')).toBeNull();
  });

  it('does not hand over an answer started too long ago', () => {
    storage.setItem('loginAccount', account(1));
    load(page, ['/api/notices']);
    const now = Date.now();
    startPrefetch(page, storage, now);
    expect(takePrefetched('/api/notices', now + 10_001)).toBeNull();
  });
});
