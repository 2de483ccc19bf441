import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import officeCrypto from 'officecrypto-tool';
import type { LightMyRequestResponse } from 'fastify';
import { leadBody, shopAccount, submit, type LandingTestApp, eachLandingTest } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { EXPORT_HEADERS } from './lead-export.service.ts';
import { neutralise } from '../../lib/formula-safety.ts';
import { filteredLeads } from '../leads/leads.entry.ts';
import { openpyxlMissing, readWithOpenpyxl } from '../../test-openpyxl.ts';

let t: LandingTestApp;
let landingId: number;
eachLandingTest((app, landing) => ([t, landingId] = [app, landing]));

const url = () => `/api/shops/${t.shopId}/leads/export`;
const exportAs = (c: Client, body: Record<string, unknown>) => c.request('POST', url(), body);

/** Submits a lead through the public form and answers its id. */
async function lead(extra: Record<string, unknown> = {}): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, extra));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const setType = (builtinKey: string, set: { can_export?: number; can_unmask?: number }) =>
  t.app.db.updateTable('account_types').set(set).where('builtin_key', '=', builtinKey).execute();

/** The CSV's lines as cells (a simple reader: the tests' cells hold no quotes, commas nor line breaks). */
function csvRows(res: LightMyRequestResponse): string[][] {
  const text = res.rawPayload.toString('utf8');
  return text.replace(/^\uFEFF/, '').split('\r\n').filter(Boolean).map((line) => line.split(','));
}

async function sheetRows(file: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v == null ? '' : String(v)))));
  return rows;
}

const column = (rows: string[][], header: string) => rows.slice(1).map((r) => r[EXPORT_HEADERS.indexOf(header)] ?? '');

