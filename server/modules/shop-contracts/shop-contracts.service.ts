// Contracts of a shop: the rules of writing one (its landings and media the shop's, no two
// contracts counting the same lead), stopping and resuming, deleting only what never counted,
// and the figures of 계약 현황, the leads behind them and the monthly settlement — all from
// one grouped query per contract (figures.ts), so every screen shows the same numbers.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { serialTransaction } from '../../db/dialect-sql.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import type { ModuleLinks } from '../../links.ts';
import { auditBy, recordAccess, type Actor } from '../audit/audit.service.ts';
import { reviewContractCaps } from '../leads/leads.entry.ts';
import { shopContractsRepository, type ContractRow } from './shop-contracts.repository.ts';
import { computeDays, contractScope, everyDay, lastDayOf, monthLastDay, stoppedOn, type ComputedDays } from './figures.ts';
import { settlementSheet } from './settlement-sheet.ts';
import { pastDays, type PastDays } from './past-days.ts';
import type { FileReply } from '../../../contracts/endpoint.ts';
import { addDays, periodInstants, seoulDay } from '../../../contracts/kst.ts';
import { contractStatus, contractsOverlap, projection, replacementsOwed, vatOf, type ContractStatus } from '../../../contracts/money.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import type {
  ContractFigures, ContractInput, ContractItem, ContractLeadItem, ContractLeadsQuery, ContractListQuery, ContractStatusResponse, ContractStopInput,
  Settlement, SettlementQuery,
} from '../../../contracts/shop-contracts.ts';
import type { CsStatus, Validity } from '../../../contracts/leads.ts';
import { uncoveredLandings } from '../../db/contract-coverage.ts';

/** How long after its last day a contract still shows on 계약 현황 by default. */
const STATUS_RECENT_DAYS = 31;
const STATUS_MAX_CONTRACTS = 20;
const CAP_EVENTS = 20;

const CONTRACT_NOT_FOUND = '계약을 찾을 수 없습니다.';
const CONTRACT_IN_USE = '집계된 DB나 반품·마감 이력이 있는 계약은 삭제할 수 없습니다. 대신 중지하세요.';

type Repo = ReturnType<typeof shopContractsRepository>;
type Scope = { landingIds: number[]; landingTitles: string[]; mediaTypeIds: number[]; mediaTypeNames: string[] };

/** Each contract's landings and media, with their names. */
async function scopesOf(repo: Repo, ids: number[]): Promise<Map<number, Scope>> {
  const { landings, media } = await repo.scopes(ids);
  const out = new Map<number, Scope>(ids.map((id) => [id, { landingIds: [], landingTitles: [], mediaTypeIds: [], mediaTypeNames: [] }]));
  for (const l of landings) {
    const s = out.get(l.contract_id)!;
    s.landingIds.push(l.id);
    s.landingTitles.push(l.name);
  }
  for (const m of media) {
    const s = out.get(m.contract_id)!;
    s.mediaTypeIds.push(m.id);
    s.mediaTypeNames.push(m.name);
  }
  return out;
}

type Links = Pick<ModuleLinks, 'landingsChanged' | 'watchAllLeads'>;

/**
 * One app's kept past days (past-days.ts), shared by its instances of this service (the routes'
 * and the dashboards'), which all hear the app's lead feed: keyed by the app's links.
 */
const keptDays = new WeakMap<Links, PastDays>();

function keptDaysOf(db: Kysely<Database>, links: Links): PastDays {
  let kept = keptDays.get(links);
  if (!kept) {
    const repo = shopContractsRepository(db);
    kept = pastDays({ watch: (fn) => links.watchAllLeads(fn), anyBefore: (shopId, ids, before) => repo.anyBefore(shopId, ids, before) });
    keptDays.set(links, kept);
  }
  return kept;
}

const statusOf = (c: ContractRow, counted: number, today: string): ContractStatus =>
  contractStatus({ startsOn: c.starts_on, endsOn: c.ends_on, stoppedOn: stoppedOn(c), quantity: c.quantity }, counted, today);

