// DB 등록: a lead entered by hand, and leads imported from a file. Both are accepted through the
// leads module's insertAccepted, in a transaction of their own, so they meet the rules a
// landing's lead meets (the duplicate rule, the `created` event, the automatic allocation).
//
// An import runs in two passes over the stored file, never holding it whole: first every row
// is checked outside any transaction (the good ones staged to a file of their own, the bad ones
// written to the error report), then the good ones are written in ONE transaction, in batches —
// if the import fails, nothing of it is stored. On SQLite that transaction has the database to
// itself, so the checking is done before it starts, to keep it short.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import readline from 'node:readline';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { stringify } from 'csv-stringify';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { AppError, badRequest, conflict, foundOr404, notFound } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { recordAccess, type Actor } from '../audit/audit.service.ts';
import { insertAccepted, type AcceptedLead, type NewLead } from '../leads/leads.entry.ts';
import { dataInsertionRepository, type ImportRow, type LandingRow } from './data-insertion.repository.ts';
import { readSheet, type SheetInput, type SheetRow } from '../../lib/sheet-reader.ts';
import { neutralise } from '../../lib/formula-safety.ts';
import { rowsWithHeader, type FileFormat, type TextEncoding } from './import-reader.ts';
import {
  checkRow, headerKey, mappingProblem, normaliseHeaders, sensitiveHeader, sensitiveMessage, sensitiveValue, suggestMapping,
  type LandingRef, type RowContext, type SensitiveFinding,
} from './import-rules.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import type { LeadChange } from '../../../contracts/leads.ts';
import { formFields as formFieldsSchema } from '../../../contracts/landings.ts';
import {
  CONSENT_BASES, DEFAULT_DUPLICATE_WINDOW_DAYS, IMPORT_ABANDONED, IMPORT_CANCELLED, IMPORT_MAX_ROWS, IMPORT_PREVIEW_ROWS, IMPORT_SOURCE,
  IMPORT_WAIT_MINUTES, MANUAL_SOURCE, WAITING_IMPORT_STATUSES,
  type ConsentBasis, type DataInsertionOptions, type ImportDetail, type ImportField, type ImportItem, type ImportStartInput, type ManualLeadInput,
  type ManualLeadResult,
} from '../../../contracts/data-insertion.ts';

/** Leads per insertAccepted call of an import. */
const BATCH = 1000;
/** How often the checking pass writes its progress where other processes see it. */
const PROGRESS_EVERY = 5000;
/**
 * Error reports (and any file a crash left behind) are deleted after this long; an uploaded file
 * goes with its import's cancel, IMPORT_WAIT_MINUTES after it was left waiting.
 */
const KEEP_FILES_MS = 7 * 86_400_000;
/** Stop looking once this many identifiers were found: the file is refused anyway. */
const MAX_FINDINGS = 4;

export const IMPORT_FAILED = '가져오는 중 오류가 나서 아무것도 등록하지 않았습니다. 다시 시도해 주세요.';
const FILE_GONE = '올린 파일의 보관 기간이 지났습니다. 파일을 다시 올려 주세요.';
export const IMPORT_INTERRUPTED = '서버가 다시 시작되어 가져오기가 중단되었습니다. 아무것도 등록되지 않았으니 다시 시도해 주세요.';
/** An import still importing after this long was left by a process that stopped (50,000 rows take seconds). */
const STALE_MS = 30 * 60_000;

/** Imports running in this process (tests wait for them). */
const jobs = new Set<Promise<void>>();
export async function importsSettled(): Promise<void> {
  while (jobs.size) await Promise.allSettled([...jobs]);
}

interface Progress {
  phase: 'checking' | 'writing';
  done: number;
  total: number;
}

interface DataInsertionConfig {
  dataDir: string;
  /** New leads: open lead lists hear of them. */
  announce: (change: LeadChange) => void;
  /** Landings a contract's cap closed with the new leads: their pages go at once. */
  landingsChanged?: (landingIds: number[]) => Promise<void>;
  log: (err: unknown, message: string) => void;
}

