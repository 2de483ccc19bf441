// Exporting DB 현황: the leads of the list's filter (a counselor's: only their own), for an
// account whose type has the export right. The access is recorded before the first byte — the
// reason, the filter, the format, whether a password closes the file, and the row count that
// is announced and sent. Phones leave masked unless the type may see them whole.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { forbidden } from '../../lib/errors.ts';
import { recordAccess, type Actor } from '../audit/audit.service.ts';
import { filteredLeads, type LeadExportRow } from '../leads/leads.entry.ts';
import { leadExportRepository } from './lead-export.repository.ts';
import { collect, csvFile, encryptXlsx, xlsxFile, type Cells } from './export-files.ts';
import { formatPhone, maskPhone } from '../../../contracts/rules.ts';
import { EXPORT_ROWS_HEADER, type LeadExportBody } from '../../../contracts/lead-export.ts';
import type { FileReply } from '../../../contracts/endpoint.ts';

const EXPORT_FORBIDDEN = '내보내기 권한이 없습니다.';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_TYPE = 'text/csv; charset=utf-8';

/** The columns, in order, with their XLSX widths (characters). */
const COLUMNS: ReadonlyArray<[string, number]> = [
  ['접수일시', 20], ['업체', 14], ['랜딩', 24], ['실험안', 8], ['매체', 10], ['이름', 10], ['연락처', 15], ['상태', 9], ['담당', 10], ['예약', 20],
  ['메모', 40], ['중복', 6], ['유효', 12], ['첫 연락', 20], ['UTM source', 14], ['UTM medium', 14], ['UTM campaign', 18], ['신청 내용', 40],
];
export const EXPORT_HEADERS = COLUMNS.map(([h]) => h);

const VALIDITY_LABELS: Record<string, string> = { valid: '유효', invalid: '무효', returned: '반품' };

/** A stored instant as a cell (the file shows it in Seoul time); none when there is none. */
const instant = (iso: string | null) => (iso ? new Date(iso) : null);

/** Characters no file name may hold on Windows or macOS. */
const fileSafe = (s: string) => s.replace(/[\\/:*?"<>|]/g, '_').trim() || 'shop';

/** A search term as the access record keeps it: no phone, no name in clear ("***5678", "홍**"). */
function maskedTerm(q: string): string {
  const digits = /^[\d\s-]+$/.test(q) ? q.replace(/\D/g, '') : null;
  if (digits) return digits.length > 4 ? '*'.repeat(digits.length - 4) + digits.slice(-4) : '*'.repeat(digits.length);
  const chars = [...q];
  return chars[0]! + '*'.repeat(chars.length - 1);
}

type Labels = Map<number, Map<string, string>>;

/** The landings' form labels by landing and field key (a field since removed keeps its key as label). */
function labelsOf(forms: Array<{ id: number; form_fields: string }>): Labels {
  const out: Labels = new Map();
  for (const f of forms) {
    try {
      const fields = JSON.parse(f.form_fields) as Array<{ key: string; label: string }>;
      out.set(f.id, new Map(fields.map((x) => [x.key, x.label])));
    } catch {
      // An unreadable form labels nothing: its answers keep their keys.
    }
  }
  return out;
}

/** The form's answers on one line: "지역: 서울 / 통화 가능 시간: 오후". */
function answersText(json: string, labels: Map<string, string> | undefined): string {
  let answers: Record<string, unknown>;
  try {
    answers = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return '';
  }
  return Object.entries(answers)
    .map(([k, v]) => `${labels?.get(k) ?? k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join(' / ');
}

export function leadExportService(db: Kysely<Database>, clock: Clock) {
  const repo = leadExportRepository(db);

  const EXPORT_PAGE = 500;
  return {
    /** The file of the filter's leads; the export is in the access record before it is sent. */
    async export(shopId: number, body: LeadExportBody, actor: Actor): Promise<FileReply> {
      if (!actor.canExport) throw forbidden(EXPORT_FORBIDDEN);
      const { format, reason, password, ...filter } = body;
      const now = clock();
      // Small pages: each is turned into XML and zipped before the next is read, so what is in
      // memory at once stays a few hundred rows whatever the export's size.
      const leads = filteredLeads(db, shopId, filter, actor, now, EXPORT_PAGE);
      const [rows, shopName, forms] = await Promise.all([leads.count(), repo.shopName(shopId), repo.landingForms(shopId)]);
      const encrypted = format === 'xlsx' && !!password;
      await recordAccess(db, actor, {
        shopId, action: 'export', rowCount: rows,
        detail: { reason, filter: { ...filter, ...leads.period, ...(filter.q ? { q: maskedTerm(filter.q) } : {}) }, format, encrypted },
      }, now);

      const shop = shopName ?? '';
      const labels = labelsOf(forms);
      const phone = actor.canUnmask ? formatPhone : maskPhone;
      const cells = (r: LeadExportRow): Cells => [
        instant(r.created_at), shop, r.landing_title ?? (r.source === 'landing' ? '' : '직접 등록'), r.variant ?? '', r.media_type_name ?? '', r.name,
        phone(r.phone), r.cs_status, r.assignee_name ?? (r.assignee_id === null ? '미배분' : ''), instant(r.reserved_at), r.memo ?? '',
        r.duplicate_of ? '중복' : '', (VALIDITY_LABELS[r.validity] ?? r.validity) + (r.invalid_reason ? ` (${r.invalid_reason})` : ''),
        instant(r.first_contact_at), r.utm_source ?? '', r.utm_medium ?? '', r.utm_campaign ?? '',
        answersText(r.answers, r.landing_id === null ? undefined : labels.get(r.landing_id)),
      ];
      // At most the announced count: leads arriving meanwhile are neither counted nor sent.
      const pages = (async function* () {
        for await (const page of leads.pages(rows)) yield page.map(cells);
      })();

      const fileName = `DB_${fileSafe(shop)}_${leads.period.from}_${leads.period.to}.${format}`;
      const headers = { [EXPORT_ROWS_HEADER]: String(rows), 'cache-control': 'no-store' };
      if (format === 'csv') return { fileName, contentType: CSV_TYPE, body: csvFile(EXPORT_HEADERS, pages), headers };
      const xlsx = xlsxFile(EXPORT_HEADERS, pages, { sheetName: 'DB 현황', widths: COLUMNS.map(([, w]) => w) });
      if (!encrypted) return { fileName, contentType: XLSX_TYPE, body: xlsx, headers };
      // Encryption takes the whole file: a few megabytes of zipped XLSX for 100,000 leads.
      return { fileName, contentType: XLSX_TYPE, body: encryptXlsx(await collect(xlsx), password!), headers };
    },
  };
}