function toItem(c: ContractRow, s: Scope, counted: number, today: string): ContractItem {
  return {
    id: c.id, shopId: c.shop_id, name: c.name, startsOn: c.starts_on, endsOn: c.ends_on, quantity: c.quantity, unitPrice: c.unit_price,
    dailyCap: c.daily_cap, returnWindowDays: c.return_window_days, maxReturnRate: c.max_return_rate, autoClose: !!c.auto_close,
    stoppedAt: c.stopped_at, stoppedOn: stoppedOn(c), memo: c.memo, ...s, status: statusOf(c, counted, today), counted,
    createdAt: c.created_at, updatedAt: c.updated_at,
  };
}

/** The contract (other than `selfId`) that would count the same leads, if any: a 409 naming it and its days. */
/** A contract's terms as its row stores them (what create and update both write). */
const termsRow = (input: ContractInput) => ({
  name: input.name, starts_on: input.startsOn, ends_on: input.endsOn, quantity: input.quantity, unit_price: input.unitPrice, daily_cap: input.dailyCap,
  return_window_days: input.returnWindowDays, max_return_rate: input.maxReturnRate, auto_close: input.autoClose ? 1 : 0, memo: input.memo ?? null,
});

async function refuseOverlap(repo: Repo, shopId: number, candidate: { startsOn: string; lastDay: string; landingIds: number[]; mediaTypeIds: number[] }, selfId?: number) {
  const others = (await repo.contracts(shopId)).filter((c) => c.id !== selfId);
  const scopes = await scopesOf(repo, others.map((c) => c.id));
  for (const o of others) {
    const s = scopes.get(o.id)!;
    const last = lastDayOf(o);
    if (contractsOverlap(candidate, { startsOn: o.starts_on, lastDay: last, landingIds: s.landingIds, mediaTypeIds: s.mediaTypeIds })) {
      const message = `'${o.name}' 계약(${o.starts_on} ~ ${last})과 기간·랜딩·매체가 겹칩니다. 한 DB는 한 계약에만 집계되니 기간이나 랜딩·매체를 조정하세요.`;
      throw conflict(message, { startsOn: message });
    }
  }
}