interface UploadedFile {
  fileName: string;
  stream: Readable;
}

/** A staged row of an import: what the writing pass turns into a lead. */
interface StagedRow {
  n: string;
  p: string;
  m: string | null;
  t: number | null;
  l: number | null;
  at: string | null;
  a: Record<string, string>;
}

const basisOf = (value: ConsentBasis) => CONSENT_BASES.find((b) => b.value === value)!;

interface Landing extends LandingRef {
  title: string;
  landingCode: string;
  fields: Array<{ key: string; label: string; options: string[]; sensitive: boolean }>;
}

function toLanding(r: LandingRow): Landing {
  const fields = formFieldsSchema.parse(JSON.parse(r.form_fields));
  return {
    id: r.id, title: r.title, landingCode: r.landing_code, mediaTypeId: r.media_type_id, duplicateWindowDays: r.duplicate_window_days,
    policyId: r.policy_id ?? null,
    fieldKeys: new Map(fields.map((f) => [f.label, f.key])),
    sensitiveKeys: new Set(fields.filter((f) => f.sensitive).map((f) => f.key)),
    fields: fields.map((f) => ({ key: f.key, label: f.label, options: f.options, sensitive: !!f.sensitive })),
  };
}

/** A line of the error report: the file's text cannot start a formula in the spreadsheet that opens it. */
const reportRow = (cells: Array<string | number>) => cells.map((c) => (typeof c === 'string' ? neutralise(c) : c));

async function write(stream: Writable, chunk: unknown): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

async function unlink(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true });
}

const importsDir = (dataDir: string) => path.join(dataDir, 'imports');
/** The files an import keeps: the uploaded file, the rows it staged, its error report. */
const filesOf = (dataDir: string, id: number) => {
  const dir = importsDir(dataDir);
  return { source: path.join(dir, String(id)), staged: path.join(dir, `${id}.rows.ndjson`), report: path.join(dir, `${id}.errors.csv`) };
};

type CancelTrigger = 'manual' | 'abandoned';

/**
 * Cancels an import still waiting (or failed), with its access record in the same transaction;
 * false when it is not waiting any more (started, or cancelled by another process meanwhile).
 * After the commit its files go: they hold people's names and phones.
 */
async function cancelImport(
  db: Kysely<Database>,
  dataDir: string,
  row: { id: number; shop_id: number; file_name: string; total_rows: number | null },
  by: { id: number | null; ip: string | null },
  trigger: CancelTrigger,
  now: Date,
): Promise<boolean> {
  const cancelled = await inTransaction(db, async (trx) => {
    const note = trigger === 'manual' ? IMPORT_CANCELLED : IMPORT_ABANDONED;
    if (!(await dataInsertionRepository(trx).cancelWaiting(row.shop_id, row.id, note, now.toISOString()))) return false;
    await recordAccess(trx, by, { shopId: row.shop_id, action: 'import-cancel', rowCount: row.total_rows, detail: { importId: row.id, fileName: row.file_name, trigger } }, now);
    return true;
  });
  if (cancelled) {
    const f = filesOf(dataDir, row.id);
    await Promise.all([unlink(f.source), unlink(f.staged), unlink(f.report)]);
  }
  return cancelled;
}

/**
 * The scheduled job's step: cancels every import left waiting IMPORT_WAIT_MINUTES since its upload
 * (or its failure) and deletes its file; answers their ids. Each is claimed by a conditional
 * update, so several processes may run it at once.
 */
export async function cancelAbandonedImports(db: Kysely<Database>, now: Date, dataDir: string): Promise<number[]> {
  const before = new Date(now.getTime() - IMPORT_WAIT_MINUTES * 60_000).toISOString();
  const done: number[] = [];
  for (const row of await dataInsertionRepository(db).abandoned(before)) {
    if (await cancelImport(db, dataDir, row, { id: null, ip: null }, 'abandoned', now)) done.push(row.id);
  }
  return done;
}

