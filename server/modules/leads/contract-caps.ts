// Contract caps: a shop's contract with automatic closing (auto_close) closes the landings it
// covers once its valid leads reach its quantity, or today's (Seoul) reach its daily cap — a
// daily closing until the next Seoul midnight. Three places keep to the caps:
// - the gate, in intake's transaction: leads past a cap are refused, never stored;
// - the closing step, in every transaction writing leads (intake, manual entry, import);
// - the reopening at midnight (reopenDue, a scheduled job) and the review after a contract changed.
// A contract's counting and closing run under its lock (`contract:<id>`), so two writers — two
// processes on PostgreSQL — never both take the last place. Every closing and reopening is
// recorded in contract_cap_events.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { lockKeys, serialTransaction } from '../../db/dialect-sql.ts';
import { contractCapsRepository, type CapContract, type CapLanding } from './contract-caps.repository.ts';
import type { NewLead } from './leads.repository.ts';
import { addDays, periodInstants, seoulDay, seoulDayStart } from '../../../contracts/kst.ts';
import { landingState } from '../../../contracts/landings.ts';

/** A lead as the caps see it: where it came from, and when it was received (default: now). */
export interface CapLead {
  lead: Pick<NewLead, 'shop_id' | 'landing_id' | 'media_type_id'>;
  receivedAt?: string;
}

const lockKey = (contractId: number) => `contract:${contractId}`;
const REOPEN_LOCK = 'contract-caps:reopen';

const dayOf = (l: CapLead, now: Date) => seoulDay(l.receivedAt ?? now);
const at = (iso: string | null) => (iso === null ? Infinity : Date.parse(iso));

/** Whether a contract covers a lead received on `day` (its shop, period, landings and media; a stopped contract covers nothing). */
export function covers(c: CapContract, l: CapLead, day: string): boolean {
  const { shop_id, landing_id, media_type_id } = l.lead;
  return (
    c.shop_id === shop_id && c.stopped_at === null && c.starts_on <= day && day <= c.ends_on &&
    (!c.landingIds.length || (landing_id != null && c.landingIds.includes(landing_id))) &&
    (!c.mediaTypeIds.length || (media_type_id != null && c.mediaTypeIds.includes(media_type_id)))
  );
}

type Reach = 'quantity' | 'daily' | null;
interface Counts {
  total: number;
  today: number;
}

/** The contract's valid leads: over its whole period, and today (Seoul). */
function countsOf(trx: Kysely<Database>, c: CapContract, now: Date): Promise<Counts> {
  const today = seoulDay(now);
  const day = periodInstants(today, today);
  return contractCapsRepository(trx).counts(
    { shopIds: [c.shop_id], ...periodInstants(c.starts_on, c.ends_on), landingIds: c.landingIds, mediaTypeIds: c.mediaTypeIds },
    day.fromIso,
    day.toIso,
  );
}

/** Which cap closes the contract's landings now, if any: only a running contract with automatic closing closes anything. */
function reachOf(c: CapContract, n: Counts, now: Date): Reach {
  const today = seoulDay(now);
  if (!c.auto_close || c.stopped_at !== null || today < c.starts_on || today > c.ends_on) return null;
  if (n.total >= c.quantity) return 'quantity';
  if (c.daily_cap !== null && n.today >= c.daily_cap) return 'daily';
  return null;
}

/** How many more valid leads the contract takes now. */
const capacityOf = (c: CapContract, n: Counts) => Math.min(c.quantity - n.total, c.daily_cap === null ? Infinity : c.daily_cap - n.today);

/**
 * Whether a landing is open, as far as caps go: published and not ended, or closed by a daily
 * cap whose midnight has come (a scheduled one counts: a cap reached closes it before it opens).
 */
const isOpen = (l: CapLanding, now: Date) => landingState({ status: l.status, openAt: null, closeAt: l.close_at, reopenAt: l.reopen_at }, now) === 'open';

