// The reading thread of uploaded spreadsheets: what it reads, and each limit it reads within —
// the files of findings 1 and 2 of issue 19 among them — failing with the limit's Korean reason
// while this process (the server, in real life) carries on.
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BUSY_MESSAGE, readSheet, type SheetInput } from './sheet-reader.ts';
import { SHEET_LIMITS, SHEET_READERS, sharedStringsBytes, type SheetLimits } from './sheet-limits.ts';
import { emptyRowBomb, sharedStrings, sharedStringsBomb, xlsxOf } from '../test-sheets.ts';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../contracts/data-insertion.ts';
import { AD_IMPORT_MAX_ROWS } from '../../contracts/ad-spend.ts';

const timeout = 60_000;

async function read(bytes: Buffer, fileName: string, limits: Partial<SheetLimits> = {}, more: Partial<SheetInput> = {}) {
  return readSheet(
    { bytes, fileName, ...more },
    async (s) => {
      const rows: Array<{ row: number; cells: string[] }> = [];
      for await (const r of s.rows) rows.push(r);
      return { format: s.format, encoding: s.encoding, rows };
    },
    { limits },
  );
}

/** The refusal's status and Korean reason. */
async function refusal(bytes: Buffer, fileName: string, limits: Partial<SheetLimits> = {}) {
  try {
    await read(bytes, fileName, limits);
  } catch (err) {
    return { status: (err as { status?: number }).status, message: (err as Error).message };
  }
  throw new Error('the file was read');
}

describe('reading', () => {
  it('reads CSV in UTF-8, CP949 and UTF-16 with the delimiter the lines use, below a report’s title line', { timeout }, async () => {
    expect(await read(Buffer.from('\ufeff이름,연락처\r\n"김, 가",010-1\r\n\r\n'), 'a.csv')).toEqual({
      format: 'csv', encoding: 'utf-8', rows: [{ row: 1, cells: ['이름', '연락처'] }, { row: 2, cells: ['김, 가', '010-1'] }, { row: 3, cells: [''] }],
    });
    expect(await read(iconv.encode('이름;연락처\n박한글;010-2\n', 'cp949'), 'b.csv')).toMatchObject({ encoding: 'cp949', rows: [{ cells: ['이름', '연락처'] }, { cells: ['박한글', '010-2'] }] });
    const wide = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('11월 보고서\n일\t비용\n2026-11-20\t"1,000"\n', 'utf16le')]);
    expect(await read(wide, 'c.txt')).toMatchObject({ encoding: 'utf-16le', rows: [{ cells: ['11월 보고서'] }, { cells: ['일', '비용'] }, { cells: ['2026-11-20', '1,000'] }] });
  });

  it('reads the first worksheet of an XLSX: numbers, dates, and Korean text whole across the zip’s chunks', { timeout }, async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('명단');
    sheet.addRow(['성명', '핸드폰', '접수일시']);
    // 30,000 characters of Korean: exceljs's own reader split some of them where its chunks ended.
    for (let i = 0; i < 2000; i++) sheet.addRow([`가나다라마바사아자차카타파하${i}`, 1060000001 + i, new Date(Date.UTC(2026, 10, 18, 9, 15))]);
    sheet.getColumn(3).numFmt = 'yyyy-mm-dd hh:mm';
    book.addWorksheet('다른 시트').addRow(['무시']);
    const { format, encoding, rows } = await read(Buffer.from(await book.xlsx.writeBuffer()), '명단.xlsx');
    expect({ format, encoding }).toEqual({ format: 'xlsx', encoding: null });
    expect(rows).toHaveLength(2001);
    expect(rows[1]).toEqual({ row: 2, cells: ['가나다라마바사아자차카타파하0', '1060000001', '2026-11-18 09:15:00'] });
    expect(rows.filter((r) => r.cells[0]!.includes('\ufffd'))).toEqual([]);
  });

  it('refuses what is not a spreadsheet', { timeout }, async () => {
    expect(await refusal(Buffer.from('d0cf11e0a1b11ae1000000', 'hex'), '옛날.xls')).toMatchObject({ status: 415, message: expect.stringContaining('.xls') });
    expect(await refusal(Buffer.from('PK\u0003\u0004 not a zip'), 'a.xlsx')).toEqual({ status: 415, message: '엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.' });
    expect(await refusal(Buffer.from([1, 2, 0, 3]), 'a.bin')).toEqual({ status: 415, message: 'CSV 또는 엑셀(.xlsx) 파일만 올릴 수 있습니다.' });
  });
});