/** Reads the whole file once: its header, its row count, its first rows, and the identifiers it must not hold. */
async function scan(rows: AsyncIterable<SheetRow>): Promise<{ headers: string[]; total: number; preview: string[][] }> {
  let headers: string[] | null = null;
  let total = 0;
  const preview: string[][] = [];
  const findings: SensitiveFinding[] = [];
  // Columns whose name already refused them: their values need not be named too.
  const named = new Set<number>();
  for await (const r of rowsWithHeader(rows)) {
    if ('header' in r) {
      headers = normaliseHeaders(r.header.cells);
      headers.forEach((h, i) => {
        const kind = sensitiveHeader(h);
        if (kind) {
          findings.push({ kind, column: h });
          named.add(i);
        }
      });
      continue;
    }
    total++;
    if (total > IMPORT_MAX_ROWS) {
      throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `한 번에 ${IMPORT_MAX_ROWS.toLocaleString('ko-KR')}행까지 가져올 수 있습니다. 파일을 나눠서 올려 주세요.`);
    }
    if (preview.length < IMPORT_PREVIEW_ROWS) preview.push(r.data.cells);
    r.data.cells.forEach((cell, i) => {
      if (findings.length >= MAX_FINDINGS || named.has(i)) return;
      const kind = sensitiveValue(cell);
      if (kind) findings.push({ kind, column: headers![i] ?? `열 ${i + 1}`, row: r.data.row });
    });
    if (findings.length >= MAX_FINDINGS) break;
  }
  if (findings.length) throw new AppError(422, ERROR_CODES.VALIDATION, sensitiveMessage(findings));
  if (!headers) throw badRequest('파일이 비어 있습니다.');
  if (!total) throw badRequest('첫 행(열 이름) 아래에 가져올 행이 없습니다.');
  return { headers, total, preview };
}

/** Deletes kept files past their time (uploads never imported, error reports). */
async function sweep(dir: string, now: Date) {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > KEEP_FILES_MS) await unlink(file);
  }
}

/** What the parts of the service share: the repository, the files, the imports running here. */
function importContext(db: Kysely<Database>, clock: Clock, config: DataInsertionConfig) {
  const repo = dataInsertionRepository(db);
  return {
    db, clock, config, repo,
    dir: importsDir(config.dataDir),
    files: (id: number) => filesOf(config.dataDir, id),
    progress: new Map<number, Progress>(),
    landingsOf: async (shopId: number): Promise<Landing[]> => (await repo.landings(shopId)).map(toLanding),
    /** After the commit: the landings a cap closed go from the page cache (a failure there does not undo the leads). */
    landingsClosed: async (ids: number[]) => {
      if (ids.length && config.landingsChanged) await config.landingsChanged(ids).catch((err: unknown) => config.log(err, 'closed landings not refreshed'));
    },
  };
}
type ImportContext = ReturnType<typeof importContext>;

