// The SQL of 통합 DB 검색. Every query names the shops it may search (`shop_id in (…)`, never
// "all leads") and is bounded (`limit`), so each is a few index probes per shop:
// - the last four digits: leads (shop_id, phone_last4) — some hundred leads in a million share them;
// - the end of a longer number: the same index, the rest of the digits checked on those rows;
// - the start of a number (seven digits or more, 010-1234…): a range of leads (shop_id, phone, created_at);
// - a name's start (two letters or more): a range of leads (shop_id, name).
// Results are ordered newest first after the probes; a term matching thousands (a common
// surname's two letters) sorts those rows, which the letter minimum keeps to a few thousand.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Where a search looks: the shops the asker may enter; a counselor only at leads assigned to them. */
export interface SearchScope {
  shopIds: number[];
  accountId: number;
  scope: 'all' | 'assigned';
}

/** The next string after every string that starts with `prefix`: a prefix as an index range. */
function after(prefix: string): string {
  const letters = [...prefix];
  const last = letters.pop()!;
  return letters.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function globalSearchRepository(db: Kysely<Database>) {
  const base = (s: SearchScope, limit: number) => {
    let qb = db
      .selectFrom('leads as l')
      .innerJoin('shops as s', 's.id', 'l.shop_id')
      .leftJoin('landings as g', 'g.id', 'l.landing_id')
      .leftJoin('accounts as a', 'a.id', 'l.assignee_id')
      .select([
        'l.id', 'l.shop_id', 's.name as shop_name', 'g.title as landing_title', 'l.source', 'l.created_at', 'l.name', 'l.phone',
        'l.phone_last4', 'l.cs_status', 'a.name as assignee_name',
      ])
      .where('l.shop_id', 'in', s.shopIds)
      .where('l.deleted_at', 'is', null);
    if (s.scope === 'assigned') qb = qb.where('l.assignee_id', '=', s.accountId);
    return qb.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(limit);
  };

  return {
    /** Every shop (administrator-area accounts), or those `accountId` is permitted. */
    shops(accountId?: number) {
      let qb = db.selectFrom('shops as s').select(['s.id', 's.name']);
      if (accountId !== undefined) qb = qb.innerJoin('shop_permissions as p', 'p.shop_id', 's.id').where('p.account_id', '=', accountId);
      return qb.orderBy('s.id').execute();
    },

    byLast4: (s: SearchScope, last4: string, limit: number) => base(s, limit).where('l.phone_last4', '=', last4).execute(),

    /** Numbers ending in `digits` (five or more): the last four probe the index, the rest is checked on what they find. */
    byEnd: (s: SearchScope, digits: string, limit: number) =>
      base(s, limit).where('l.phone_last4', '=', digits.slice(-4)).where('l.phone', 'like', `%${digits}`).execute(),

    /** Numbers starting with `digits`: a range of the (shop_id, phone, created_at) index. */
    byStart: (s: SearchScope, digits: string, limit: number) =>
      base(s, limit).where('l.phone', '>=', digits).where('l.phone', '<', after(digits)).execute(),

    /**
     * Names starting with `name`: a range of the (shop_id, name) index; the LIKE keeps the answer
     * exact under any collation the range might read differently.
     */
    byName: (s: SearchScope, name: string, limit: number) =>
      base(s, limit)
        .where('l.name', '>=', name)
        .where('l.name', '<', after(name))
        .where(sql<boolean>`${sql.ref('l.name')} like ${`${likeEscaped(name)}%`} escape '\\'`)
        .execute(),
  };
}

export type SearchRow = Awaited<ReturnType<ReturnType<typeof globalSearchRepository>['byLast4']>>[number];
