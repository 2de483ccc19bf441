// A contract's per-day lead buckets of the days before today (Seoul), kept between views: the
// dashboards show every running contract's figures and are refetched whenever a lead arrives,
// and recounting up to a year of days each time costs far more than today's one day. Past days
// change only when a past lead does (무효 or another status, deletion, restore, an approved
// return, an import with a past 접수일) or when the contract does (its row's updated_at and its
// scope are part of the key). Lead changes reach every process through the lead feed; each
// shop's changes bump its version, and a kept answer is served only under the version it was
// counted at. A new lead counts only on its own day: a 'created' change bumps the version only
// when one of its leads belongs to a kept day (or is gone), which one primary-key read tells, and
// reads of that shop wait for that answer. Today (and any later day) is counted afresh
// on every view. A kept answer is also dropped after `ttlMs`, a bound for a change this process
// did not hear (a lost database connection drops notifications).
import { seoulDayStart } from '../../../contracts/kst.ts';
import type { LeadChange } from '../../../contracts/leads.ts';
import type { LeadScope } from '../../db/valid-leads.ts';
import type { ContractRow, ScopeDay } from './shop-contracts.repository.ts';

/** Kept answers at most (the oldest go first): a few per contract on any dashboard. */
const MAX_ENTRIES = 5000;
const PAST_DAYS_TTL_MS = 60_000;

interface ShopState {
  version: number;
  /** Checks of 'created' changes still reading their leads' days: this shop's reads wait for them. */
  pending: Set<Promise<void>>;
}

interface Entry {
  shopId: number;
  /** The end of the kept days (today's start when they were counted, or the contract's end). */
  until: string;
  version: number;
  at: number;
  days: Promise<ScopeDay[]>;
}

interface PastDaysOptions {
  /** Follows every shop's lead changes; called once, on the first read. */
  watch: (fn: (change: LeadChange) => void) => () => void;
  /** Whether any of these leads of the shop was created before `beforeIso`, or is gone. */
  anyBefore: (shopId: number, ids: number[], beforeIso: string) => Promise<boolean>;
  /** How long a kept answer lasts at most (real time). */
  ttlMs?: number;
}

export interface PastDays {
  /** The scope's per-day buckets (as `count` answers them): the days before `today` kept, the rest counted now. */
  scopeDays(c: Pick<ContractRow, 'id' | 'shop_id' | 'updated_at'>, scope: LeadScope, today: string, count: (scope: LeadScope) => Promise<ScopeDay[]>): Promise<ScopeDay[]>;
  /** A change of the shop's leads, heard here (what the feed delivers). */
  heard(change: LeadChange): void;
  /** The shop's leads changed in a way that may touch past days (a change this module made itself). */
  invalidate(shopId: number): void;
}

export function pastDays(o: PastDaysOptions): PastDays {
  const ttl = o.ttlMs ?? PAST_DAYS_TTL_MS;
  const shops = new Map<number, ShopState>();
  const entries = new Map<string, Entry>();
  let watching = false;

  const stateOf = (shopId: number) => {
    let s = shops.get(shopId);
    if (!s) shops.set(shopId, (s = { version: 0, pending: new Set() }));
    return s;
  };
  const bump = (shopId: number) => void stateOf(shopId).version++;
  /** The end of the latest kept days of the shop ('' when none are kept). */
  const horizon = (shopId: number) => [...entries.values()].reduce((h, e) => (e.shopId === shopId && e.until > h ? e.until : h), '');

  function heard(change: LeadChange) {
    const until = horizon(change.shopId);
    if (change.kind !== 'created' || !until) return bump(change.shopId);
    // New leads: usually today's (intake), after every kept day; an import may date them back into one.
    const s = stateOf(change.shopId);
    const check: Promise<void> = o.anyBefore(change.shopId, change.leads.map((l) => l.id), until)
      .then((past) => void (past && bump(change.shopId)), () => bump(change.shopId))
      .finally(() => s.pending.delete(check));
    s.pending.add(check);
  }

  return {
    heard,
    invalidate: bump,
    async scopeDays(c, scope, today, count) {
      if (!watching) {
        watching = true;
        o.watch(heard);
      }
      const todayStart = seoulDayStart(today).toISOString();
      if (scope.fromIso >= todayStart) return count(scope);
      const s = stateOf(c.shop_id);
      // The checks of changes heard so far (not those heard meanwhile: a busy intake would keep a read waiting).
      if (s.pending.size) await Promise.all([...s.pending]);
      // Split at today's start: the same days, each over the same bounds, as one count of the whole scope.
      const past = scope.toIso > todayStart ? { ...scope, toIso: todayStart } : scope;
      const rest = scope.toIso > todayStart ? count({ ...scope, fromIso: todayStart }) : Promise.resolve([]);
      const key = JSON.stringify([c.id, c.updated_at, past.shopIds, past.fromIso, past.toIso, past.landingIds ?? [], past.mediaTypeIds ?? []]);
      const now = performance.now();
      let e = entries.get(key);
      if (!e || e.version !== s.version || now - e.at >= ttl) {
        const days = count(past);
        e = { shopId: c.shop_id, until: past.toIso, version: s.version, at: now, days };
        entries.delete(key);
        entries.set(key, e);
        // A failed count is not kept (the caller sees the failure).
        days.catch(() => entries.get(key)?.days === days && entries.delete(key));
        while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      }
      const [kept, fresh] = await Promise.all([e.days, rest]);
      return [...kept, ...fresh];
    },
  };
}