/** An import as the screen reads it: its record, its first rows while it waits, its progress. */
function importRecords(cx: ImportContext) {
  const { clock, repo, files, progress } = cx;

  const sourceOf = (row: ImportRow): SheetInput => ({
    path: files(row.id).source, fileName: row.file_name, format: row.format as FileFormat, encoding: row.encoding as TextEncoding | null,
  });

  /** The first rows of a kept file, as the file has them. */
  async function preview(row: ImportRow): Promise<string[][]> {
    if (!fs.existsSync(files(row.id).source)) return [];
    return readSheet(sourceOf(row), async (sheet) => {
      const out: string[][] = [];
      for await (const r of rowsWithHeader(sheet.rows)) {
        if ('header' in r) continue;
        out.push(r.data.cells);
        if (out.length >= IMPORT_PREVIEW_ROWS) break;
      }
      return out;
    });
  }

  function toItem(r: ImportRow): ImportItem {
    const basis = r.consent_basis ? (JSON.parse(r.consent_basis) as { basis: string }).basis : null;
    return {
      id: r.id, fileName: r.file_name, fileSize: r.file_size, status: r.status, totalRows: r.total_rows, imported: r.imported, duplicates: r.duplicates,
      failed: r.failed, consentBasis: basis, accountName: r.account_name, error: r.error, createdAt: r.created_at, finishedAt: r.finished_at,
      hasErrorReport: r.status === 'done' && r.failed > 0 && fs.existsSync(files(r.id).report),
    };
  }

  /** An import a stopped process left importing (its transaction rolled back, nothing stored). */
  const staleBefore = () => new Date(clock().getTime() - STALE_MS).toISOString();
  const isStale = (r: ImportRow) => r.status === 'importing' && !progress.has(r.id) && (r.started_at ?? r.created_at) < staleBefore();
  /** Marks the shop's stale imports failed, so that they can run again; true when there were any. */
  async function failStale(shopId: number, rows: readonly ImportRow[]): Promise<boolean> {
    if (!rows.some(isStale)) return false;
    await repo.failStale(shopId, staleBefore(), IMPORT_INTERRUPTED, clock().toISOString());
    return true;
  }

  /** `firstRows`: the preview, when the caller has just read it (the file is not read again). */
  async function detail(shopId: number, id: number, firstRows?: string[][]): Promise<ImportDetail> {
    const find = () => foundOr404(repo.findImport(shopId, id), '가져오기 기록을 찾을 수 없습니다.');
    let row = await find();
    if (await failStale(shopId, [row])) row = await find();
    const headers = row.headers ? (JSON.parse(row.headers) as string[]) : [];
    const running = progress.get(id);
    const waiting = row.status === 'uploaded' || row.status === 'failed';
    return {
      ...toItem(row),
      format: (row.format ?? 'csv') as FileFormat,
      encoding: row.encoding,
      headers,
      preview: waiting ? (firstRows ?? (await preview(row))) : [],
      suggested: suggestMapping(headers),
      mapping: row.mapping ? (JSON.parse(row.mapping) as ImportField[]) : null,
      consentNote: row.consent_basis ? ((JSON.parse(row.consent_basis) as { note?: string | null }).note ?? null) : null,
      progress: running ?? { phase: row.status === 'importing' ? 'checking' : null, done: row.processed_rows, total: row.total_rows ?? 0 },
    };
  }

  return { sourceOf, toItem, failStale, detail };
}
type ImportRecords = ReturnType<typeof importRecords>;

/** What checking a row needs: the mapping, and the shop's landings and the media types by name and code. */
async function contextOf(cx: ImportContext, shopId: number, mapping: ImportField[], headers: string[], now: Date): Promise<RowContext & { byId: Map<number, Landing> }> {
  const [landings, mediaTypes] = await Promise.all([cx.landingsOf(shopId), cx.repo.mediaTypes()]);
  const media = new Map<string, number>();
  for (const m of mediaTypes) {
    media.set(headerKey(m.code), m.id);
    media.set(headerKey(m.name), m.id);
  }
  const byName = new Map<string, LandingRef>();
  for (const l of landings) {
    byName.set(headerKey(l.landingCode), l);
    byName.set(headerKey(l.title), l);
  }
  return { mapping, headers, media, landings: byName, now, byId: new Map(landings.map((l) => [l.id, l])) };
}

/** The rows an import has checked so far, and how many of them failed (what a failure records). */
interface Tally {
  processed: number;
  failed: number;
}

/**
 * Pass 1, outside any transaction: checks every row of the kept file, stages the good ones and
 * writes the bad ones to the error report; answers how many were good.
 */