/** What the parts of the service share: the repository, the kept past days, a contract's figures. */
function contractCore(db: Kysely<Database>, clock: Clock, links: Links) {
  const repo = shopContractsRepository(db);
  const load = (shopId: number, id: number) => foundOr404(repo.contract(shopId, id), CONTRACT_NOT_FOUND);
  const kept = keptDaysOf(db, links);

  /** A contract's per-day figures (none when it covers no day): its past days as kept, today's counted now. */
  async function daysOf(repo: Repo, c: ContractRow, s: Scope): Promise<ComputedDays> {
    const scope = contractScope(c, s.landingIds, s.mediaTypeIds);
    const days = scope ? await kept.scopeDays(c, scope, seoulDay(clock()), (x) => repo.scopeDays(x)) : [];
    return computeDays(days, c.quantity, c.daily_cap);
  }

  async function item(shopId: number, id: number): Promise<ContractItem> {
    const c = await load(shopId, id);
    const s = (await scopesOf(repo, [id])).get(id)!;
    return toItem(c, s, (await daysOf(repo, c, s)).billable, seoulDay(clock()));
  }

  async function figures(c: ContractRow, s: Scope, today: string, returns: { requested: number; approved: number; rejected: number },
    closed: ContractFigures['closedLandings']): Promise<ContractFigures> {
    const [d, events] = await Promise.all([daysOf(repo, c, s), repo.capEvents(c.id, CAP_EVENTS)]);
    const last = lastDayOf(c);
    const todays = today >= c.starts_on && today <= last ? d.days.find((x) => x.day === today) : undefined;
    const amount = d.billable * c.unit_price;
    const vat = vatOf(amount);
    const p = projection({ startsOn: c.starts_on, endsOn: last, quantity: c.quantity }, d.billable, today);
    const delivered = d.valid + d.returned;
    const used = returns.approved + returns.requested;
    const shown = everyDay(c.starts_on, today < last ? today : last, d.days);
    let cumulative = 0;
    return {
      contract: toItem(c, s, d.billable, today),
      today, lastDay: last,
      counted: d.billable, over: d.over, quantity: c.quantity, remaining: Math.max(0, c.quantity - d.billable),
      todayCount: { valid: todays?.valid ?? 0, billable: todays?.billable ?? 0, dailyCap: c.daily_cap },
      amount, vat, total: amount + vat,
      dailyAverage: Math.round(p.dailyAverage * 10) / 10, projectedOn: stoppedOn(c) ? null : p.projectedOn,
      returns, delivered,
      returnRate: delivered ? Math.round((used / delivered) * 1000) / 10 : null,
      maxReturnRate: c.max_return_rate,
      replacementsOwed: replacementsOwed(c.quantity, d.billable, returns.approved),
      excluded: { duplicates: d.duplicates, invalid: d.invalid, returned: d.returned, deleted: d.deleted },
      closedLandings: closed,
      days: shown.map((x) => ({ day: x.day, valid: x.valid, billable: x.billable, over: x.over, cumulative: (cumulative += x.billable) })),
      capEvents: events.map((e) => ({ id: e.id, kind: e.kind, landingId: e.landing_id, landingTitle: e.landing_title, count: e.count, accountName: e.account_name, at: e.at })),
    };
  }

  /** 계약 현황's figures of these contracts, in their order: one grouped query per contract, the rest read for all at once. */
  async function figuresOf(rows: ContractRow[], today: string): Promise<ContractFigures[]> {
    const ids = rows.map((c) => c.id);
    const [scopes, counts, closed] = await Promise.all([scopesOf(repo, ids), repo.returnCounts(ids), repo.closedLandings(ids)]);
    const returns = (id: number) => {
      const of = (status: string) => Number(counts.find((x) => x.contract_id === id && x.status === status)?.n ?? 0);
      return { requested: of('requested'), approved: of('approved'), rejected: of('rejected') };
    };
    return Promise.all(
      rows.map((c) => figures(c, scopes.get(c.id)!, today, returns(c.id),
        closed.filter((l) => l.closed_by_contract_id === c.id).map((l) => ({ id: l.id, title: l.title, reopenAt: l.reopen_at })))),
    );
  }

  return { db, clock, links, repo, load, kept, daysOf, item, figuresOf };
}
type Core = ReturnType<typeof contractCore>;

/** 계약 관리's table and one contract. */
function contractList({ clock, repo, daysOf, item }: Core) {
  return {
    /** 계약 관리's table: status is computed (it depends on the counted leads), so the shop's contracts are filtered and paged here. */
    async list(shopId: number, q: ContractListQuery) {
      const today = seoulDay(clock());
      let rows = await repo.contracts(shopId);
      if (q.q) rows = rows.filter((c) => c.name.toLowerCase().includes(q.q!.toLowerCase()));
      const scopes = await scopesOf(repo, rows.map((c) => c.id));
      const counted = new Map<number, number>();
      const count = async (c: ContractRow) => {
        if (!counted.has(c.id)) counted.set(c.id, (await daysOf(repo, c, scopes.get(c.id)!)).billable);
        return counted.get(c.id)!;
      };
      if (q.status) {
        // Only a running contract's status depends on its count (completed once its quantity is met).
        const running = rows.filter((c) => !c.stopped_at && c.starts_on <= today && today <= c.ends_on);
        await Promise.all(running.map(count));
        rows = rows.filter((c) => statusOf(c, counted.get(c.id) ?? 0, today) === q.status);
      }
      const key = q.sort?.replace(/^-/, '') ?? 'startsOn';
      const desc = q.sort ? q.sort.startsWith('-') : true;
      const column = ({ startsOn: 'starts_on', name: 'name', endsOn: 'ends_on', updatedAt: 'updated_at' } as const)[key as 'startsOn'];
      rows.sort((a, b) => {
        const x = a[column] < b[column] ? -1 : a[column] > b[column] ? 1 : a.id - b.id;
        return desc ? -x : x;
      });
      const page = rows.slice((q.page - 1) * q.pageSize, q.page * q.pageSize);
      await Promise.all(page.map(count));
      return { items: page.map((c) => toItem(c, scopes.get(c.id)!, counted.get(c.id)!, today)), total: rows.length };
    },

    get: item,
  };
}