// The contracts each transaction holds locked, per shop: the gate, insertAccepted and the
// closing step of one transaction read them once.
const held = new WeakMap<Kysely<Database>, Map<number, CapContract[]>>();

/**
 * The automatically closing contracts of these shops that run today, locked until `trx` ends.
 * All of a shop's are locked at once, and before the leads' phone locks: every transaction
 * takes its locks in the same order, so no two writers wait for each other.
 */
export async function lockRunningContracts(trx: Transaction<Database>, shopIds: readonly number[], now: Date): Promise<CapContract[]> {
  let memo = held.get(trx);
  if (!memo) held.set(trx, (memo = new Map()));
  const missing = [...new Set(shopIds)].filter((s) => !memo.has(s));
  if (missing.length) {
    const repo = contractCapsRepository(trx);
    const today = seoulDay(now);
    const seen = await repo.running(missing, today);
    let fresh = seen;
    if (seen.length) {
      await lockKeys(trx, seen.map((c) => lockKey(c.id)));
      // Read again under the locks: a contract changed while this waited counts as it is now.
      fresh = await repo.running(missing, today);
      const more = fresh.filter((c) => !seen.some((s) => s.id === c.id));
      if (more.length) await lockKeys(trx, more.map((c) => lockKey(c.id)));
    }
    for (const s of missing) memo.set(s, fresh.filter((c) => c.shop_id === s));
  }
  return [...new Set(shopIds)].flatMap((s) => memo.get(s) ?? []);
}

/** What settling a contract changed: landings it closed (or whose closing changed kind), landings it reopened. */
export interface CapChanges {
  closed: number[];
  reopened: number[];
}

/**
 * Brings the landings of a contract (locked by the caller) in line with its caps, in `trx`:
 * - a cap reached closes the covered landings still open (a daily cap until the next Seoul
 *   midnight), and turns its own closings into the cap's kind (a daily closing whose contract
 *   has meanwhile reached its quantity no longer reopens);
 * - no cap reached reopens its own closings: all of them (`reopen: 'all'`, after the contract
 *   changed), those whose midnight has come (`'due'`), or none (`'none'`, after leads were written).
 * Landings closed by hand (no contract) are never touched.
 */
async function settle(trx: Transaction<Database>, c: CapContract, now: Date, o: { reopen: 'all' | 'due' | 'none'; accountId: number | null }): Promise<CapChanges> {
  const changes: CapChanges = { closed: [], reopened: [] };
  const counts = await countsOf(trx, c, now);
  const reach = reachOf(c, counts, now);
  if (reach === null && o.reopen === 'none') return changes;
  const repo = contractCapsRepository(trx);
  const iso = now.toISOString();
  const t = now.getTime();
  const midnight = seoulDayStart(addDays(seoulDay(now), 1)).toISOString();
  const count = reach === 'daily' ? counts.today : counts.total;
  const event = (landingId: number, kind: 'closed-daily' | 'closed-quantity' | 'reopened') => ({
    contract_id: c.id, shop_id: c.shop_id, landing_id: landingId, kind, count: kind === 'reopened' ? counts.total : count,
    account_id: kind === 'reopened' ? o.accountId : null, at: iso,
  });
  const own = await repo.closedBy(c.id);
  const covered = reach === null ? [] : await repo.covered(c);
  const coveredIds = new Set(covered.map((l) => l.id));
  const reopenable = (l: CapLanding) => o.reopen === 'all' || (o.reopen === 'due' && at(l.reopen_at) <= t);

  // Its own closings that no cap holds any more (or of a landing it no longer covers).
  const reopen = own.filter((l) => (reach === null || !coveredIds.has(l.id)) && reopenable(l)).map((l) => l.id);
  await repo.updateLandings(reopen, { status: 'open', closed_by_contract_id: null, reopen_at: null, updated_at: iso });
  await repo.insertEvents(reopen.map((id) => event(id, 'reopened')));
  changes.reopened = reopen;
  if (reach === null) return changes;

  const kind = reach === 'daily' ? 'closed-daily' : 'closed-quantity';
  // Its own closings of the other kind (or a daily one whose midnight has come) take this one's;
  // the landings it covers still open close.
  const recast = own.filter((l) => coveredIds.has(l.id) && (reach === 'quantity' ? l.reopen_at !== null : l.reopen_at === null || at(l.reopen_at) <= t));
  const close = covered.filter((l) => !(l.status === 'closed' && l.closed_by_contract_id === c.id) && isOpen(l, now));
  const ids = [...recast, ...close].map((l) => l.id);
  await repo.updateLandings(ids, { status: 'closed', closed_by_contract_id: c.id, reopen_at: reach === 'daily' ? midnight : null, updated_at: iso });
  await repo.insertEvents(ids.map((id) => event(id, kind)));
  changes.closed = ids;
  return changes;
}

