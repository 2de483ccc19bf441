// The 정산서 as an XLSX the agency sends the shop: who bills whom, the contract and the month,
// the daily rows — the columns of the screen's table — and the totals with VAT. Numbers stay
// numbers (formatted #,##0) and days are date cells, so the shop's accountant can sort, filter
// and add them up again; text a person typed cannot start a formula.
import ExcelJS from 'exceljs';
import { neutralise } from '../../lib/formula-safety.ts';
import type { FileReply } from '../../../contracts/endpoint.ts';
import { formatBusinessNumber } from '../../../contracts/rules.ts';
import type { Settlement } from '../../../contracts/shop-contracts.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MONEY = '#,##0';
const DAY = 'yyyy-mm-dd';

interface Party {
  company_name: string | null;
  representative: string | null;
  business_number: string | null;
  address: string | null;
  phone: string | null;
}

const safe = (v: string | null | undefined) => neutralise(v ?? '');
const bizNo = (v: string | null) => (v ? formatBusinessNumber(v) : '');
const fileSafe = (v: string) => v.replace(/[\\/:*?"<>|\s]+/g, '_');

export async function settlementSheet(s: Settlement, shop: Party & { name: string }, operator: Party | null): Promise<FileReply> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('정산서', { pageSetup: { paperSize: 9, orientation: 'portrait', fitToPage: true, fitToWidth: 1, fitToHeight: 0 } });
  sheet.columns = [{ width: 16 }, { width: 14 }, { width: 14 }, { width: 14 }, { width: 14 }, { width: 16 }];
  const bold = { bold: true } as const;
  const label = (row: ExcelJS.Row, ...cols: number[]) => cols.forEach((c) => (row.getCell(c).font = bold));

  const title = sheet.addRow([`${s.month.slice(0, 4)}년 ${Number(s.month.slice(5))}월 정산서`]);
  sheet.mergeCells(title.number, 1, title.number, 6);
  title.font = { bold: true, size: 16 };
  title.alignment = { horizontal: 'center' };
  sheet.addRow([]);

  label(sheet.addRow(['수신 (업체)', safe(shop.company_name ?? shop.name), '', '공급자 (대행사)', safe(operator?.company_name)]), 1, 4);
  label(sheet.addRow(['대표자', safe(shop.representative), '', '대표자', safe(operator?.representative)]), 1, 4);
  label(sheet.addRow(['사업자등록번호', bizNo(shop.business_number), '', '사업자등록번호', bizNo(operator?.business_number ?? null)]), 1, 4);
  label(sheet.addRow(['주소', safe(shop.address), '', '주소', safe(operator?.address)]), 1, 4);
  sheet.addRow([]);

  const c = s.contract;
  label(sheet.addRow(['계약명', safe(c.name)]), 1);
  label(sheet.addRow(['계약 기간', `${c.startsOn} ~ ${c.stoppedOn && c.stoppedOn < c.endsOn ? `${c.stoppedOn} (중지)` : c.endsOn}`]), 1);
  label(sheet.addRow(['정산 기간', s.from && s.to ? `${s.from} ~ ${s.to}` : '해당 없음']), 1);
  const price = sheet.addRow(['단가 (원, VAT 별도)', c.unitPrice]);
  price.getCell(2).numFmt = MONEY;
  label(price, 1);
  const qty = sheet.addRow(['계약 수량', c.quantity]);
  qty.getCell(2).numFmt = MONEY;
  label(qty, 1);
  sheet.addRow([]);

  const head = sheet.addRow(['일자', '유효 DB', '정산 DB', '한도 초과', '반품 승인', '공급가 (원)']);
  head.font = bold;
  head.eachCell((cell) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEFEFEF' } };
    cell.border = { bottom: { style: 'thin' } };
  });
  const t = s.totals;
  for (const d of s.days) {
    // A calendar day as a date cell: exceljs writes a Date's UTC fields, midnight here.
    const row = sheet.addRow([new Date(`${d.day}T00:00:00.000Z`), d.valid, d.billable, d.over, d.returned, d.billable * t.unitPrice]);
    row.getCell(1).numFmt = DAY;
    for (let i = 2; i <= 6; i++) row.getCell(i).numFmt = MONEY;
  }
  // The header stays in view and filters the days (not the sum below them).
  sheet.views = [{ state: 'frozen', ySplit: head.number }];
  if (s.days.length) sheet.autoFilter = { from: { row: head.number, column: 1 }, to: { row: head.number + s.days.length, column: 6 } };
  const sum = sheet.addRow(['합계', t.valid, t.billable, t.over, t.returned, t.amount]);
  sum.font = bold;
  sum.eachCell((cell) => (cell.border = { top: { style: 'thin' } }));
  for (let i = 2; i <= 6; i++) sum.getCell(i).numFmt = MONEY;
  sheet.addRow([]);

  const money = (name: string, value: number) => {
    const row = sheet.addRow([name, value]);
    row.getCell(2).numFmt = MONEY;
    label(row, 1);
    return row;
  };
  money('정산 DB (건)', t.billable);
  money('공급가액 (원)', t.amount);
  money('부가세 (원)', t.vat);
  money('합계 금액 (원)', t.total).font = bold;
  money('당월 반품 승인 (건)', t.returnsApprovedInMonth);

  const body = new Uint8Array(await book.xlsx.writeBuffer());
  return { fileName: `정산서_${fileSafe(shop.name)}_${fileSafe(c.name)}_${s.month}.xlsx`, contentType: XLSX_TYPE, body };
}