async function checkRows(
  cx: ImportContext, records: ImportRecords, row: ImportRow, ctx: RowContext, state: Progress, tally: Tally,
): Promise<number> {
  const f = cx.files(row.id);
  const headers = JSON.parse(row.headers ?? '[]') as string[];
  let staged: fs.WriteStream | undefined;
  let report: ReturnType<typeof stringify> | undefined;
  try {
    const stagedOut = (staged = fs.createWriteStream(f.staged));
    // CRLF and a BOM: Excel opens it as UTF-8 with its rows intact.
    const reportOut = (report = stringify({ bom: true, record_delimiter: 'windows' }));
    const reportDone = pipeline(report, fs.createWriteStream(f.report));
    // Awaited below; a failure before then must not go unhandled.
    reportDone.catch(() => {});
    await write(report, reportRow(['행 번호', '열', '사유', ...headers]));
    let good = 0;
    await readSheet(records.sourceOf(row), async (sheet) => {
      for await (const r of rowsWithHeader(sheet.rows)) {
        if ('header' in r) continue;
        tally.processed++;
        const checked = checkRow(r.data.cells, ctx);
        if ('errors' in checked) {
          tally.failed++;
          for (const e of checked.errors) await write(reportOut, reportRow([r.data.row, e.column, e.reason, ...r.data.cells]));
        } else {
          good++;
          const c = checked.row;
          const line: StagedRow = { n: c.name, p: c.phone, m: c.memo, t: c.mediaTypeId, l: c.landing?.id ?? null, at: c.receivedAt, a: c.answers };
          await write(stagedOut, `${JSON.stringify(line)}\n`);
        }
        state.done = tally.processed;
        if (tally.processed % PROGRESS_EVERY === 0) await cx.repo.updateImport(row.id, { processed_rows: tally.processed });
      }
    });
    staged.end();
    report.end();
    await Promise.all([once(staged, 'close'), reportDone]);
    await cx.repo.updateImport(row.id, { processed_rows: tally.processed });
    return good;
  } catch (err) {
    staged?.destroy();
    report?.destroy();
    throw err;
  }
}

/** Pass 2: the staged rows, all in one transaction, with the import's record and its access record. */
async function writeRows(
  cx: ImportContext, shopId: number, row: ImportRow, input: ImportStartInput, actor: Actor,
  ctx: { byId: Map<number, Landing>; shopPolicy: number | null }, state: Progress, tally: Tally,
) {
  const id = row.id;
  const basis = basisOf(input.consentBasis);
  const { shopPolicy } = ctx;
  const now = cx.clock();
  const created: LeadChange['leads'] = [];
  const closedLandings = new Set<number>();
  let duplicates = 0;
  const by = { accountId: actor.id, ip: actor.ip };
  await inTransaction(cx.db, async (trx) => {
    let batch: AcceptedLead[] = [];
    const flush = async () => {
      if (!batch.length) return;
      // Numbered for the pull feed after the commit: the counter is not held for the whole import.
      const done = await insertAccepted(trx, batch, now, { numberFeed: false });
      for (const d of done) {
        created.push({ id: d.leadId, assigneeId: d.assigneeId ?? null });
        if (d.duplicateOf) duplicates++;
        for (const l of d.closedLandingIds ?? []) closedLandings.add(l);
      }
      state.done += batch.length;
      batch = [];
    };
    const stagedIn = fs.createReadStream(cx.files(id).staged);
    try {
      for await (const text of readline.createInterface({ input: stagedIn, crlfDelay: Infinity })) {
        if (!text) continue;
        const s = JSON.parse(text) as StagedRow;
        const landing = s.l ? (ctx.byId.get(s.l) ?? null) : null;
        const lead: NewLead = {
          shop_id: shopId, landing_id: s.l, source: IMPORT_SOURCE, name: s.n, phone: s.p, answers: JSON.stringify(s.a),
          privacy_consent: basis.consent ? 1 : 0, marketing_consent: 0, sensitive_consent: 0, privacy_policy_id: landing?.policyId ?? shopPolicy,
          utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null, media_type_id: s.t, referrer: null,
          ip: null, user_agent: null, cs_status: '미처리', memo: s.m, consent_basis: basis.value, consent_note: input.consentNote ?? null, import_id: id,
        };
        batch.push({ lead, duplicateWindowDays: landing?.duplicateWindowDays ?? DEFAULT_DUPLICATE_WINDOW_DAYS, ...(s.at ? { receivedAt: s.at } : {}), by });
        if (batch.length >= BATCH) await flush();
      }
    } finally {
      stagedIn.destroy();
    }
    await flush();
    await dataInsertionRepository(trx).updateImport(id, {
      status: 'done', processed_rows: tally.processed, imported: created.length, duplicates, failed: tally.failed, finished_at: now.toISOString(), error: null,
    });
    await recordAccess(trx, actor, { shopId, action: 'import', rowCount: created.length, detail: { fileName: row.file_name, importId: id, failed: tally.failed } }, now);
  });
  return { created, closedLandings: [...closedLandings] };
}