/** Writing a contract: its rules, its caps reviewed in the same transaction, its audit entry. */
function contractWrites({ db, clock, links, item }: Core) {
  /** The shop's landings and media of an input, checked; duplicates dropped. */
  async function checkedScope(r: Repo, shopId: number, input: ContractInput) {
    const landingIds = [...new Set(input.landingIds)];
    const mediaTypeIds = [...new Set(input.mediaTypeIds)];
    if ((await r.shopLandings(shopId, landingIds)).length !== landingIds.length) {
      throw badRequest('이 업체의 랜딩만 고를 수 있습니다.', { landingIds: '이 업체의 랜딩만 고를 수 있습니다.' });
    }
    if ((await r.mediaTypes(mediaTypeIds)).length !== mediaTypeIds.length) {
      throw badRequest('매체는 매체 유형 목록에서 고르세요.', { mediaTypeIds: '매체는 매체 유형 목록에서 고르세요.' });
    }
    return { landingIds, mediaTypeIds };
  }

  /** A write that may move a contract's caps: the landings it closed or opened render anew after the commit. */
  async function withCaps(shopId: number, actor: Actor, fn: (trx: Transaction<Database>, now: Date) => Promise<number>): Promise<number> {
    const now = clock();
    const { id, changed } = await serialTransaction(db, `shop-contracts:${shopId}`, async (trx) => {
      const contractId = await fn(trx, now);
      const caps = await reviewContractCaps(trx, contractId, now, actor.id);
      return { id: contractId, changed: [...caps.closed, ...caps.reopened] };
    });
    if (changed.length) await links.landingsChanged(changed);
    return id;
  }

  /** 등록 (no id) or 수정: its scope checked, no overlap with another contract, its terms and scope written, audited. */
  async function save(shopId: number, id: number | null, input: ContractInput, actor: Actor): Promise<ContractItem> {
    const saved = await withCaps(shopId, actor, async (trx, now) => {
      const r = shopContractsRepository(trx);
      const before = id === null ? null : await foundOr404(r.contract(shopId, id), CONTRACT_NOT_FOUND);
      const scope = await checkedScope(r, shopId, input);
      const stopped = before && stoppedOn(before);
      await refuseOverlap(r, shopId, { startsOn: input.startsOn, lastDay: stopped && stopped < input.endsOn ? stopped : input.endsOn, ...scope }, before?.id);
      const at = now.toISOString();
      const contractId = before
        ? (await r.update(before.id, { ...termsRow(input), updated_at: at }), before.id)
        : await r.insert({ shop_id: shopId, ...termsRow(input), stopped_at: null, created_by: actor.id, created_at: at, updated_at: at });
      await r.setScope(contractId, scope.landingIds, scope.mediaTypeIds);
      await auditBy(trx, actor, before
        ? {
            action: 'contract-update', target: 'shop-contract', targetId: contractId,
            detail: { shopId, before: { name: before.name, startsOn: before.starts_on, endsOn: before.ends_on, quantity: before.quantity, unitPrice: before.unit_price, dailyCap: before.daily_cap }, after: { ...input, ...scope } },
          }
        : { action: 'contract-create', target: 'shop-contract', targetId: contractId, detail: { shopId, ...input, ...scope } }, now);
      return contractId;
    });
    return item(shopId, saved);
  }

  return {
    create: (shopId: number, input: ContractInput, actor: Actor) => save(shopId, null, input, actor),
    update: (shopId: number, id: number, input: ContractInput, actor: Actor) => save(shopId, id, input, actor),

    /** 중지: it counts no lead after the day it is stopped on; its days after that are free for another contract. */
    async stop(shopId: number, id: number, input: ContractStopInput, actor: Actor): Promise<ContractItem> {
      await withCaps(shopId, actor, async (trx, now) => {
        const r = shopContractsRepository(trx);
        const c = await foundOr404(r.contract(shopId, id), CONTRACT_NOT_FOUND);
        if (c.stopped_at) throw conflict('이미 중지된 계약입니다.');
        if (seoulDay(now) > c.ends_on) throw conflict('기간이 끝난 계약은 중지할 수 없습니다.');
        await r.update(id, { stopped_at: now.toISOString(), updated_at: now.toISOString() });
        await auditBy(trx, actor, { action: 'contract-stop', target: 'shop-contract', targetId: id, detail: { shopId, reason: input.reason } }, now);
        return id;
      });
      return item(shopId, id);
    },

    /** Undoes 중지: the contract counts its whole period again, unless another contract took some of its days meanwhile. */
    async resume(shopId: number, id: number, actor: Actor): Promise<ContractItem> {
      await withCaps(shopId, actor, async (trx, now) => {
        const r = shopContractsRepository(trx);
        const c = await foundOr404(r.contract(shopId, id), CONTRACT_NOT_FOUND);
        if (!c.stopped_at) throw conflict('중지된 계약이 아닙니다.');
        const s = (await scopesOf(r, [id])).get(id)!;
        await refuseOverlap(r, shopId, { startsOn: c.starts_on, lastDay: c.ends_on, landingIds: s.landingIds, mediaTypeIds: s.mediaTypeIds }, id);
        await r.update(id, { stopped_at: null, updated_at: now.toISOString() });
        await auditBy(trx, actor, { action: 'contract-resume', target: 'shop-contract', targetId: id, detail: { shopId, stoppedAt: c.stopped_at } }, now);
        return id;
      });
      return item(shopId, id);
    },

    /** Only a contract that never counted a lead, had no return and closed no landing. */
    async remove(shopId: number, id: number, actor: Actor): Promise<void> {
      const now = clock();
      await serialTransaction(db, `shop-contracts:${shopId}`, async (trx) => {
        const r = shopContractsRepository(trx);
        const c = await foundOr404(r.contract(shopId, id), CONTRACT_NOT_FOUND);
        const s = (await scopesOf(r, [id])).get(id)!;
        const scope = contractScope(c, s.landingIds, s.mediaTypeIds);
        const counted = computeDays(scope ? await r.scopeDays(scope) : [], c.quantity, c.daily_cap).billable;
        const h = await r.history(id);
        if (counted || h.returns || h.capEvents || h.closedLandings) throw conflict(CONTRACT_IN_USE);
        await r.remove(id);
        await auditBy(trx, actor, { action: 'contract-delete', target: 'shop-contract', targetId: id, detail: { shopId, name: c.name, startsOn: c.starts_on, endsOn: c.ends_on } }, now);
      });
    },
  };
}

