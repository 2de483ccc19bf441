// 통합 DB 검색: a phone or a name across the shops the asker may enter. The shops come from the
// account, never from the request: administrator-area accounts every shop, shop-area accounts
// their shop permissions; a counselor sees only the leads assigned to them. Deleted leads never
// appear. Every search is recorded in access_events — one row per shop whose leads it found, with
// that shop's count, or one without a shop when it found nothing — its term masked.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest } from '../../lib/errors.ts';
import { recordAccess, type Actor } from '../audit/audit.service.ts';
import { globalSearchRepository, type SearchRow, type SearchScope } from './global-search.repository.ts';
import {
  GLOBAL_SEARCH_MAX, SEARCH_PREFIX_DIGITS, parseSearchTerm, type GlobalSearchItem, type GlobalSearchQuery, type GlobalSearchResult, type SearchTerm,
} from '../../../contracts/global-search.ts';
import type { CsStatus } from '../../../contracts/leads.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { maskName, maskPhoneDigits } from '../../../contracts/masking.ts';

const newestFirst = (a: SearchRow, b: SearchRow) => (a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1);

function toItem(r: SearchRow): GlobalSearchItem {
  return {
    id: r.id, shopId: r.shop_id, shopName: r.shop_name, landingTitle: r.landing_title, source: r.source, createdAt: r.created_at,
    name: r.name, phone: maskPhone(r.phone), phoneLast4: r.phone_last4 ?? r.phone.slice(-4), csStatus: r.cs_status as CsStatus,
    assigneeName: r.assignee_name,
  };
}

/** The term as the record keeps it: never a phone or a name in clear. */
const maskedTerm = (t: SearchTerm) => (t.kind === 'name' ? maskName(t.name) : maskPhoneDigits(t.digits));

export function globalSearchService(db: Kysely<Database>, clock: Clock) {
  const repo = globalSearchRepository(db);

  /** The newest `limit` live leads matching the term. */
  async function find(s: SearchScope, t: SearchTerm, limit: number): Promise<SearchRow[]> {
    if (t.kind === 'last4') return repo.byLast4(s, t.digits, limit);
    if (t.kind === 'name') return repo.byName(s, t.name, limit);
    // The end of the number, and from seven digits its start too (a whole number is both): two
    // bounded probes, merged.
    const [end, start] = await Promise.all([
      repo.byEnd(s, t.digits, limit),
      t.digits.length >= SEARCH_PREFIX_DIGITS ? repo.byStart(s, t.digits, limit) : Promise.resolve([]),
    ]);
    const seen = new Set<number>();
    return [...end, ...start].filter((r) => !seen.has(r.id) && !!seen.add(r.id)).sort(newestFirst).slice(0, limit);
  }

  return {
    async search(q: GlobalSearchQuery, actor: Actor, area: 'admin' | 'shop'): Promise<GlobalSearchResult> {
      const term = parseSearchTerm(q.q);
      if ('error' in term) throw badRequest(term.error, { q: term.error });
      const shops = await repo.shops(area === 'admin' ? undefined : actor.id);
      const scope: SearchScope = { shopIds: shops.map((s) => s.id), accountId: actor.id, scope: actor.scope };
      const found = scope.shopIds.length ? await find(scope, term, GLOBAL_SEARCH_MAX + 1) : [];
      const capped = found.length > GLOBAL_SEARCH_MAX;
      const rows = found.slice(0, GLOBAL_SEARCH_MAX);

      // Recorded before anything is answered; each page asked for is a search of its own.
      const perShop = new Map<number, number>();
      for (const r of rows) perShop.set(r.shop_id, (perShop.get(r.shop_id) ?? 0) + 1);
      const detail = { term: maskedTerm(term), kind: term.kind, total: rows.length, capped, page: q.page };
      const at = clock();
      await inTransaction(db, async (trx) => {
        if (!perShop.size) await recordAccess(trx, actor, { shopId: null, action: 'search', rowCount: 0, detail }, at);
        for (const [shopId, n] of perShop) await recordAccess(trx, actor, { shopId, action: 'search', rowCount: n, detail }, at);
      });

      const offset = (q.page - 1) * q.pageSize;
      return {
        items: rows.slice(offset, offset + q.pageSize).map(toItem),
        total: rows.length, capped, kind: term.kind, shopCount: shops.length, foundShopCount: perShop.size, scope: actor.scope,
      };
    },
  };
}