/** Runs a claimed import to its end: both passes, then the news and the files; a failure is recorded on the import. */
async function runImport(cx: ImportContext, records: ImportRecords, shopId: number, row: ImportRow, input: ImportStartInput, actor: Actor): Promise<void> {
  const { clock, config, repo, progress } = cx;
  const id = row.id;
  const f = cx.files(id);
  const headers = JSON.parse(row.headers ?? '[]') as string[];
  const state: Progress = { phase: 'checking', done: 0, total: row.total_rows ?? 0 };
  progress.set(id, state);
  const tally: Tally = { processed: 0, failed: 0 };
  try {
    const ctx = await contextOf(cx, shopId, input.mapping, headers, clock());
    const shopPolicy = await repo.currentPolicyId(shopId);
    const good = await checkRows(cx, records, row, ctx, state, tally);
    state.phase = 'writing';
    state.done = 0;
    state.total = good;
    const { created, closedLandings } = await writeRows(cx, shopId, row, input, actor, { byId: ctx.byId, shopPolicy }, state, tally);
    progress.delete(id);
    if (created.length) config.announce({ shopId, kind: 'created', leads: created });
    await cx.landingsClosed(closedLandings);
    await Promise.all([unlink(f.source), unlink(f.staged), tally.failed ? Promise.resolve() : unlink(f.report)]);
  } catch (err) {
    progress.delete(id);
    if (!(err instanceof AppError)) config.log(err, `import ${id} failed`);
    await Promise.all([unlink(f.staged), unlink(f.report)]).catch(() => {});
    await repo
      .updateImport(id, { status: 'failed', error: err instanceof AppError ? err.message : IMPORT_FAILED, processed_rows: tally.processed, imported: 0, duplicates: 0, failed: 0, finished_at: clock().toISOString() })
      .catch((e: unknown) => config.log(e, `import ${id}: recording the failure`));
  }
}