describe('finding 1: an XLSX whose shared strings unpack to gigabytes', () => {
  it('is refused by the sizes its zip declares, before anything is unpacked', { timeout }, async () => {
    // 100,000 strings of 4,000 characters: 1.2 GB unpacked from 1.5 MB.
    const bomb = sharedStringsBomb(100_000, 4000);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(await refusal(bomb, '명단.xlsx')).toEqual({ status: 413, message: '엑셀 파일의 압축을 푼 크기가 200MB를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.' });
  });

  it('is refused when its zip lies about the size: unpacking stops where the declared size ends', { timeout }, async () => {
    const liar = sharedStringsBomb(100_000, 4000, { declaredSize: 1024 * 1024 });
    expect(await refusal(liar, '명단.xlsx')).toEqual({
      status: 415, message: '엑셀 파일의 압축을 푼 크기가 파일에 적힌 크기와 다릅니다. 손상되었거나 변조된 파일은 읽을 수 없습니다.',
    });
  });

  it('keeps no more shared strings, and no more of their characters, than the limits', { timeout }, async () => {
    // Lowered limits stand for the real ones (1,500,000 strings, 32,000,000 characters), which cost seconds to reach.
    const many = xlsxOf(['이름'], [['가']], { shared: sharedStrings(2000, 1) });
    expect(await refusal(many, 'a.xlsx', { maxSharedStrings: 1000 })).toEqual({
      status: 413, message: '엑셀 파일의 공유 문자열(서로 다른 글자 값)이 1,000개를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.',
    });
    const long = xlsxOf(['이름'], [['가']], { shared: sharedStrings(100, 4000) });
    expect(await refusal(long, 'a.xlsx', { maxSharedChars: 200_000 })).toEqual({
      status: 413, message: '엑셀 파일의 공유 문자열이 모두 200,000자를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.',
    });
    expect(await refusal(xlsxOf(['이름'], [['가']], { shared: sharedStrings(1, 40_000) }), 'a.xlsx')).toEqual({
      status: 413, message: '공유 문자열에 32,767자를 넘는 칸이 있습니다. 한 칸은 32,767자까지 읽을 수 있습니다.',
    });
  });

  it('has default limits that keep the shared strings well inside the reading thread’s heap, and fit real files', () => {
    // What finding 1's file would have kept, against what the limits let through.
    expect(1_300_000 * 4000 * 2).toBeGreaterThan(SHEET_LIMITS.heapMb * 1024 * 1024);
    expect(sharedStringsBytes(SHEET_LIMITS)).toBeLessThan((SHEET_LIMITS.heapMb * 1024 * 1024) / 2);
    expect(SHEET_LIMITS.maxUnpackedBytes).toBeGreaterThanOrEqual(10 * IMPORT_MAX_BYTES);
    // A real import: up to 100,000 rows of a few dozen columns.
    expect(SHEET_LIMITS.maxRows).toBeGreaterThanOrEqual(Math.max(IMPORT_MAX_ROWS, AD_IMPORT_MAX_ROWS, 100_000));
    expect(SHEET_LIMITS.maxColumns).toBeGreaterThanOrEqual(100);
    expect(SHEET_LIMITS.maxTextChars).toBeGreaterThanOrEqual(IMPORT_MAX_ROWS * 40 * 40);
  });
});

describe('finding 2: a sheet of empty rows', () => {
  it('hits the row limit, empty rows counted', { timeout }, async () => {
    // 150,000 empty rows before one lead: 2.6 MB unpacked from 7 KB.
    expect(await refusal(emptyRowBomb(150_000), '명단.xlsx')).toEqual({
      status: 413, message: '빈 행을 포함해 100,000행을 넘는 파일은 읽지 않습니다. 빈 행을 지우거나 파일을 나눠서 올려 주세요.',
    });
    expect(await refusal(Buffer.from(`이름,연락처\n${'\n'.repeat(150_000)}홍길동,010-1234-5678\n`), '명단.csv')).toMatchObject({ status: 413, message: expect.stringContaining('100,000행') });
  });
});