/**
 * The closing step, after leads are written in `trx` (a same-transaction step of insertAccepted):
 * each contract a new non-duplicate lead counts toward settles, and the last such lead of it
 * carries the landings it closed (`closedLandingIds`), so the writer can drop their cached pages.
 */
export async function closeAtCaps(trx: Transaction<Database>, leads: Array<CapLead & { duplicateOf: number | null; closedLandingIds?: number[] }>, now: Date): Promise<void> {
  const counted = leads.filter((l) => l.duplicateOf === null);
  if (!counted.length) return;
  for (const c of await lockRunningContracts(trx, counted.map((l) => l.lead.shop_id), now)) {
    const mine = counted.filter((l) => covers(c, l, dayOf(l, now)));
    if (!mine.length) continue;
    const { closed } = await settle(trx, c, now, { reopen: 'none', accountId: null });
    if (closed.length) {
      const last = mine[mine.length - 1]!;
      last.closedLandingIds = [...new Set([...(last.closedLandingIds ?? []), ...closed])];
    }
  }
}

/** Intake's gate: which submissions of a batch its contracts still take. */
export interface CapGate {
  /**
   * insertAccepted's admission hook, called per lead in order once its duplicate status is
   * known: a lead whose contract has room (or that no closing contract covers) is admitted,
   * and a non-duplicate uses one place; a lead whose landing another writer closed meanwhile,
   * or whose contract is full, is refused.
   */
  admit(l: CapLead, duplicateOf: number | null): boolean;
  /** After the leads are written: closes the landings still open of contracts found full. Returns the landings closed. */
  settle(): Promise<number[]>;
}

/** Locks and reads the contracts covering these leads (before any is written), in `trx`. */
export async function contractCapGate(trx: Transaction<Database>, leads: readonly CapLead[], now: Date): Promise<CapGate> {
  const contracts = leads.length ? await lockRunningContracts(trx, leads.map((l) => l.lead.shop_id), now) : [];
  if (!contracts.length) return { admit: () => true, settle: async () => [] };
  // Each lead's contract, found once (admit asks again per lead, with the same answer).
  const coverage = new Map<CapLead, CapContract | undefined>();
  for (const l of leads) {
    const day = dayOf(l, now);
    coverage.set(l, contracts.find((c) => covers(c, l, day)));
  }
  const coverOf = (l: CapLead) => (coverage.has(l) ? coverage.get(l) : contracts.find((c) => covers(c, l, dayOf(l, now))));
  const covered = leads.filter((l) => coverage.get(l));
  const coveredContracts = new Set(covered.map((l) => coverage.get(l)!));
  const left = new Map<number, number>();
  for (const c of contracts) if (coveredContracts.has(c)) left.set(c.id, capacityOf(c, await countsOf(trx, c, now)));
  // The landings as they are now, under the locks: another writer may have closed one since intake read it.
  const landingIds = [...new Set(covered.map((l) => l.lead.landing_id).filter((id): id is number => id != null))];
  const closedLandings = new Set((await contractCapsRepository(trx).landings(landingIds)).filter((l) => !isOpen(l, now)).map((l) => l.id));
  const full = new Set<CapContract>();
  return {
    admit(l, duplicateOf) {
      const c = coverOf(l);
      if (!c) return true;
      if (l.lead.landing_id != null && closedLandings.has(l.lead.landing_id)) return false;
      const n = left.get(c.id)!;
      if (n <= 0) {
        full.add(c);
        return false;
      }
      if (duplicateOf === null) left.set(c.id, n - 1);
      return true;
    },
    async settle() {
      const closed: number[] = [];
      for (const c of full) closed.push(...(await settle(trx, c, now, { reopen: 'none', accountId: null })).closed);
      return [...new Set(closed)];
    },
  };
}