/** The import flow: upload, list, start, cancel, the error report. */
function importFlow(cx: ImportContext, records: ImportRecords) {
  const { db, clock, config, repo, dir, files, progress } = cx;
  const { toItem, failStale, detail } = records;
  return {
    /** Stores an uploaded file after reading it whole once: refused files are not kept. */
    async upload(shopId: number, file: UploadedFile, actor: Actor): Promise<ImportDetail> {
      const now = clock();
      await fs.promises.mkdir(dir, { recursive: true });
      void sweep(dir, now).catch((err: unknown) => config.log(err, 'sweeping import files'));
      const tmp = path.join(dir, `upload-${crypto.randomBytes(8).toString('hex')}`);
      try {
        await pipeline(file.stream, fs.createWriteStream(tmp));
        const size = (await fs.promises.stat(tmp)).size;
        if (!size) throw badRequest('빈 파일입니다.');
        const { format, encoding, headers, total, preview: firstRows } = await readSheet(
          { path: tmp, fileName: file.fileName },
          async (sheet) => ({ format: sheet.format, encoding: sheet.encoding, ...(await scan(sheet.rows)) }),
          { upload: true },
        );
        const id = await repo.insertImport({
          shop_id: shopId, account_id: actor.id, file_name: file.fileName, file_size: size, status: 'uploaded', total_rows: total,
          format, encoding, headers: JSON.stringify(headers), created_at: now.toISOString(),
        });
        await fs.promises.rename(tmp, files(id).source);
        return detail(shopId, id, firstRows);
      } finally {
        await unlink(tmp);
      }
    },

    async list(shopId: number, q: { page: number; pageSize: number; sort?: 'createdAt' | '-createdAt' }) {
      let page = await repo.listImports(shopId, q);
      if (await failStale(shopId, page.rows)) page = await repo.listImports(shopId, q);
      return itemsOf(page, toItem);
    },

    get: detail,

    /** Starts an import of an uploaded file; it runs on after the answer. */
    async start(shopId: number, id: number, input: ImportStartInput, actor: Actor): Promise<ImportDetail> {
      const row = await foundOr404(repo.findImport(shopId, id), '가져오기 기록을 찾을 수 없습니다.');
      if (row.status === 'importing') throw conflict('이미 가져오는 중입니다.');
      if (row.status === 'done') throw conflict('이미 가져온 파일입니다.');
      if (row.status === 'cancelled') throw conflict('취소한 가져오기입니다. 파일을 다시 올려 주세요.');
      const headers = JSON.parse(row.headers ?? '[]') as string[];
      const problem = mappingProblem(input.mapping, headers.length);
      if (problem) throw badRequest(problem, { mapping: problem });
      if (!fs.existsSync(files(id).source)) throw new AppError(410, ERROR_CODES.GONE, FILE_GONE);
      const now = clock().toISOString();
      const claimed = await repo.claim(id, {
        mapping: JSON.stringify(input.mapping), consent_basis: JSON.stringify({ basis: input.consentBasis, note: input.consentNote ?? null }),
        started_at: now, processed_rows: 0, imported: 0, duplicates: 0, failed: 0, error: null, finished_at: null,
      });
      if (!claimed) throw conflict('이미 가져오는 중입니다.');
      const fresh = (await repo.findImport(shopId, id))!;
      progress.set(id, { phase: 'checking', done: 0, total: fresh.total_rows ?? 0 });
      const job = runImport(cx, records, shopId, fresh, input, actor);
      jobs.add(job);
      void job.finally(() => jobs.delete(job));
      return detail(shopId, id);
    },

    /** An import not run after all: kept as 취소됨, its file deleted at once, who cancelled it in the access record. */
    async cancel(shopId: number, id: number, actor: Actor): Promise<ImportItem> {
      const row = await foundOr404(repo.findImport(shopId, id), '가져오기 기록을 찾을 수 없습니다.');
      if (row.status === 'cancelled') throw conflict('이미 취소한 가져오기입니다.');
      if (!WAITING_IMPORT_STATUSES.includes(row.status) || !(await cancelImport(db, config.dataDir, row, actor, 'manual', clock()))) {
        throw conflict('가져오는 중이거나 가져온 파일은 취소할 수 없습니다.');
      }
      return toItem((await repo.findImport(shopId, id))!);
    },

    /** The rows not imported, with their reasons and original values; the download is in the access record. */
    async errorReport(shopId: number, id: number, actor: Actor) {
      const row = await foundOr404(repo.findImport(shopId, id), '가져오기 기록을 찾을 수 없습니다.');
      const file = files(id).report;
      if (row.status !== 'done' || !row.failed) throw notFound('오류 보고서가 없습니다. 모든 행을 가져왔습니다.');
      if (!fs.existsSync(file)) throw new AppError(410, ERROR_CODES.GONE, '오류 보고서의 보관 기간(7일)이 지났습니다.');
      await recordAccess(db, actor, { shopId, action: 'export', rowCount: row.failed, detail: { kind: 'import-errors', importId: id, fileName: row.file_name } }, clock());
      const stem = row.file_name.replace(/\.[^.]+$/, '') || '가져오기';
      return { fileName: `${stem}-오류.csv`, contentType: 'text/csv; charset=utf-8', body: fs.createReadStream(file) };
    },
  };
}