describe('other limits', () => {
  it('refuses columns past the last one, cells past Excel’s length, and too much text in all', { timeout }, async () => {
    const wide = Buffer.from(`${Array.from({ length: 300 }, (_, i) => `열${i}`).join(',')}\n`);
    expect(await refusal(wide, 'a.csv')).toEqual({ status: 413, message: '1행에 256번째 열을 넘는 칸이 있습니다. 256열까지 읽을 수 있으니 가져올 열만 남겨 올려 주세요.' });
    const far = xlsxOf(['이름'], [], { between: { unit: '<row r="2"><c r="XFD2" t="inlineStr"><is><t>끝</t></is></c></row>', times: 1 } });
    expect(await refusal(far, 'a.xlsx')).toMatchObject({ status: 413, message: expect.stringContaining('2행에 256번째 열을 넘는 칸') });
    expect(await refusal(Buffer.from(`이름,메모\n가,${'나'.repeat(40_000)}\n`), 'a.csv')).toEqual({
      status: 413, message: '2행에 32,767자를 넘는 칸이 있습니다. 한 칸은 32,767자까지 읽을 수 있습니다.',
    });
    // One shared string in every cell: small in the file, large once handed on.
    const echo = xlsxOf(['이름'], [], { shared: sharedStrings(1, 30_000), between: { unit: '<row r="2"><c r="A2" t="s"><v>0</v></c></row>', times: 100 } });
    expect(await refusal(echo, 'a.xlsx', { maxTextChars: 1_000_000 })).toEqual({ status: 413, message: '파일의 글자 수가 모두 1,000,000자를 넘어 읽지 않았습니다. 파일을 나눠서 올려 주세요.' });
  });

  it('stops reading at the deadline', { timeout }, async () => {
    expect(await refusal(emptyRowBomb(10), 'a.xlsx', { deadlineMs: 1 })).toEqual({ status: 413, message: '파일을 읽는 데 1초 넘게 걸려 중단했습니다. 파일을 나눠서 올려 주세요.' });
  });

  it('ends the reading thread at its heap limit, not this process, which reads the next file as usual', { timeout }, async () => {
    // The other limits raised: 64 MB of heap cannot hold 16,000 strings of 4,000 Korean characters (128 MB).
    const bomb = sharedStringsBomb(16_000, 4000);
    const before = process.memoryUsage().heapUsed;
    expect(await refusal(bomb, 'a.xlsx', { heapMb: 64, maxSharedChars: 1e9, maxUnpackedBytes: 1e10 })).toEqual({
      status: 413, message: '파일을 읽는 데 메모리가 64MB 넘게 필요해 중단했습니다. 파일을 나눠서 올려 주세요.',
    });
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    expect((await read(Buffer.from('이름,연락처\n가,010\n'), 'a.csv')).rows).toHaveLength(2);
  });
});

describe('turns', () => {
  it('reads two files at once; an upload is turned away while eight more wait, other reads wait their turn', { timeout }, async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const csv = { bytes: Buffer.from('이름\n가\n'), fileName: 'a.csv' };
    const hold = async () => {
      await held;
      return 'read';
    };
    const reading = Array.from({ length: SHEET_READERS }, () => readSheet(csv, hold));
    const waiting = Array.from({ length: 8 }, () => readSheet(csv, async () => 'waited'));
    await expect(readSheet(csv, async () => 'upload', { upload: true })).rejects.toMatchObject({ status: 503, message: BUSY_MESSAGE });
    release();
    expect(await Promise.all([...reading, ...waiting])).toEqual([...Array(SHEET_READERS).fill('read'), ...Array(8).fill('waited')]);
    expect(await readSheet(csv, async () => 'upload', { upload: true })).toBe('upload');
  });
});
