// Bench steps for the money screens on a bulk-seeded database (scripts/seed-bulk.ts: seedBulkMoney
// gives each shop a 12-month contract over all its landings ending today, a year of ad spend per
// medium and monthly CPA targets); the caller starts the app, logs in and prints:
//   benchContractStatus — 계약 현황 of one contract over real HTTP (GET …/contracts/status?contractId=;
//                         goal p95 ≤ 100 ms for the largest shop's 12-month contract), and the first page
//                         of the leads behind its 정산 대상 count (GET …/contracts/:id/leads?kind=counted;
//                         no goal). Each view of those leads is recorded in access_events, like any other.
//   benchAdFigures      — a month of 광고 현황 figures over several shops: in-process, adFigures()
//                         (the ad-spend service's, every shop in one call) on the bench's own database
//                         handle (goal p95 ≤ 200 ms for 20 shops); and over real HTTP, where only the
//                         per-shop route exists (GET /api/shops/:shopId/ad-spend), as the sum of one
//                         request per shop made one after the other (no goal).
//   contractScopeOf     — the leads a contract covers, for the caller's query plans.
// Times are milliseconds, sorted ascending.
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import type { LeadScope } from '../server/db/valid-leads.ts';
import { adFigures } from '../server/modules/ad-spend/ad-spend.service.ts';
import { shopContractsRepository } from '../server/modules/shop-contracts/shop-contracts.repository.ts';
import { contractScope } from '../server/modules/shop-contracts/figures.ts';
import { pathOf } from '../contracts/endpoint.ts';
import { shopContractsApi, type ContractStatusResponse } from '../contracts/shop-contracts.ts';
import { adSpendApi, type AdSpendFigures } from '../contracts/ad-spend.ts';

const STATUS_REQUESTS = 30;
const LEADS_REQUESTS = 30;
const AD_RUNS = 20;
const AD_ROUNDS = 10;
const WARMUP = 3;

async function get<T>(base: string, cookie: string, path: string): Promise<{ ms: number; body: T }> {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie } });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
  return { ms, body: JSON.parse(text) as T };
}

/** `n` timed GETs of one path after a few untimed ones; sorted times and the last answer. */
async function repeat<T>(base: string, cookie: string, path: string, n: number): Promise<{ sorted: number[]; last: T }> {
  for (let i = 0; i < WARMUP; i++) await get(base, cookie, path);
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < n; i++) {
    const r = await get<T>(base, cookie, path);
    times.push(r.ms);
    last = r.body;
  }
  return { sorted: times.sort((a, b) => a - b), last: last! };
}

export interface ContractStatusFigure {
  status: number[];
  leads: number[];
  /** What the status answered: the contract's 정산 대상 count, its days, and the leads page's total. */
  counted: number;
  days: number;
  leadsTotal: number;
}

/** 계약 현황 of one contract, then the first page of its counted leads, each `n` times (STATUS_REQUESTS / LEADS_REQUESTS). */
export async function benchContractStatus(base: string, cookie: string, shopId: number, contractId: number, n?: number): Promise<ContractStatusFigure> {
  const status = await repeat<ContractStatusResponse>(base, cookie, `${pathOf(shopContractsApi.status.path, { shopId })}?${new URLSearchParams({ contractId: String(contractId) })}`, n ?? STATUS_REQUESTS);
  const figures = status.last.contracts[0];
  if (!figures || figures.contract.id !== contractId) throw new Error(`contract status: contract ${contractId} missing from the answer`);
  const leadsPath = `${pathOf(shopContractsApi.leads.path, { shopId, id: contractId })}?${new URLSearchParams({ kind: 'counted', page: '1', pageSize: '20' })}`;
  const leads = await repeat<{ items: unknown[]; total: number }>(base, cookie, leadsPath, n ?? LEADS_REQUESTS);
  return { status: status.sorted, leads: leads.sorted, counted: figures.counted, days: figures.days.length, leadsTotal: leads.last.total };
}

export interface AdTotalsSeen {
  leads: number;
  validLeads: number;
  spend: number;
}

/** A month (or any period of Seoul days) of every shop's figures in one adFigures() call, `runs` times (AD_RUNS) on `db`. */
export async function benchAdFiguresInProcess(db: Kysely<Database>, shopIds: readonly number[], from: string, to: string, runs = AD_RUNS): Promise<{ sorted: number[]; totals: AdTotalsSeen }> {
  const run = () => adFigures(db, { shopIds, from, to, byLanding: false });
  for (let i = 0; i < WARMUP; i++) await run();
  const times: number[] = [];
  let last: Awaited<ReturnType<typeof run>> | undefined;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    last = await run();
    times.push(performance.now() - t0);
  }
  const { leads, validLeads, spend } = last!.totals;
  return { sorted: times.sort((a, b) => a - b), totals: { leads, validLeads, spend } };
}

/** The same figures over HTTP: per round (AD_ROUNDS), one GET per shop in turn; sorted round sums, sorted single requests, and the shops' totals added up. */
export async function benchAdFiguresHttp(base: string, cookie: string, shopIds: readonly number[], from: string, to: string, roundsWanted = AD_ROUNDS): Promise<{ rounds: number[]; requests: number[]; totals: AdTotalsSeen }> {
  const query = `?${new URLSearchParams({ from, to })}`;
  const round = async () => {
    let sum = 0;
    const each: number[] = [];
    const totals: AdTotalsSeen = { leads: 0, validLeads: 0, spend: 0 };
    for (const shopId of shopIds) {
      const r = await get<AdSpendFigures>(base, cookie, `${pathOf(adSpendApi.figures.path, { shopId })}${query}`);
      sum += r.ms;
      each.push(r.ms);
      totals.leads += r.body.totals.leads;
      totals.validLeads += r.body.totals.validLeads;
      totals.spend += r.body.totals.spend;
    }
    return { sum, each, totals };
  };
  await round();
  const rounds: number[] = [];
  const requests: number[] = [];
  let totals: AdTotalsSeen | undefined;
  for (let i = 0; i < roundsWanted; i++) {
    const r = await round();
    rounds.push(r.sum);
    requests.push(...r.each);
    totals = r.totals;
  }
  return { rounds: rounds.sort((a, b) => a - b), requests: requests.sort((a, b) => a - b), totals: totals! };
}

/** The leads a contract covers (its days up to its effective end, its landings and media), as 계약 현황 counts them. */
export async function contractScopeOf(db: Kysely<Database>, shopId: number, contractId: number): Promise<LeadScope> {
  const repo = shopContractsRepository(db);
  const c = await repo.contract(shopId, contractId);
  if (!c) throw new Error(`contract ${contractId} of shop ${shopId}: not found`);
  const { landings, media } = await repo.scopes([contractId]);
  const scope = contractScope(c, landings.map((l) => l.id), media.map((m) => m.id));
  if (!scope) throw new Error(`contract ${contractId} covers no day`);
  return scope;
}
