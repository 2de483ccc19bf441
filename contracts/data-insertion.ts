// DB 등록: leads a person enters by hand (a phone call, a walk-in, a paper form) or imports from
// a CSV or XLSX file. Both go through the same rules as a landing's form — name and phone
// checked and normalised, the duplicate rule, the automatic allocation, the `created` event —
// and both record the basis on which the agency may process the person's data.
import type { RefinementCtx } from 'zod';
import { z } from './zod.ts';
import { optionalText, phone, requiredText, text } from './fields.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';

/** leads.source of a lead entered by hand, and of an imported one. */
export const MANUAL_SOURCE = '수기';
export const IMPORT_SOURCE = '가져오기';
/** The duplicate window of a lead without a landing (a landing's own default). */
export const DEFAULT_DUPLICATE_WINDOW_DAYS = 30;

/**
 * Why the agency may process a person's data it did not collect through a landing's form.
 * `consent`: the person consented (PIPA art. 15(1)1); otherwise another legal basis.
 */
export const CONSENT_BASES = [
  { value: 'phone-verbal', label: '전화 상담 중 구두 동의', consent: true },
  { value: 'written', label: '서면 동의', consent: true },
  { value: 'visit', label: '방문 상담 중 동의', consent: true },
  { value: 'external-form', label: '외부 신청서(온라인) 동의', consent: true },
  { value: 'existing-customer', label: '기존 고객 (계약 이행)', consent: false },
  { value: 'other', label: '기타 (비고에 근거 기재)', consent: false },
] as const;
export type ConsentBasis = (typeof CONSENT_BASES)[number]['value'];
const CONSENT_BASIS_VALUES = CONSENT_BASES.map((b) => b.value) as [ConsentBasis, ...ConsentBasis[]];
export const consentBasisLabel = (value: string | null | undefined): string | null => CONSENT_BASES.find((b) => b.value === value)?.label ?? value ?? null;

const CONSENT_BASIS_REQUIRED = '개인정보 수집 근거를 선택하세요.';
export const CONSENT_NOTE_REQUIRED = '기타를 고르면 수집 근거를 비고에 적어 주세요.';

const consentBasis = z.enum(CONSENT_BASIS_VALUES, CONSENT_BASIS_REQUIRED);

/** 기타 needs its basis written down. */
function noteRule(v: { consentBasis: ConsentBasis; consentNote?: string | null }, ctx: RefinementCtx) {
  if (v.consentBasis === 'other' && !v.consentNote) ctx.addIssue({ code: 'custom', path: ['consentNote'], message: CONSENT_NOTE_REQUIRED });
}

const optionalId = z.number('목록에서 고르세요.').int().positive().nullable().optional();

export const MAX_ANSWERS = 20;

/** One lead entered by hand. */
export const manualLeadInput = z
  .object({
    name: requiredText(30, '이름을 입력하세요.'),
    phone: phone(),
    landingId: optionalId,
    mediaTypeId: optionalId,
    memo: optionalText(2000),
    /** Answers as the person gave them: a label (a landing field's, or any) and its value. */
    answers: z
      .array(z.object({ label: requiredText(40, '항목 이름을 입력하세요.'), value: text(200) }), '답변 형식이 올바르지 않습니다.')
      .max(MAX_ANSWERS, `답변은 ${MAX_ANSWERS}개까지 입력할 수 있습니다.`)
      .optional(),
    marketingConsent: z.boolean('마케팅 수신 동의 여부를 선택하세요.').optional(),
    /** The person consented separately to the sensitive answers (건강·민감정보, PIPA art. 23). */
    sensitiveConsent: z.boolean('민감정보 별도 동의 여부를 선택하세요.').optional(),
    consentBasis,
    consentNote: optionalText(200),
  })
  .superRefine(noteRule);
export type ManualLeadInput = z.infer<typeof manualLeadInput>;

