// Test support: XLSX files built by hand, down to the zip, so that tests can hand the server the
// files an attacker would — parts that unpack to gigabytes from a few kilobytes, headers that
// lie about their size, sheets of nothing but empty rows — without building them in memory.
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** A raw deflate stream and the size it unpacks to. */
export interface Deflated {
  bytes: Buffer;
  size: number;
}

/**
 * `head`, then `unit` `times` times, then `tail`, deflated without ever holding the whole text:
 * each piece is a deflate block of its own (ended by a sync flush), and the same compressed
 * block of the unit is repeated — a gigabyte of XML costs about a megabyte here.
 */
export function repeated(head: string, unit: string, times: number, tail: string): Deflated {
  // About a megabyte of text per repeated block.
  const perBlock = Math.max(1, Math.min(times, Math.floor((1024 * 1024) / Buffer.byteLength(unit))));
  const block = (text: string) => zlib.deflateRawSync(Buffer.from(text), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const parts = [block(head)];
  const full = block(unit.repeat(perBlock));
  for (let left = times; left > 0; left -= perBlock) parts.push(left >= perBlock ? full : block(unit.repeat(left)));
  parts.push(zlib.deflateRawSync(Buffer.from(tail)));
  return { bytes: Buffer.concat(parts), size: Buffer.byteLength(head) + Buffer.byteLength(unit) * times + Buffer.byteLength(tail) };
}

export interface ZipPart {
  name: string;
  /** Deflated here. */
  text?: string;
  deflated?: Deflated;
  /** The unpacked size written in the headers, when it should not be the true one. */
  declaredSize?: number;
}

/** A zip of the parts (CRCs left 0: the server's reader does not check them). */
export function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const d = p.deflated ?? { bytes: zlib.deflateRawSync(Buffer.from(p.text ?? '')), size: Buffer.byteLength(p.text ?? '') };
    const size = p.declaredSize ?? d.size;
    const name = Buffer.from(p.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(d.bytes.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(d.bytes.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, d.bytes);
    central.push(entry, name);
    offset += local.length + name.length + d.bytes.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook ${NS} ${REL_NS}><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${escape(text)}</t></is></c>`;
const rowOf = (n: number, cells: string[]) => `<row r="${n}">${cells.map((c, i) => inline(`${String.fromCharCode(65 + i)}${n}`, c)).join('')}</row>`;
const sheetHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet ${NS}>`;

/** An XLSX of one sheet: `header`, `rows` as inline strings; `between` (XML) goes between the header and the rows. */
export function xlsxOf(header: string[], rows: string[][], o: { shared?: ZipPart; between?: { unit: string; times: number }; sheetPrefix?: string } = {}): Buffer {
  const head = `${sheetHead}${o.sheetPrefix ?? ''}<sheetData>${rowOf(1, header)}`;
  const first = o.between ? 2 + o.between.times : 2;
  const tail = `${rows.map((r, i) => rowOf(first + i, r)).join('')}</sheetData></worksheet>`;
  const sheet = repeated(head, o.between?.unit ?? '', o.between?.times ?? 0, tail);
  return zipOf([{ name: 'xl/workbook.xml', text: WORKBOOK }, { name: 'xl/worksheets/sheet1.xml', deflated: sheet }, ...(o.shared ? [o.shared] : [])]);
}

/** Shared strings: `count` strings of `length` characters (what finding 1's 7 MB file held 1.3 million of). */
export function sharedStrings(count: number, length: number, declaredSize?: number): ZipPart {
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst ${NS} count="${count}" uniqueCount="${count}">`;
  return { name: 'xl/sharedStrings.xml', deflated: repeated(head, `<si><t>${'가'.repeat(length)}</t></si>`, count, '</sst>'), declaredSize };
}

/** Finding 1: a sheet whose one cell uses the first of `count` shared strings of `length` characters. */
export function sharedStringsBomb(count: number, length: number, o: { declaredSize?: number } = {}): Buffer {
  const sheet = `${sheetHead}<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`;
  return zipOf([{ name: 'xl/workbook.xml', text: WORKBOOK }, { name: 'xl/worksheets/sheet1.xml', text: sheet }, sharedStrings(count, length, o.declaredSize)]);
}

/** Finding 2: a header, `empty` rows with nothing in them, then one lead. */
export function emptyRowBomb(empty: number): Buffer {
  return xlsxOf(['이름', '연락처'], [['홍길동', '010-1234-5678']], { between: { unit: '<row r="2"></row>', times: empty } });
}

/**
 * Asks for the health check and the landing page `view` again and again while `work` (an upload
 * being read) is pending, and checks each answer: 200, and given while the work was still
 * pending or within 5 s. The first two are asked while it is pending: they must answer then.
 */
export async function servingWhile<T>(app: FastifyInstance, work: Promise<T>, view = '/view/smile/implant'): Promise<T> {
  let finished = false;
  const watched = work.finally(() => (finished = true));
  const answers: Array<{ url: string; status: number; during: boolean; ms: number }> = [];
  do {
    // inject() answers without a turn of the event loop: give the upload's I/O its turn, as real requests would.
    await new Promise((resolve) => setImmediate(resolve));
    for (const url of ['/api/health', view]) {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url });
      answers.push({ url, status: res.statusCode, during: !finished, ms: performance.now() - started });
    }
  } while (!finished);
  const bad = answers.filter((a) => a.status !== 200 || (!a.during && a.ms > 5000));
  if (bad.length) throw new Error(`not answered while the file was read: ${JSON.stringify(bad.slice(0, 3))}`);
  if (!answers[0]!.during || !answers[1]!.during) throw new Error(`answered only after the file was read: ${JSON.stringify(answers.slice(0, 2))}`);
  return watched;
}