describe('exporting DB 현황', () => {
  it('needs a reason, a known format and, for a password, four characters and XLSX (Korean field messages)', async () => {
    const none = await exportAs(t.admin, { format: 'csv' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields.reason).toBe('내보내는 사유를 입력하세요.');
    expect((await exportAs(t.admin, { format: 'csv', reason: '   ' })).json().error.fields.reason).toBe('내보내는 사유를 입력하세요.');
    expect((await exportAs(t.admin, { reason: '월말 정산' })).json().error.fields.format).toBe('파일 형식을 선택하세요.');
    expect((await exportAs(t.admin, { format: 'xlsx', reason: '월말 정산', password: '123' })).json().error.fields.password).toBe('암호는 4자 이상으로 입력하세요.');
    expect((await exportAs(t.admin, { format: 'csv', reason: '월말 정산', password: '1234' })).json().error.fields.password).toBe('암호는 XLSX 파일에만 걸 수 있습니다.');
    expect((await exportAs(t.admin, { format: 'csv', reason: '월말 정산', from: '2026-11-22', to: '2026-11-21' })).json().error.fields.from).toBe('시작일이 종료일보다 늦습니다.');
    expect(await t.app.db.selectFrom('access_events').selectAll().execute()).toEqual([]);
  });

  it('refuses an account whose type has no export right (마케터), and one without the shop', async () => {
    await lead();
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    expect((await marketer.get(`/api/shops/${t.shopId}/leads`)).statusCode).toBe(200);
    const res = await exportAs(marketer, { format: 'csv', reason: '확인' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('내보내기 권한이 없습니다.');
    const other = await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' });
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.request('POST', `/api/shops/${other.json().id}/leads/export`, { format: 'csv', reason: '확인' })).statusCode).toBe(403);
    expect(await t.app.db.selectFrom('access_events').selectAll().execute()).toEqual([]);
  });

  it('sends a CSV with a BOM and Korean headers, its row count announced, and records the export first', async () => {
    await lead({ name: '홍길동', phone: '010-1234-5678', utm_source: 'meta', utm_medium: 'cpc', utm_campaign: 'nov', time: '오후' });
    await lead({ name: '김영희', phone: '010-9876-4321' });
    const res = await exportAs(t.admin, { format: 'csv', reason: '월말 정산 보고', status: '미처리', q: '홍길동' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-export-rows']).toBe('1');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('DB_미소치과_2026-11-21_2026-11-21.csv')}`);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = csvRows(res);
    expect(rows[0]).toEqual(EXPORT_HEADERS);
    expect(rows[0]!.slice(0, 7)).toEqual(['접수일시', '업체', '랜딩', '실험안', '매체', '이름', '연락처']);
    expect(rows).toHaveLength(2);
    const row = Object.fromEntries(EXPORT_HEADERS.map((h, i) => [h, rows[1]![i]]));
    expect(row).toMatchObject({
      접수일시: '2026-11-21 10:00:00', 업체: '미소치과', 랜딩: '임플란트 상담 이벤트', 이름: '홍길동', 연락처: '010-1234-5678', 상태: '미처리',
      담당: '미배분', 유효: '유효', 'UTM source': 'meta', 'UTM medium': 'cpc', 'UTM campaign': 'nov', '신청 내용': '지역: 서울 / 통화 가능 시간: 오후',
    });

    const recorded = await t.app.db.selectFrom('access_events').selectAll().execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ shop_id: t.shopId, account_id: await accountId('admin'), action: 'export', row_count: 1 });
    expect(JSON.parse(recorded[0]!.detail!)).toEqual({
      reason: '월말 정산 보고', format: 'csv', encrypted: false,
      filter: { status: ['미처리'], q: '홍**', from: '2026-11-21', to: '2026-11-21' },
    });
    expect(recorded[0]!.detail).not.toContain('홍길동');
  });

  it('applies the list’s filters: period, status, search by name and phone digits, duplicates', async () => {
    const first = await lead({ name: '첫날', phone: '010-1111-0001' });
    const second = await lead({ name: '둘째날', phone: '010-2222-0002' });
    await lead({ name: '둘째날중복', phone: '010-1111-0001' });
    // The first a day earlier (moving the clock a day would end the session).
    await t.app.db.updateTable('leads').set({ created_at: '2026-11-20T01:00:00.000Z' }).where('id', '=', first).execute();
    await t.app.db.updateTable('leads').set({ cs_status: '부재' }).where('id', '=', second).execute();
    const names = async (body: Record<string, unknown>) => {
      const res = await exportAs(t.admin, { format: 'csv', reason: '필터 확인', ...body });
      expect(res.statusCode, res.body).toBe(200);
      const rows = csvRows(res);
      expect(res.headers['x-export-rows']).toBe(String(rows.length - 1));
      return column(rows, '이름');
    };
    expect(await names({})).toEqual(['둘째날', '둘째날중복']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21' })).toEqual(['첫날', '둘째날', '둘째날중복']);
    expect(await names({ from: '2026-11-20', to: '2026-11-20' })).toEqual(['첫날']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21', status: '부재' })).toEqual(['둘째날']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21', status: '미처리,중복' })).toEqual(['첫날', '둘째날중복']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21', q: '0001' })).toEqual(['첫날', '둘째날중복']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21', q: '중복' })).toEqual(['둘째날중복']);
    expect(await names({ from: '2026-11-20', to: '2026-11-21', duplicate: 'unique' })).toEqual(['첫날', '둘째날']);
  });

  it('gives a counselor only their own leads', async () => {
    await setType('counselor', { can_export: 1 });
    const counselor = await shopAccount(t, 'csa1', 'counselor');
    await shopAccount(t, 'csb2', 'counselor');
    const mine = await lead({ name: '내고객', phone: '010-3333-0001' });
    const theirs = await lead({ name: '남의고객', phone: '010-3333-0002' });
    await lead({ name: '미배분고객', phone: '010-3333-0003' });
    await t.app.db.updateTable('leads').set({ assignee_id: await accountId('csa1') }).where('id', '=', mine).execute();
    await t.app.db.updateTable('leads').set({ assignee_id: await accountId('csb2') }).where('id', '=', theirs).execute();

    const res = await exportAs(counselor, { format: 'csv', reason: '내 DB 정리' });
    expect(res.headers['x-export-rows']).toBe('1');
    expect(column(csvRows(res), '이름')).toEqual(['내고객']);
    expect(column(csvRows(await exportAs(counselor, { format: 'csv', reason: '내 DB 정리', assignee: 'none' })), '이름')).toEqual([]);
    const recorded = await t.app.db.selectFrom('access_events').select(['account_id', 'row_count']).orderBy('id').execute();
    expect(recorded).toEqual([{ account_id: await accountId('csa1'), row_count: 1 }, { account_id: await accountId('csa1'), row_count: 0 }]);
  });

  it('masks phones unless the type may see them whole', async () => {
    await lead({ phone: '010-1234-5678' });
    await setType('marketer', { can_export: 1 });
    const marketer = await shopAccount(t, 'mkt1', 'marketer');
    const masked = await exportAs(marketer, { format: 'csv', reason: '확인' });
    expect(column(csvRows(masked), '연락처')).toEqual(['010-****-5678']);
    expect(masked.rawPayload.toString('utf8')).not.toContain('1234');
    expect(column(csvRows(await exportAs(t.admin, { format: 'csv', reason: '확인' })), '연락처')).toEqual(['010-1234-5678']);
  });

  it('neutralises cells a spreadsheet would take for a formula, in CSV and XLSX', async () => {
    const ids = [await lead({ phone: '010-4444-0001' }), await lead({ phone: '010-4444-0002' }), await lead({ phone: '010-4444-0003' }), await lead({ phone: '010-4444-0004' })];
    const evil = ['=HYPERLINK("http://x")', '+1+1', '@SUM(A1)', '-2+3'];
    for (const [n, id] of ids.entries()) {
      await t.app.db.updateTable('leads').set({ name: evil[n]!.replace(/[",]/g, ''), memo: `=cmd|' /C calc'!A${n}` }).where('id', '=', id).execute();
    }
    const csv = csvRows(await exportAs(t.admin, { format: 'csv', reason: '확인' }));
    expect(column(csv, '이름')).toEqual(evil.map((e) => `'${e.replace(/[",]/g, '')}`));
    expect(column(csv, '메모').every((m) => m.startsWith("'=cmd"))).toBe(true);

    const xlsx = await exportAs(t.admin, { format: 'xlsx', reason: '확인' });
    const rows = await sheetRows(xlsx.rawPayload);
    expect(column(rows, '이름')).toEqual(evil.map((e) => `'${e.replace(/[",]/g, '')}`));
    expect(column(rows, '메모').every((m) => m.startsWith("'=cmd"))).toBe(true);
    expect(['\tx', '\rx', 'a=b', '010-****-5678'].map(neutralise)).toEqual(["'\tx", "'\rx", 'a=b', '010-****-5678']);
  });

  it('sends an XLSX that reads back, with the same rows as the list', async () => {
    for (let i = 0; i < 5; i++) await lead({ name: `고객${i}`, phone: `010-5555-000${i}` });
    const res = await exportAs(t.admin, { format: 'xlsx', reason: '보고서' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['x-export-rows']).toBe('5');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('DB_미소치과_2026-11-21_2026-11-21.xlsx'));
    expect(officeCrypto.isEncrypted(res.rawPayload)).toBe(false);
    const rows = await sheetRows(res.rawPayload);
    expect(rows[0]).toEqual(EXPORT_HEADERS);
    expect(column(rows, '이름')).toEqual(['고객0', '고객1', '고객2', '고객3', '고객4']);
    expect(column(rows, '연락처')[0]).toBe('010-5555-0000');
    const recorded = await t.app.db.selectFrom('access_events').select(['row_count', 'detail']).executeTakeFirstOrThrow();
    expect(recorded.row_count).toBe(5);
    expect(JSON.parse(recorded.detail!)).toMatchObject({ format: 'xlsx', encrypted: false, reason: '보고서' });
  });

  it.skipIf(openpyxlMissing)('sends an XLSX that Excel reads as typed cells: Seoul date-times, a frozen header and an autofilter (read by openpyxl)', async () => {
    const first = await lead({ name: '날짜고객', phone: '010-5555-1000' });
    await lead({ name: '빈칸고객', phone: '010-5555-1001' });
    const created = (await t.app.db.selectFrom('leads').select('created_at').where('id', '=', first).executeTakeFirstOrThrow()).created_at;
    await t.app.db.updateTable('leads').set({ reserved_at: '2026-11-24T05:30:00.000Z' }).where('id', '=', first).execute();
    const res = await exportAs(t.admin, { format: 'xlsx', reason: '보고서' });
    expect(res.statusCode, res.body).toBe(200);
    const [sheet] = readWithOpenpyxl(res.rawPayload);
    expect(sheet!.title).toBe('DB 현황');
    expect(sheet!.freezePanes).toBe('A2');
    expect(sheet!.autoFilter).toBe('A1:R3');
    const col = (header: string) => String.fromCharCode(65 + EXPORT_HEADERS.indexOf(header));
    const received = sheet!.cells[`${col('접수일시')}2`]!;
    expect(received.type).toBe('d');
    expect(received.format).toBe('yyyy-mm-dd hh:mm:ss');
    // Seoul wall time: nine hours after the stored UTC instant.
    expect(received.value).toBe(new Date(Date.parse(created) + 9 * 3600_000).toISOString().slice(0, 19));
    expect(sheet!.cells[`${col('예약')}2`]).toEqual({ type: 'd', format: 'yyyy-mm-dd hh:mm:ss', value: '2026-11-24T14:30:00' });
    expect(sheet!.cells[`${col('예약')}3`]).toBeUndefined();
    expect(sheet!.cells[`${col('연락처')}2`]).toMatchObject({ type: 's', value: '010-5555-1000' });
    expect(sheet!.cells[`${col('이름')}1`]).toMatchObject({ type: 's', value: '이름' });
    // The CSV keeps the same instants as Seoul text.
    const csv = csvRows(await exportAs(t.admin, { format: 'csv', reason: '보고서' }));
    expect(column(csv, '예약')).toEqual(['2026-11-24 14:30:00', '']);
  });

  it('closes an XLSX with a password: it opens with it, not without, and the password is recorded nowhere', async () => {
    await lead({ name: '암호고객', phone: '010-6666-0001' });
    const res = await exportAs(t.admin, { format: 'xlsx', reason: '외부 전달', password: 'open-sesame' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-export-rows']).toBe('1');
    const file = res.rawPayload;
    expect(officeCrypto.isEncrypted(file)).toBe(true);
    await expect(sheetRows(file)).rejects.toThrow();
    await expect(officeCrypto.decrypt(file, { password: 'wrong-one' })).rejects.toThrow();
    const rows = await sheetRows(await officeCrypto.decrypt(file, { password: 'open-sesame' }));
    expect(column(rows, '이름')).toEqual(['암호고객']);
    const recorded = await t.app.db.selectFrom('access_events').select('detail').executeTakeFirstOrThrow();
    expect(JSON.parse(recorded.detail!)).toMatchObject({ format: 'xlsx', encrypted: true, reason: '외부 전달' });
    expect(recorded.detail).not.toContain('open-sesame');
  });

  it('reads the leads a page at a time, oldest first, across pages', async () => {
    for (let i = 0; i < 7; i++) {
      await lead({ name: `순서${i}`, phone: `010-7777-000${i}` });
      if (i % 2) t.clock.advanceMinutes(1);
    }
    const actor = { id: 1, loginId: 'admin', accountTypeId: 1, superadmin: true, scope: 'all' as const, side: 'agency' as const, canUnmask: true, canExport: true, ip: '127.0.0.1' };
    const leads = filteredLeads(t.app.db, t.shopId, {}, actor, t.clock.now(), 3);
    const pages: string[][] = [];
    for await (const page of leads.pages()) pages.push(page.map((r) => r.name));
    expect(pages).toEqual([['순서0', '순서1', '순서2'], ['순서3', '순서4', '순서5'], ['순서6']]);
    const capped: string[] = [];
    for await (const page of leads.pages(4)) capped.push(...page.map((r) => r.name));
    expect(capped).toEqual(['순서0', '순서1', '순서2', '순서3']);
    expect(await leads.count()).toBe(7);
  });
});