/** 계약 현황, the dashboards' contracts, the leads behind a figure, the monthly settlement. */
function contractReports({ db, clock, repo, load, daysOf, figuresOf }: Core) {
  return {
    /** 계약 현황: one contract, or the shop's scheduled, running and recently ended ones, newest first. */
    async status(shopId: number, contractId: number | undefined): Promise<ContractStatusResponse> {
      const today = seoulDay(clock());
      let rows: ContractRow[];
      if (contractId !== undefined) rows = [await load(shopId, contractId)];
      else {
        const since = addDays(today, -STATUS_RECENT_DAYS);
        rows = (await repo.contracts(shopId))
          .filter((c) => lastDayOf(c) >= since)
          .sort((a, b) => (a.starts_on < b.starts_on ? 1 : a.starts_on > b.starts_on ? -1 : b.id - a.id))
          .slice(0, STATUS_MAX_CONTRACTS);
      }
      const [contracts, uncovered] = await Promise.all([figuresOf(rows, today), uncoveredLandings(db, [shopId], today)]);
      return { today, contracts, uncoveredLandings: uncovered.map(({ landingId, title, reasons }) => ({ landingId, title, reasons })) };
    },

    /**
     * The dashboards' contracts: of these shops, those running and those whose last day is at
     * most `recentDays` days past, each with 계약 현황's figures (the same computation).
     */
    async progress(shopIds: readonly number[], recentDays: number): Promise<ContractFigures[]> {
      const today = seoulDay(clock());
      const since = addDays(today, -recentDays);
      const rows = (await repo.recentContracts(shopIds, since, today)).filter((c) => lastDayOf(c) >= since);
      return figuresOf(rows, today);
    },

    /** The leads behind one of a contract's figures (masked); the view is in the access record. */
    async leads(shopId: number, id: number, q: ContractLeadsQuery, actor: Actor) {
      const now = clock();
      const today = seoulDay(now);
      const c = await load(shopId, id);
      const s = (await scopesOf(repo, [id])).get(id)!;
      const scope = contractScope(c, s.landingIds, s.mediaTypeIds);
      if (!scope) return { items: [], total: 0 };
      const d = computeDays(await repo.scopeDays(scope), c.quantity, c.daily_cap);
      const todayScope = today >= c.starts_on && today <= lastDayOf(c) ? { ...scope, ...periodInstants(today, today) } : null;
      const assigneeId = actor.scope === 'assigned' ? actor.id : null;
      const page = (q.kind === 'counted' || q.kind === 'over') && assigneeId === null
        ? await repo.rankedPage(scope, q.kind, d.rule, d.days.map((x) => ({ day: x.day, n: q.kind === 'counted' ? x.billable : x.over })), q)
        : await repo.leads(scope, q.kind, d.rule, id, todayScope, q, assigneeId);
      await recordAccess(db, actor, { shopId, action: 'search', rowCount: page.rows.length, detail: { screen: 'contract-status', contractId: id, kind: q.kind, page: q.page } }, now);
      return {
        items: page.rows.map((r): ContractLeadItem => ({
          id: r.id, createdAt: r.created_at, landingTitle: r.landing_title, mediaTypeName: r.media_type_name, name: r.name, phone: maskPhone(r.phone),
          csStatus: r.cs_status as CsStatus, validity: r.validity as Validity, duplicateOf: r.duplicate_of, deletedAt: r.deleted_at,
          returnStatus: (r.return_status ?? null) as ContractLeadItem['returnStatus'],
        })),
        total: page.total,
      };
    },

    /** One month of a contract per Seoul day: a slice of the same days 계약 현황 adds up. */
    async settlement(shopId: number, id: number, q: SettlementQuery): Promise<Settlement> {
      const today = seoulDay(clock());
      const c = await load(shopId, id);
      const s = (await scopesOf(repo, [id])).get(id)!;
      const last = lastDayOf(c);
      // Default: this month while it runs; else the month it ended in (or begins in).
      const month = q.month ?? (today < c.starts_on ? c.starts_on : today > last ? last : today).slice(0, 7);
      const first = `${month}-01`;
      const end = monthLastDay(month);
      const from = first > c.starts_on ? first : c.starts_on;
      const to = end < last ? end : last;
      const d = await daysOf(repo, c, s);
      const days = from <= to ? everyDay(from, to, d.days) : [];
      const sum = (k: 'valid' | 'billable' | 'over' | 'returned') => days.reduce((n, x) => n + x[k], 0);
      const amount = sum('billable') * c.unit_price;
      const vat = vatOf(amount);
      const m = periodInstants(first, end);
      return {
        contract: toItem(c, s, d.billable, today),
        month, from: from <= to ? from : null, to: from <= to ? to : null,
        days: days.map((x) => ({ day: x.day, valid: x.valid, billable: x.billable, over: x.over, returned: x.returned })),
        totals: {
          valid: sum('valid'), billable: sum('billable'), over: sum('over'), returned: sum('returned'),
          returnsApprovedInMonth: await repo.approvedBetween(id, m.fromIso, m.toIso),
          unitPrice: c.unit_price, amount, vat, total: amount + vat,
        },
      };
    },

    /** The settlement as the XLSX 정산서 the agency sends the shop. */
    async settlementXlsx(shopId: number, id: number, q: SettlementQuery): Promise<FileReply> {
      const data = await this.settlement(shopId, id, q);
      const [shop, operator] = await Promise.all([repo.shop(shopId), repo.operator()]);
      return settlementSheet(data, shop, operator ?? null);
    },
  };
}

export function shopContractsService(db: Kysely<Database>, clock: Clock, links: Links) {
  const core = contractCore(db, clock, links);
  return {
    /** A change this process made to the shop's past leads (a return decided): kept past days are counted again at once, before the feed tells. */
    leadsChanged: (shopId: number) => core.kept.invalidate(shopId),
    ...contractList(core),
    ...contractWrites(core),
    ...contractReports(core),
  };
}