export const manualLeadResult = z.object({
  id: z.number(),
  /** The earlier lead of the same phone inside the window: the new one is stored as its duplicate (중복). */
  duplicateOf: z.object({ id: z.number(), name: z.string(), createdAt: z.string() }).nullable(),
  /** The counselor the shop's automatic rule gave it to. */
  assignee: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type ManualLeadResult = z.infer<typeof manualLeadResult>;

// ── Import ──────────────────────────────────────────────────────────────────────────────

export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;
export const IMPORT_PREVIEW_ROWS = 10;
export const IMPORT_ACCEPT = '.csv,.tsv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** How the screen names a CSV's text encoding. */
export const ENCODING_LABELS: Record<string, string> = { 'utf-8': 'UTF-8', cp949: 'EUC-KR(CP949)', 'utf-16le': 'UTF-16', 'utf-16be': 'UTF-16' };

/** What a column of the file becomes. */
export const IMPORT_FIELDS = ['name', 'phone', 'memo', 'medium', 'landing', 'receivedAt', 'answer', 'skip'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  name: '이름', phone: '연락처', memo: '메모', medium: '매체', landing: '랜딩', receivedAt: '접수일',
  answer: '추가 항목 (열 이름 = 항목)', skip: '가져오지 않음',
};
/** Fields at most one column may be. */
export const SINGLE_FIELDS: readonly ImportField[] = ['name', 'phone', 'memo', 'medium', 'landing', 'receivedAt'];

const IMPORT_STATUSES = ['uploaded', 'importing', 'done', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_STATUS_LABELS: Record<ImportStatus, string> = {
  uploaded: '항목 연결 대기', importing: '가져오는 중', done: '완료', failed: '실패', cancelled: '취소됨',
};
/** Imports that have not run (or failed) keep their file and may still be started — or cancelled. */
export const WAITING_IMPORT_STATUSES: readonly ImportStatus[] = ['uploaded', 'failed'];

/**
 * An uploaded file holds people's names and phones: an import left waiting (not started, or
 * failed) this long after its upload or its failure is cancelled and its file deleted by the
 * scheduled job, which looks every IMPORT_ABANDON_CHECK_MINUTES.
 */
export const IMPORT_WAIT_MINUTES = 60;
export const IMPORT_ABANDON_CHECK_MINUTES = 5;
const WAIT_TEXT = `${IMPORT_WAIT_MINUTES / 60}시간`;
/** What the screen says of it. */
export const IMPORT_WAIT_NOTICE = `올린 파일에는 개인정보가 있어, ${WAIT_TEXT} 안에 가져오지 않으면 가져오기가 자동으로 취소되고 파일은 삭제됩니다.`;
export const IMPORT_CANCELLED = '가져오기를 취소했습니다. 올린 파일은 삭제했습니다.';
export const IMPORT_ABANDONED = `${WAIT_TEXT} 동안 가져오지 않아 자동으로 취소했습니다. 올린 파일은 삭제했습니다.`;

export const importMapping = z
  .array(z.enum(IMPORT_FIELDS, '목록에서 고르세요.'), '열마다 가져올 항목을 고르세요.')
  .max(200, '열이 너무 많습니다.')
  .superRefine((fields, ctx) => {
    for (const f of ['name', 'phone'] as const) {
      if (!fields.includes(f)) ctx.addIssue({ code: 'custom', message: `${IMPORT_FIELD_LABELS[f]} 열을 고르세요.` });
    }
    for (const f of SINGLE_FIELDS) {
      if (fields.filter((x) => x === f).length > 1) ctx.addIssue({ code: 'custom', message: `${IMPORT_FIELD_LABELS[f]} 항목은 한 열에만 연결할 수 있습니다.` });
    }
  });

export const importStartInput = z
  .object({
    /** One field per column of the header row, in order. */
    mapping: importMapping,
    consentBasis,
    consentNote: optionalText(200),
  })
  .superRefine(noteRule);
export type ImportStartInput = z.infer<typeof importStartInput>;

export const importItem = z.object({
  id: z.number(),
  fileName: z.string(),
  fileSize: z.number(),
  status: z.enum(IMPORT_STATUSES),
  totalRows: z.number().nullable(),
  imported: z.number(),
  duplicates: z.number(),
  failed: z.number(),
  consentBasis: z.string().nullable(),
  accountName: z.string().nullable(),
  /** Why it failed, or how it was cancelled. */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The per-row error report can be downloaded. */
  hasErrorReport: z.boolean(),
});
export type ImportItem = z.infer<typeof importItem>;

export const importDetail = importItem.extend({
  format: z.enum(['csv', 'xlsx']),
  /** CSV text encoding as found: utf-8, cp949, utf-16le or utf-16be. */
  encoding: z.string().nullable(),
  headers: z.array(z.string()),
  /** The first rows, as the file has them (only while the file is kept: before and during the import). */
  preview: z.array(z.array(z.string())),
  /** A field per column, from the headers' names. */
  suggested: z.array(z.enum(IMPORT_FIELDS)),
  mapping: z.array(z.enum(IMPORT_FIELDS)).nullable(),
  consentNote: z.string().nullable(),
  /** While importing: first every row is checked, then the good ones are written (in one transaction). */
  progress: z.object({ phase: z.enum(['checking', 'writing']).nullable(), done: z.number(), total: z.number() }),
});
export type ImportDetail = z.infer<typeof importDetail>;

const landingOption = z.object({
  id: z.number(),
  title: z.string(),
  landingCode: z.string(),
  mediaTypeId: z.number().nullable(),
  /** The landing's form fields, for answers entered by hand. */
  fields: z.array(z.object({ label: z.string(), options: z.array(z.string()), sensitive: z.boolean() })),
});

export const dataInsertionOptions = z.object({
  landings: z.array(landingOption),
  mediaTypes: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type DataInsertionOptions = z.infer<typeof dataInsertionOptions>;

const base = '/api/shops/:shopId/data-insertion';

export const dataInsertionApi = {
  /** The shop's landings and the media types, for the form and for matching a file's values. */
  options: endpoint({ method: 'GET', path: `${base}/options`, params: shopParam, response: dataInsertionOptions }),
  create: endpoint({ method: 'POST', path: `${base}/leads`, params: shopParam, body: manualLeadInput, response: manualLeadResult, status: 201 }),
  /** A CSV or XLSX file (field `file`): checked whole (size, rows, identifiers it must not hold), then kept until it is imported. */
  upload: endpoint({ method: 'POST', path: `${base}/imports`, params: shopParam, body: 'multipart', response: importDetail, status: 201 }),
  list: listEndpoint({ path: `${base}/imports`, params: shopParam, item: importItem, sort: ['createdAt'] }),
  get: endpoint({ method: 'GET', path: `${base}/imports/:id`, params: shopItemParams, response: importDetail }),
  /** Starts the import; it runs on, the screen follows it with get. */
  start: endpoint({ method: 'POST', path: `${base}/imports/:id/start`, params: shopItemParams, body: importStartInput, response: importDetail, status: 202 }),
  /** An import waiting (or failed) is not run after all: its file is deleted at once, the import stays listed as 취소됨, the access record names who. */
  cancel: endpoint({ method: 'POST', path: `${base}/imports/:id/cancel`, params: shopItemParams, response: importItem }),
  /** Rows that were not imported, with the reason and their original values (CSV, UTF-8 with BOM for Excel). */
  errors: endpoint({ method: 'GET', path: `${base}/imports/:id/errors`, params: shopItemParams, response: 'file' }),
};