/**
 * After a contract changed (quantity, daily cap, automatic closing, period, stop) or a lead of
 * it was returned: under its lock, in `trx`, the landings it closed whose cap no longer holds
 * reopen (recorded with `accountId`), and those a cap now reached covers close. Call it before
 * writing leads in the same transaction (locks are taken contract first).
 */
export async function reviewContractCaps(trx: Transaction<Database>, contractId: number, now: Date, accountId: number | null): Promise<CapChanges> {
  await lockKeys(trx, [lockKey(contractId)]);
  const c = await contractCapsRepository(trx).contract(contractId);
  if (!c) return { closed: [], reopened: [] };
  return settle(trx, c, now, { reopen: 'all', accountId });
}

/**
 * Reopens the landings a daily cap closed once their midnight has come (the scheduled job;
 * several processes may run it: it takes its own lock). A landing whose contract has meanwhile
 * reached its quantity stays closed, as a quantity closing. Returns the landings changed.
 */
export async function reopenDue(db: Kysely<Database>, now: Date): Promise<number[]> {
  const iso = now.toISOString();
  // One index probe first: nothing due costs no transaction.
  if (!(await contractCapsRepository(db).due(iso, 1)).length) return [];
  return serialTransaction(db, REOPEN_LOCK, async (trx) => {
    const repo = contractCapsRepository(trx);
    const due = await repo.due(iso);
    const contractIds = [...new Set(due.map((l) => l.closed_by_contract_id).filter((id): id is number => id !== null))];
    await lockKeys(trx, contractIds.map(lockKey));
    const changed = new Set<number>();
    for (const id of contractIds) {
      const c = await repo.contract(id);
      if (!c) continue;
      const { closed, reopened } = await settle(trx, c, now, { reopen: 'due', accountId: null });
      for (const l of [...closed, ...reopened]) changed.add(l);
    }
    // Due without a contract to settle it (none named, or gone): nothing holds it closed.
    const orphans = due.filter((l) => !changed.has(l.id)).map((l) => l.id);
    await repo.updateLandings(orphans, { status: 'open', closed_by_contract_id: null, reopen_at: null, updated_at: iso });
    for (const l of orphans) changed.add(l);
    return [...changed];
  });
}

/**
 * Leads of a shop change whether they count (무효 set or cleared, deleted, restored): the shop's
 * running contracts are locked before `change` runs (contract locks first, as everywhere), and
 * settle after it — a count that fell below a cap reopens its closings, one that rose closes.
 * Returns what `change` returned and the landings that changed.
 */
export async function withCapsSettled<T>(trx: Transaction<Database>, shopId: number, now: Date, accountId: number | null, change: () => Promise<T>): Promise<{ result: T; landings: number[] }> {
  const contracts = await lockRunningContracts(trx, [shopId], now);
  const result = await change();
  const landings: number[] = [];
  for (const c of contracts) {
    const { closed, reopened } = await settle(trx, c, now, { reopen: 'all', accountId });
    landings.push(...closed, ...reopened);
  }
  return { result, landings };
}
