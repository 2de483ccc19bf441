// Contract caps in lead intake: a contract with automatic closing refuses leads past its caps,
// closes the landings it covers at once (the public page answers 410), reopens them at the next
// Seoul midnight, and records each closing and reopening — on both engines, with two writers.
import { eachTwoWriters } from '../../test-writers.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../../test-landings.ts';
import { commitBatch, type PendingLead } from '../intake/intake-batch.ts';
import { reopenJob } from '../../worker/reopen.ts';
import { build } from '../../app.ts';
import { reviewContractCaps } from './contract-caps.ts';
import { INTAKE_MESSAGES } from '../../../contracts/intake.ts';

const CLOSED_PAGE = '마감된 이벤트입니다';

interface ContractSpec {
  shopId: number;
  quantity?: number;
  dailyCap?: number | null;
  autoClose?: boolean;
  startsOn?: string;
  endsOn?: string;
  landings?: number[];
  media?: number[];
}

/** A contract as the contracts module stores it (November 2026 by default, automatic closing on). */
async function contract(db: Kysely<Database>, s: ContractSpec): Promise<number> {
  const now = '2026-11-01T00:00:00.000Z';
  const { id } = await db
    .insertInto('shop_contracts')
    .values({
      shop_id: s.shopId, name: '11월 계약', starts_on: s.startsOn ?? '2026-11-01', ends_on: s.endsOn ?? '2026-11-30', quantity: s.quantity ?? 100,
      unit_price: 30_000, daily_cap: s.dailyCap ?? null, auto_close: s.autoClose === false ? 0 : 1, stopped_at: null, memo: null, created_by: null,
      created_at: now, updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const landingId of s.landings ?? []) await db.insertInto('shop_contract_landings').values({ contract_id: id, landing_id: landingId }).execute();
  for (const mediaTypeId of s.media ?? []) await db.insertInto('shop_contract_media').values({ contract_id: id, media_type_id: mediaTypeId }).execute();
  return id;
}

const landingRow = (db: Kysely<Database>, id: number) =>
  db.selectFrom('landings').select(['status', 'closed_by_contract_id', 'reopen_at', 'version']).where('id', '=', id).executeTakeFirstOrThrow();

const capEvents = (db: Kysely<Database>) =>
  db.selectFrom('contract_cap_events').select(['contract_id', 'landing_id', 'kind', 'count', 'account_id', 'at']).orderBy('id').execute();

/** A submission as intake hands it to its batch (what another process's intake would commit). */
function pending(shopId: number, landingId: number | null, phone: string, extra: Partial<PendingLead['lead']> = {}): PendingLead {
  return {
    kind: 'lead', duplicateWindowDays: 30, text: '홍길동',
    lead: {
      shop_id: shopId, landing_id: landingId, source: 'landing', name: '홍길동', phone, answers: '{}', privacy_consent: 1, marketing_consent: 0,
      sensitive_consent: 0, privacy_policy_id: null, utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null,
      media_type_id: null, referrer: null, ip: '203.0.113.9', user_agent: 'test', cs_status: '미처리', ...extra,
    },
  };
}

const phoneOf = (n: number) => `0105555${String(n).padStart(4, '0')}`;

describe('contract caps in intake', () => {
  let t: LandingTestApp;
  let landingId: number;
  const db = () => t.app.db;
  const visitor = (n: number, extra: Record<string, unknown> = {}) => submit(t, leadBody(t, landingId, { phone: phoneOf(n), ...extra }));
  const page = (url = '/view/smile/implant') => t.app.inject({ method: 'GET', url });
  const reopen = () => reopenJob(t.app.db, () => t.clock.now(), { changed: t.app.links.landingsChanged }).run();

  beforeEach(async () => {
    t = await landingTestApp();
    landingId = await openLanding(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('closes at the daily cap, refuses the next visitor, and reopens at the next Seoul midnight', async () => {
    const id = await contract(db(), { shopId: t.shopId, quantity: 100, dailyCap: 3 });
    expect((await page()).statusCode).toBe(200);
    for (const n of [1, 2, 3]) expect((await visitor(n)).statusCode).toBe(201);

    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id, reopen_at: '2026-11-21T15:00:00.000Z' });
    const closedPage = await page();
    expect(closedPage.statusCode).toBe(410);
    expect(closedPage.body).toContain(CLOSED_PAGE);
    const fourth = await visitor(4);
    expect(fourth.statusCode).toBe(410);
    expect(fourth.json().error).toMatchObject({ code: 'GONE', message: INTAKE_MESSAGES.closed });
    expect(await db().selectFrom('leads').select('phone').orderBy('id').execute()).toEqual([1, 2, 3].map((n) => ({ phone: phoneOf(n) })));
    expect(await capEvents(db())).toEqual([
      { contract_id: id, landing_id: landingId, kind: 'closed-daily', count: 3, account_id: null, at: '2026-11-21T01:00:00.000Z' },
    ]);
    // The admin screen shows it ended too.
    expect((await t.admin.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json().state).toBe('ended');

    // Seoul midnight: open again at once, before any job has run.
    t.clock.current = new Date('2026-11-21T15:00:01.000Z');
    expect((await landingRow(db(), landingId)).status).toBe('closed');
    const admin = await t.login(); // the morning's session has expired meanwhile
    expect((await admin.get(`/api/shops/${t.shopId}/landings/${landingId}`)).json()).toMatchObject({ status: 'closed', state: 'open' });
    expect((await page()).statusCode).toBe(200);

    expect(await reopen()).toEqual([landingId]);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null, reopen_at: null });
    expect((await capEvents(db())).map((e) => [e.kind, e.count, e.account_id, e.at])).toEqual([
      ['closed-daily', 3, null, '2026-11-21T01:00:00.000Z'],
      ['reopened', 3, null, '2026-11-21T15:00:01.000Z'],
    ]);
    expect(await reopen()).toEqual([]);
    expect((await visitor(4)).statusCode).toBe(201);
    expect((await page()).statusCode).toBe(200);
  });

  it('reopens through the scheduled job of an app started with the worker', async () => {
    await contract(db(), { shopId: t.shopId, dailyCap: 1 });
    expect((await visitor(1)).statusCode).toBe(201);
    t.clock.current = new Date('2026-11-21T15:00:20.000Z');
    const worker = await build({
      config: { ...t.app.config, workerEnabled: true },
      database: { db: t.app.db, dialect: t.app.dialect, close: async () => {} },
      clock: () => t.clock.now(),
    });
    await worker.ready();
    await worker.close(); // waits for the jobs' first runs
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null, reopen_at: null });
    expect((await capEvents(db())).map((e) => [e.kind, e.at])).toEqual([['closed-daily', '2026-11-21T01:00:00.000Z'], ['reopened', '2026-11-21T15:00:20.000Z']]);
  });

  it('reopens at midnight before the job even when a visitor comes first, and closes again at the new day’s cap', async () => {
    await contract(db(), { shopId: t.shopId, quantity: 100, dailyCap: 2 });
    for (const n of [1, 2]) expect((await visitor(n)).statusCode).toBe(201);
    expect((await landingRow(db(), landingId)).status).toBe('closed');
    t.clock.current = new Date('2026-11-21T15:30:00.000Z');
    // No job ran: the row still says closed, yet the new day takes two more.
    for (const n of [3, 4]) expect((await visitor(n)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', reopen_at: '2026-11-22T15:00:00.000Z' });
    expect((await visitor(5)).statusCode).toBe(410);
    expect((await capEvents(db())).map((e) => [e.kind, e.count])).toEqual([['closed-daily', 2], ['closed-daily', 2]]);
    expect(await reopen()).toEqual([]);
  });

  it('counts a daily cap by Seoul day: 14:59Z and 15:01Z are different days', async () => {
    const id = await contract(db(), { shopId: t.shopId, dailyCap: 2 });
    t.clock.current = new Date('2026-11-21T14:59:00.000Z');
    expect((await visitor(1)).statusCode).toBe(201);
    t.clock.current = new Date('2026-11-21T15:01:00.000Z');
    expect((await visitor(2)).statusCode).toBe(201);
    expect((await landingRow(db(), landingId)).status).toBe('open');
    expect(await capEvents(db())).toEqual([]);
    t.clock.current = new Date('2026-11-21T15:02:00.000Z');
    expect((await visitor(3)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id, reopen_at: '2026-11-22T15:00:00.000Z' });
    expect((await capEvents(db())).map((e) => [e.kind, e.count])).toEqual([['closed-daily', 2]]);
  });

  it('does not keep the closed page past midnight, however recently it was cached', async () => {
    await contract(db(), { shopId: t.shopId, dailyCap: 1 });
    t.clock.current = new Date('2026-11-21T14:59:58.000Z');
    expect((await visitor(1)).statusCode).toBe(201);
    expect((await page()).statusCode).toBe(410);
    t.clock.current = new Date('2026-11-21T14:59:59.900Z');
    expect((await page()).statusCode).toBe(410);
    // Seconds within the closed page's cache time, but past reopen_at.
    t.clock.current = new Date('2026-11-21T15:00:00.000Z');
    expect((await page()).statusCode).toBe(200);
    expect((await visitor(2)).statusCode).toBe(201);
  });

  it('closes for good at the quantity: no reopening at midnight', async () => {
    const id = await contract(db(), { shopId: t.shopId, quantity: 3 });
    for (const n of [1, 2, 3]) expect((await visitor(n)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id, reopen_at: null });
    expect((await visitor(4)).statusCode).toBe(410);
    t.clock.current = new Date('2026-11-22T15:01:00.000Z');
    expect(await reopen()).toEqual([]);
    expect((await page()).statusCode).toBe(410);
    expect((await visitor(5)).statusCode).toBe(410);
    expect(await capEvents(db())).toEqual([{ contract_id: id, landing_id: landingId, kind: 'closed-quantity', count: 3, account_id: null, at: '2026-11-21T01:00:00.000Z' }]);
    expect(await db().selectFrom('leads').select('id').execute()).toHaveLength(3);
  });

  it('keeps a daily closing closed at midnight when the contract has meanwhile reached its quantity', async () => {
    const id = await contract(db(), { shopId: t.shopId, quantity: 10, dailyCap: 2 });
    for (const n of [1, 2]) expect((await visitor(n)).statusCode).toBe(201);
    expect((await landingRow(db(), landingId)).reopen_at).toBe('2026-11-21T15:00:00.000Z');
    // The quantity lowered without a review (as if the contracts screen had not asked for one).
    await db().updateTable('shop_contracts').set({ quantity: 2 }).where('id', '=', id).execute();
    t.clock.current = new Date('2026-11-21T15:00:30.000Z');
    expect(await reopen()).toEqual([landingId]);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id, reopen_at: null });
    expect((await capEvents(db())).map((e) => [e.kind, e.count])).toEqual([['closed-daily', 2], ['closed-quantity', 2]]);
    expect((await page()).statusCode).toBe(410);
  });

  it('does not count duplicates toward a cap; a duplicate arriving when closed is refused like anyone', async () => {
    await contract(db(), { shopId: t.shopId, dailyCap: 2 });
    expect((await visitor(1)).statusCode).toBe(201);
    expect((await visitor(1)).statusCode).toBe(201); // a duplicate: stored, flagged, no place used
    expect((await landingRow(db(), landingId)).status).toBe('open');
    expect((await visitor(2)).statusCode).toBe(201);
    expect((await landingRow(db(), landingId)).status).toBe('closed');
    expect((await visitor(1)).statusCode).toBe(410);
    const rows = await db().selectFrom('leads').select(['phone', 'duplicate_of']).orderBy('id').execute();
    expect(rows.map((r) => [r.phone, r.duplicate_of !== null])).toEqual([[phoneOf(1), false], [phoneOf(1), true], [phoneOf(2), false]]);
  });

  it('lets a duplicate through in the batch that fills the cap, and refuses one after the last place went', async () => {
    const id = await contract(db(), { shopId: t.shopId, dailyCap: 2 });
    expect((await visitor(1)).statusCode).toBe(201);
    const now = t.clock.now();
    // One place left: a duplicate first uses none, the new lead takes the last; after it, a duplicate is refused.
    const outcomes = await commitBatch(db(), [pending(t.shopId, landingId, phoneOf(1)), pending(t.shopId, landingId, phoneOf(2)), pending(t.shopId, landingId, phoneOf(1))], now);
    expect(outcomes.map((o) => o.status)).toEqual(['created', 'created', 'closed']);
    expect(outcomes[1]).toMatchObject({ closedLandingIds: [landingId] });
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id });
    expect(await db().selectFrom('leads').select('id').execute()).toHaveLength(3);
  });

  it('refuses with 410 a form post (HTML) and a JSON post once another process took the last place', async () => {
    await contract(db(), { shopId: t.shopId, dailyCap: 2 });
    expect((await visitor(1)).statusCode).toBe(201); // intake now holds the landing as open
    // Another process's intake takes the last place and closes the landing.
    const [other] = await commitBatch(db(), [pending(t.shopId, landingId, phoneOf(2))], t.clock.now());
    expect(other).toMatchObject({ status: 'created', closedLandingIds: [landingId] });

    const form = await submit(t, leadBody(t, landingId, { phone: phoneOf(3), privacyConsent: '1' }), { form: true });
    expect(form.statusCode).toBe(410);
    expect(form.headers['content-type']).toMatch(/text\/html/);
    expect(form.body).toContain(INTAKE_MESSAGES.closed);
    expect(form.body).toContain('href="/view/smile/implant"');
    // The refusal dropped the page this process still had as open.
    expect((await page()).statusCode).toBe(410);
    const json = await visitor(4);
    expect(json.statusCode).toBe(410);
    expect(json.json()).toEqual({ error: { code: 'GONE', message: INTAKE_MESSAGES.closed } });
    expect(await db().selectFrom('leads').select('id').execute()).toHaveLength(2);
  });

  it('closes nothing without automatic closing: leads past the cap are accepted', async () => {
    await contract(db(), { shopId: t.shopId, quantity: 2, dailyCap: 1, autoClose: false });
    for (const n of [1, 2, 3, 4]) expect((await visitor(n)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null, reopen_at: null });
    expect(await capEvents(db())).toEqual([]);
    expect((await page()).statusCode).toBe(200);
  });

  it('is not affected by a contract for other landings, other media, another period, or a stopped one', async () => {
    const other = await openLanding(t, { landingCode: 'whitening' });
    const media = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id as number;
    await contract(db(), { shopId: t.shopId, dailyCap: 1, landings: [other] });
    await contract(db(), { shopId: t.shopId, dailyCap: 1, media: [media], startsOn: '2026-11-01', endsOn: '2026-11-10' });
    await contract(db(), { shopId: t.shopId, dailyCap: 1, media: [media], startsOn: '2026-11-11', endsOn: '2026-11-30' });
    await contract(db(), { shopId: t.shopId, dailyCap: 1, startsOn: '2026-12-01', endsOn: '2026-12-31' });
    const stopped = await contract(db(), { shopId: t.shopId, dailyCap: 1, landings: [landingId] });
    await db().updateTable('shop_contracts').set({ stopped_at: '2026-11-15T00:00:00.000Z' }).where('id', '=', stopped).execute();
    for (const n of [1, 2, 3]) expect((await visitor(n)).statusCode).toBe(201);
    expect((await landingRow(db(), landingId)).status).toBe('open');
    expect((await landingRow(db(), other)).status).toBe('open');
    expect(await capEvents(db())).toEqual([]);

    // The medium's contract does cover a landing of that medium (and only it).
    const meta = await openLanding(t, { landingCode: 'meta', mediaTypeId: media });
    expect((await submit(t, leadBody(t, meta, { landingCode: 'meta', phone: phoneOf(9) }))).statusCode).toBe(201);
    expect((await landingRow(db(), meta)).status).toBe('closed');
    expect((await landingRow(db(), landingId)).status).toBe('open');
    expect((await capEvents(db())).map((e) => [e.landing_id, e.kind])).toEqual([[meta, 'closed-daily']]);
  });

  it('counts manual entry without gating it, and closes the landing when it reaches the cap', async () => {
    const id = await contract(db(), { shopId: t.shopId, dailyCap: 2 });
    expect((await visitor(1)).statusCode).toBe(201);
    expect((await page()).statusCode).toBe(200);
    const manual = (n: number) =>
      t.admin.post(`/api/shops/${t.shopId}/data-insertion/leads`, { name: '김수기', phone: phoneOf(n), landingId, consentBasis: 'phone-verbal' });
    expect((await manual(2)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id });
    expect((await page()).statusCode).toBe(410);
    // Staff enter leads deliberately: past the cap too.
    expect((await manual(3)).statusCode).toBe(201);
    expect(await db().selectFrom('leads').select('id').execute()).toHaveLength(3);
    expect((await capEvents(db())).map((e) => [e.kind, e.count])).toEqual([['closed-daily', 2]]);
  });

  it('closes again at once when staff publish a landing whose contract is still full', async () => {
    await contract(db(), { shopId: t.shopId, quantity: 1 });
    expect((await visitor(1)).statusCode).toBe(201);
    expect((await t.admin.post(`/api/shops/${t.shopId}/landings/${landingId}/publish`)).statusCode).toBe(200);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null });
    expect((await visitor(2)).statusCode).toBe(410);
    expect((await landingRow(db(), landingId)).status).toBe('closed');
    expect((await capEvents(db())).map((e) => e.kind)).toEqual(['closed-quantity', 'closed-quantity']);
    expect(await db().selectFrom('leads').select('id').execute()).toHaveLength(1);
  });

  describe('reviewContractCaps', () => {
    const review = (id: number, accountId: number | null = 1) => inTransaction(db(), (trx) => reviewContractCaps(trx, id, t.clock.now(), accountId));
    const setContract = (id: number, set: { quantity?: number; daily_cap?: number | null; auto_close?: number; stopped_at?: string | null }) =>
      db().updateTable('shop_contracts').set(set).where('id', '=', id).execute();

    it('reopens when the quantity is raised, closes when it is lowered, reopens a stopped contract’s landings, leaves a hand-closed one alone', async () => {
      const second = await openLanding(t, { landingCode: 'second' });
      const byHand = await openLanding(t, { landingCode: 'byhand' });
      expect((await t.admin.post(`/api/shops/${t.shopId}/landings/${byHand}/close`)).statusCode).toBe(200);
      const id = await contract(db(), { shopId: t.shopId, quantity: 3 });
      for (const n of [1, 2, 3]) expect((await visitor(n)).statusCode).toBe(201);
      expect((await landingRow(db(), landingId)).closed_by_contract_id).toBe(id);
      expect((await landingRow(db(), second)).closed_by_contract_id).toBe(id);
      expect(await landingRow(db(), byHand)).toMatchObject({ status: 'closed', closed_by_contract_id: null });
      // Staff close `second` by hand as well: no longer the contract's closing.
      expect((await t.admin.post(`/api/shops/${t.shopId}/landings/${second}/close`)).statusCode).toBe(200);
      expect(await landingRow(db(), second)).toMatchObject({ status: 'closed', closed_by_contract_id: null, reopen_at: null });

      await setContract(id, { quantity: 5 });
      expect(await review(id)).toEqual({ closed: [], reopened: [landingId] });
      expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null });
      expect((await landingRow(db(), second)).status).toBe('closed');
      expect((await landingRow(db(), byHand)).status).toBe('closed');
      expect((await visitor(4)).statusCode).toBe(201);

      await setContract(id, { quantity: 4 });
      expect(await review(id)).toEqual({ closed: [landingId], reopened: [] });
      expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id, reopen_at: null });
      expect(await review(id)).toEqual({ closed: [], reopened: [] });

      await setContract(id, { stopped_at: '2026-11-21T01:00:00.000Z' });
      expect(await review(id, null)).toEqual({ closed: [], reopened: [landingId] });
      expect((await landingRow(db(), landingId)).status).toBe('open');
      expect((await landingRow(db(), byHand)).status).toBe('closed');
      expect((await capEvents(db())).map((e) => [e.landing_id, e.kind, e.count, e.account_id])).toEqual([
        [landingId, 'closed-quantity', 3, null],
        [second, 'closed-quantity', 3, null],
        [landingId, 'reopened', 3, 1],
        [landingId, 'closed-quantity', 4, null],
        [landingId, 'reopened', 4, null],
      ]);
      // Stopped: nothing closes any more.
      expect((await visitor(5)).statusCode).toBe(201);
    });

    it('reopens when the daily cap is raised or removed, or automatic closing is turned off; a return lowers the count', async () => {
      const id = await contract(db(), { shopId: t.shopId, quantity: 100, dailyCap: 2 });
      for (const n of [1, 2]) expect((await visitor(n)).statusCode).toBe(201);
      expect((await landingRow(db(), landingId)).reopen_at).toBe('2026-11-21T15:00:00.000Z');

      await setContract(id, { daily_cap: 3 });
      expect(await review(id)).toEqual({ closed: [], reopened: [landingId] });
      expect((await visitor(3)).statusCode).toBe(201);
      expect((await landingRow(db(), landingId)).status).toBe('closed');

      await setContract(id, { daily_cap: null });
      expect(await review(id)).toEqual({ closed: [], reopened: [landingId] });
      await setContract(id, { daily_cap: 3 });
      expect(await review(id)).toEqual({ closed: [landingId], reopened: [] });
      expect((await landingRow(db(), landingId)).reopen_at).toBe('2026-11-21T15:00:00.000Z');

      await setContract(id, { auto_close: 0 });
      expect(await review(id)).toEqual({ closed: [], reopened: [landingId] });
      await setContract(id, { auto_close: 1 });
      expect(await review(id)).toEqual({ closed: [landingId], reopened: [] });

      // A lead returned: two valid today, below the cap of three.
      const first = await db().selectFrom('leads').select('id').orderBy('id').executeTakeFirstOrThrow();
      await db().updateTable('leads').set({ validity: 'returned' }).where('id', '=', first.id).execute();
      expect(await review(id)).toEqual({ closed: [], reopened: [landingId] });
      expect((await capEvents(db())).map((e) => e.kind)).toEqual([
        'closed-daily', 'reopened', 'closed-daily', 'reopened', 'closed-daily', 'reopened', 'closed-daily', 'reopened',
      ]);
    });
  });

  it('settles when leads stop or start counting: 무효 and deletion reopen a quantity closing, clearing 무효 and a new lead close it again', async () => {
    const id = await contract(db(), { shopId: t.shopId, quantity: 3 });
    for (const n of [1, 2, 3]) expect((await visitor(n)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id });
    const [first, second] = await db().selectFrom('leads').select('id').orderBy('id').execute();
    const patch = (leadId: number, body: Record<string, unknown>) => t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${leadId}`, body);

    expect((await patch(first!.id, { csStatus: '무효', reason: '장난 신청' })).statusCode).toBe(200);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open', closed_by_contract_id: null });
    expect((await patch(first!.id, { csStatus: '통화완료' })).statusCode).toBe(200);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id });

    const del = await t.admin.request('POST', `/api/shops/${t.shopId}/leads/delete`, { ids: [second!.id], reason: '고객 삭제 요청' });
    expect(del.statusCode, del.body).toBe(200);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'open' });
    expect((await visitor(4)).statusCode).toBe(201);
    expect(await landingRow(db(), landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: id });
    expect((await capEvents(db())).map((e) => e.kind)).toEqual(['closed-quantity', 'reopened', 'closed-quantity', 'reopened', 'closed-quantity']);
  });

  it('keeps a returned lead returned whatever its status becomes', async () => {
    for (const n of [1, 2]) expect((await visitor(n)).statusCode).toBe(201);
    const [returned, invalid] = await db().selectFrom('leads').select('id').orderBy('id').execute();
    await db().updateTable('leads').set({ validity: 'returned' }).where('id', '=', returned!.id).execute();
    await db().updateTable('leads').set({ validity: 'invalid', cs_status: '무효', invalid_reason: '결번' }).where('id', '=', invalid!.id).execute();
    const patch = (id: number, body: Record<string, unknown>) => t.admin.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, body);
    expect((await patch(returned!.id, { csStatus: '통화완료' })).statusCode).toBe(200);
    expect((await patch(invalid!.id, { csStatus: '통화완료' })).statusCode).toBe(200);
    const bulk = await t.admin.post(`/api/shops/${t.shopId}/leads/bulk-status`, { ids: [returned!.id, invalid!.id], csStatus: '계약' });
    expect(bulk.statusCode).toBe(200);
    const rows = await db().selectFrom('leads').select(['id', 'cs_status', 'validity']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: returned!.id, cs_status: '계약', validity: 'returned' },
      { id: invalid!.id, cs_status: '계약', validity: 'valid' },
    ]);
    expect((await patch(returned!.id, { csStatus: '무효', reason: '허위' })).statusCode).toBe(200);
    expect(await db().selectFrom('leads').select('validity').where('id', '=', returned!.id).executeTakeFirstOrThrow()).toEqual({ validity: 'returned' });
  });
});

// Two writers (two processes on PostgreSQL, each with its own pool; on SQLite this thread and
// the writer thread on one file) committing at the same moment against one last place.
describe('contract caps with two writers', () => {
  const writers = eachTwoWriters([3, 3]);
  const handles = () => writers.handles();

  it('accepts exactly one of two leads racing for the last place, round after round', async () => {
    const db = handles()[0]!.db;
    const at = '2026-11-21T00:00:00.000Z';
    const { id: shopId } = await db
      .insertInto('shops')
      .values({ shop_code: 'race', name: '경주치과', client_type_id: null, status: 'active', company_name: '경주치과의원', representative: '김경주', business_number: '1078616321', phone: '0212345678', address: '서울', privacy_officer_name: '이보호', privacy_officer_contact: '02-555-0100', created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: landingId } = await db
      .insertInto('landings')
      .values({ shop_id: shopId, landing_code: 'race', title: '경주', status: 'open', content: '{}', form_fields: '[]', privacy_consent_text: '동의', thank_you_message: '감사합니다', duplicate_window_days: 30, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    const contractId = await contract(db, { shopId, quantity: 1, landings: [landingId] });
    const [a, b] = writers.committers();
    const now = new Date('2026-11-21T01:00:00.000Z');
    await b!([], now); // both are up

    const ROUNDS = 20;
    for (let round = 0; round < ROUNDS; round++) {
      // One more place, then two writers reach for it at once (each in a batch with another shop's lead).
      await db.updateTable('shop_contracts').set({ quantity: round + 1 }).where('id', '=', contractId).execute();
      const reviewed = await inTransaction(db, (trx) => reviewContractCaps(trx, contractId, now, null));
      expect(reviewed.reopened).toEqual(round === 0 ? [] : [landingId]);
      const [x, y] = await Promise.all([a!([pending(shopId, landingId, phoneOf(2 * round))], now), b!([pending(shopId, landingId, phoneOf(2 * round + 1))], now)]);
      expect([x![0]!.status, y![0]!.status].sort(), `round ${round}`).toEqual(['closed', 'created']);
      const count = await db.selectFrom('leads').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      expect(Number(count.n), `round ${round}`).toBe(round + 1);
      expect(await landingRow(db, landingId)).toMatchObject({ status: 'closed', closed_by_contract_id: contractId, reopen_at: null });
    }
    const events = await capEvents(db);
    expect(events.filter((e) => e.kind === 'closed-quantity').map((e) => e.count)).toEqual(Array.from({ length: ROUNDS }, (_, i) => i + 1));
    expect(events.filter((e) => e.kind === 'reopened')).toHaveLength(ROUNDS - 1);
  });
});