/** A lead entered by hand, and what its form offers. */
function manualEntry(cx: ImportContext) {
  const { db, clock, config, repo, landingsOf, landingsClosed } = cx;
  return {
    async options(shopId: number): Promise<DataInsertionOptions> {
      const [landings, mediaTypes] = await Promise.all([landingsOf(shopId), repo.mediaTypes()]);
      return {
        landings: landings.map((l) => ({
          id: l.id, title: l.title, landingCode: l.landingCode, mediaTypeId: l.mediaTypeId,
          fields: l.fields.map((f) => ({ label: f.label, options: f.options, sensitive: f.sensitive })),
        })),
        mediaTypes: mediaTypes.map((m) => ({ id: m.id, name: m.name })),
      };
    },

    /** One lead entered by hand, through the intake's rules. */
    async create(shopId: number, input: ManualLeadInput, actor: Actor): Promise<ManualLeadResult> {
      const now = clock();
      const landings = await landingsOf(shopId);
      const landing = input.landingId ? landings.find((l) => l.id === input.landingId) : undefined;
      if (input.landingId && !landing) throw badRequest('이 업체의 랜딩을 고르세요.', { landingId: '이 업체의 랜딩을 고르세요.' });
      if (input.mediaTypeId && !(await repo.mediaTypes()).some((m) => m.id === input.mediaTypeId)) {
        throw badRequest('목록에 있는 매체를 고르세요.', { mediaTypeId: '목록에 있는 매체를 고르세요.' });
      }
      // No prototype: a label may be any text, 'constructor' too.
      const answers: Record<string, string> = Object.create(null) as Record<string, string>;
      const fields: Record<string, string> = {};
      let sensitive = false;
      (input.answers ?? []).forEach((a, i) => {
        if (!a.value) return;
        const key = landing?.fieldKeys.get(a.label) ?? a.label;
        if (key in answers) fields[`answers.${i}.label`] = '같은 항목이 두 번 있습니다.';
        const field = landing?.fields.find((f) => f.key === key);
        if (field?.options.length && !a.value.split(',').every((v) => field.options.includes(v.trim()))) {
          fields[`answers.${i}.value`] = `${field.label}: 목록에 있는 항목을 고르세요.`;
        }
        if (field?.sensitive) sensitive = true;
        answers[key] = a.value;
      });
      if (sensitive && !input.sensitiveConsent) fields.sensitiveConsent = '민감정보(건강 등)를 기록하려면 별도 동의를 받았는지 확인하세요.';
      if (Object.keys(fields).length) throw badRequest('입력 내용을 확인하세요.', fields);

      const basis = basisOf(input.consentBasis);
      const lead: NewLead = {
        shop_id: shopId, landing_id: landing?.id ?? null, source: MANUAL_SOURCE, name: input.name, phone: input.phone, answers: JSON.stringify(answers),
        privacy_consent: basis.consent ? 1 : 0, marketing_consent: input.marketingConsent ? 1 : 0, sensitive_consent: sensitive ? 1 : 0,
        privacy_policy_id: landing ? landing.policyId : await repo.currentPolicyId(shopId),
        utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null, utm_term: null,
        media_type_id: input.mediaTypeId ?? landing?.mediaTypeId ?? null, referrer: null, ip: null, user_agent: null, cs_status: '미처리',
        memo: input.memo ?? null, consent_basis: basis.value, consent_note: input.consentNote ?? null, import_id: null,
      };
      const [created] = await inTransaction(db, (trx) =>
        insertAccepted(trx, [{ lead, duplicateWindowDays: landing?.duplicateWindowDays ?? DEFAULT_DUPLICATE_WINDOW_DAYS, by: { accountId: actor.id, ip: actor.ip } }], now),
      );
      const c = created!;
      config.announce({ shopId, kind: 'created', leads: [{ id: c.leadId, assigneeId: c.assigneeId ?? null }] });
      await landingsClosed(c.closedLandingIds ?? []);
      const original = c.duplicateOf ? await repo.leadSummary(c.duplicateOf) : undefined;
      const assigneeName = c.assigneeId ? await repo.accountName(c.assigneeId) : null;
      return {
        id: c.leadId,
        duplicateOf: original ? { id: original.id, name: original.name, createdAt: original.created_at } : null,
        assignee: c.assigneeId && assigneeName ? { id: c.assigneeId, name: assigneeName } : null,
      };
    },
  };
}

export function dataInsertionService(db: Kysely<Database>, clock: Clock, config: DataInsertionConfig) {
  const cx = importContext(db, clock, config);
  return { ...manualEntry(cx), ...importFlow(cx, importRecords(cx)) };
}
