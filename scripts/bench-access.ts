// Bench steps for the personal-data access screens, over real HTTP against a running app on a
// bulk-seeded database (scripts/seed-bulk.ts); the caller starts the app, logs in and prints:
//   benchGlobalSearch  — 통합 DB 검색 by the last four digits across every shop, as an
//                        administrator-area account (goal p95 ≤ 50 ms);
//   benchAccessRecord  — 개인정보 접근 기록's first page of a month (goal p95 ≤ 50 ms).
// Each answers its latencies in milliseconds, sorted ascending. Searches are recorded
// (access_events rows, one per shop with hits): the bench writes to the record as it measures.
import { accessRecordApi, monthDays } from '../contracts/access-record.ts';
import { globalSearchApi } from '../contracts/global-search.ts';
import { pathOf } from '../contracts/endpoint.ts';

const SEARCHES = 30;
const PAGES = 30;
const WARMUP = 3;

/** A GET (no Origin needed) or, for any other method, with the Origin the app's CSRF check wants. */
async function timed(base: string, cookie: string, path: string, method = 'GET'): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { method, headers: { cookie, ...(method === 'GET' ? {} : { origin: base }) } });
  const body = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${body.slice(0, 200)}`);
  return ms;
}

/** Last fours spread over 0000–9999, the same every run. */
function lastFours(n: number): string[] {
  let x = 20261125;
  return Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return String(x % 10000).padStart(4, '0');
  });
}

/** `n` searches (30) by the last four digits across all shops the account may enter; sorted latencies (ms). */
export async function benchGlobalSearch(base: string, cookie: string, n = SEARCHES): Promise<number[]> {
  const terms = lastFours(WARMUP + n);
  const out: number[] = [];
  for (const [i, q] of terms.entries()) {
    const ms = await timed(base, cookie, `${globalSearchApi.search.path}?${new URLSearchParams({ q })}`);
    if (i >= WARMUP) out.push(ms);
  }
  return out.sort((a, b) => a - b);
}

/** The access record's first page for a month (YYYY-MM) of one shop, `n` times (30); sorted latencies (ms). */
export async function benchAccessRecord(base: string, cookie: string, shopId: number, month: string, n = PAGES): Promise<number[]> {
  const { from, to } = monthDays(month);
  const path = `${pathOf(accessRecordApi.list.path, { shopId })}?${new URLSearchParams({ from, to, page: '1', pageSize: '20' })}`;
  const out: number[] = [];
  for (let i = 0; i < WARMUP + n; i++) {
    const ms = await timed(base, cookie, path);
    if (i >= WARMUP) out.push(ms);
  }
  return out.sort((a, b) => a - b);
}
