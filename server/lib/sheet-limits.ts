// The limits an uploaded spreadsheet is read within, and the Korean reason each one gives. A file
// a person hands us is hostile until bounded: a few megabytes of XLSX can unpack to gigabytes
// (its shared strings kept whole), and a sheet of empty rows can keep a parser busy for minutes.
// The figures fit real imports (up to 100,000 rows of a few dozen columns) with room to spare;
// README.md "Limits on what users hand us" lists them.

export interface SheetLimits {
  /** XLSX: bytes of the parts read once unpacked (each part's declared size, then its actual bytes). */
  maxUnpackedBytes: number;
  /** XLSX: shared strings kept (each distinct text of the workbook is one). */
  maxSharedStrings: number;
  /** XLSX: characters of all shared strings together. */
  maxSharedChars: number;
  /** Rows read, empty or not. */
  maxRows: number;
  /** The highest column a row may use. */
  maxColumns: number;
  /** Characters of one cell (Excel's own limit). */
  maxCellChars: number;
  /** Characters of every cell handed on, together (a shared string counts each time a cell uses it). */
  maxTextChars: number;
  /** Time the reader may keep its caller waiting, in total. */
  deadlineMs: number;
  /** The reading thread's heap (V8's old generation), in MB: past it the thread ends, never the server. */
  heapMb: number;
}

export const SHEET_LIMITS: Readonly<SheetLimits> = {
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxSharedStrings: 1_500_000,
  maxSharedChars: 32_000_000,
  maxRows: 100_000,
  maxColumns: 256,
  maxCellChars: 32_767,
  maxTextChars: 100_000_000,
  deadlineMs: 120_000,
  heapMb: 256,
};

/** Readers at work at once in this process: each may hold up to `heapMb` of memory. */
export const SHEET_READERS = 2;

/** A file refused by a limit, or one that cannot be read: answered with `status` and `message` as it is. */
export class SheetRefusal extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message);
  }
}

const n = (v: number) => v.toLocaleString('ko-KR');
const mb = (bytes: number) => `${n(Math.round(bytes / 1024 / 1024))}MB`;
const duration = (ms: number) => (ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000}분` : `${n(Math.ceil(ms / 1000))}초`);
const SPLIT = '파일을 나눠서 올려 주세요.';
const over = (message: string) => new SheetRefusal(413, message);

export const refuse = {
  unpacked: (l: SheetLimits) => over(`엑셀 파일의 압축을 푼 크기가 ${mb(l.maxUnpackedBytes)}를 넘어 읽지 않았습니다. ${SPLIT}`),
  sharedStrings: (l: SheetLimits) => over(`엑셀 파일의 공유 문자열(서로 다른 글자 값)이 ${n(l.maxSharedStrings)}개를 넘어 읽지 않았습니다. ${SPLIT}`),
  sharedChars: (l: SheetLimits) => over(`엑셀 파일의 공유 문자열이 모두 ${n(l.maxSharedChars)}자를 넘어 읽지 않았습니다. ${SPLIT}`),
  rows: (l: SheetLimits) => over(`빈 행을 포함해 ${n(l.maxRows)}행을 넘는 파일은 읽지 않습니다. 빈 행을 지우거나 ${SPLIT}`),
  columns: (l: SheetLimits, row: number) => over(`${n(row)}행에 ${n(l.maxColumns)}번째 열을 넘는 칸이 있습니다. ${n(l.maxColumns)}열까지 읽을 수 있으니 가져올 열만 남겨 올려 주세요.`),
  cell: (l: SheetLimits, row: number | null) =>
    over(`${row === null ? '공유 문자열' : `${n(row)}행`}에 ${n(l.maxCellChars)}자를 넘는 칸이 있습니다. 한 칸은 ${n(l.maxCellChars)}자까지 읽을 수 있습니다.`),
  record: (l: SheetLimits, line: number) =>
    over(`CSV 파일의 ${n(line)}행이 너무 깁니다. 한 칸은 ${n(l.maxCellChars)}자, 한 행은 ${n(l.maxColumns)}열까지 읽을 수 있습니다.`),
  text: (l: SheetLimits) => over(`파일의 글자 수가 모두 ${n(l.maxTextChars)}자를 넘어 읽지 않았습니다. ${SPLIT}`),
  deadline: (l: SheetLimits) => over(`파일을 읽는 데 ${duration(l.deadlineMs)} 넘게 걸려 중단했습니다. ${SPLIT}`),
  heap: (l: SheetLimits) => over(`파일을 읽는 데 메모리가 ${n(l.heapMb)}MB 넘게 필요해 중단했습니다. ${SPLIT}`),
  /** A part that unpacks to more than its header says: made to get past the size check, or broken. */
  forged: () => new SheetRefusal(415, '엑셀 파일의 압축을 푼 크기가 파일에 적힌 크기와 다릅니다. 손상되었거나 변조된 파일은 읽을 수 없습니다.'),
  unreadableXlsx: () => new SheetRefusal(415, '엑셀 파일을 읽을 수 없습니다. 파일이 손상되지 않았는지 확인해 주세요.'),
  oldExcel: () => new SheetRefusal(415, '암호가 걸린 엑셀 파일이나 예전 형식(.xls)은 읽을 수 없습니다. 암호를 풀고 .xlsx 또는 CSV로 저장해 올려 주세요.'),
  notASheet: () => new SheetRefusal(415, 'CSV 또는 엑셀(.xlsx) 파일만 올릴 수 있습니다.'),
  csvQuotes: (line: number) => new SheetRefusal(400, `CSV 파일의 ${n(line)}행을 읽을 수 없습니다. 따옴표가 짝이 맞는지 확인해 주세요.`),
};

/**
 * What the shared strings may take of the reading thread's heap at most: each character two
 * bytes (Korean text is stored so), and about 40 bytes for each string's header and slot.
 */
export const sharedStringsBytes = (l: SheetLimits) => l.maxSharedChars * 2 + l.maxSharedStrings * 40;
