// 광고 현황: what a shop spent on advertising per Seoul day and medium (optionally per landing),
// entered by hand in a grid or imported from an ad platform's CSV export, set against the
// leads of the same day and medium: CTR, CVR, CPL and CPA (contracts/money.ts adMetrics).
// Leads count by their Seoul day of receipt and their medium (leads.media_type_id); `leads`
// are every lead received and not deleted (duplicates included), `validLeads` the leads that
// count (the valid-lead rule, server/db/valid-leads.ts).
import { z } from './zod.ts';
import { isCalendarDay } from './fields.ts';
import { DAY_RE } from './kst.ts';
import { withJosa } from './korean.ts';
import { queryBool, shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';

/** The most one figure may be (the columns are 32-bit integers on PostgreSQL). */
export const AD_FIGURE_MAX = 2_000_000_000;
/** Rows one save may carry (a month of a few dozen media and landings). */
const AD_SAVE_MAX_ROWS = 2000;
/** The longest period the figures cover. */
export const AD_MAX_DAYS = 366;
/** landing_id of figures entered for a medium as a whole. */
export const WHOLE_MEDIUM = 0;
export const WHOLE_MEDIUM_LABEL = '매체 전체';
/** The totals row of leads without a medium. */
export const NO_MEDIUM_LABEL = '매체 미지정';

const AD_SOURCES = ['manual', 'csv'] as const;
export type AdSource = (typeof AD_SOURCES)[number];

/** What each ratio is, for the screen's tooltips. */
export const AD_METRIC_HELP = {
  ctr: 'CTR = 클릭 ÷ 노출',
  cvr: 'CVR = 접수 DB ÷ 클릭',
  cpl: 'CPL = 광고비 ÷ 접수 DB',
  cpa: 'CPA = 광고비 ÷ 유효 DB',
} as const;

const day = (missing: string) => z.string(missing).regex(DAY_RE, '날짜는 YYYY-MM-DD 형식으로 입력하세요.').refine(isCalendarDay, '없는 날짜입니다.');

export const adSpendQuery = z.object({
  /** Seoul days, inclusive; default this month up to today. */
  from: day('시작일을 입력하세요.').optional(),
  to: day('종료일을 입력하세요.').optional(),
  /** 1: rows per day × medium × landing; otherwise per day × medium. */
  byLanding: queryBool.optional(),
});
export type AdSpendQuery = z.infer<typeof adSpendQuery>;

const figure = (label: string) =>
  z
    .number(`${withJosa(label, '을/를')} 숫자로 입력하세요.`)
    .int(`${withJosa(label, '은/는')} 정수로 입력하세요.`)
    .min(0, `${withJosa(label, '은/는')} 0 이상으로 입력하세요.`)
    .max(AD_FIGURE_MAX, `${withJosa(label, '은/는')} ${AD_FIGURE_MAX.toLocaleString('en-US')} 이하로 입력하세요.`);

export const CLICKS_OVER_IMPRESSIONS = '클릭수는 노출수보다 클 수 없습니다.';

/** One day × medium (× landing) as the grid saves it; all three figures 0 deletes the entry. */
export const adSpendRowInput = z
  .object({
    day: day('날짜를 입력하세요.'),
    mediaTypeId: z.number('매체를 선택하세요.').int('매체를 목록에서 고르세요.').positive('매체를 목록에서 고르세요.'),
    /** 0 or missing: the medium as a whole. */
    landingId: z.number('랜딩을 목록에서 고르세요.').int('랜딩을 목록에서 고르세요.').min(0, '랜딩을 목록에서 고르세요.').optional(),
    impressions: figure('노출수'),
    clicks: figure('클릭수'),
    spend: figure('광고비'),
  })
  .superRefine((r, ctx) => {
    // Only when both are figures (zod runs this beside the fields' own issues).
    if (Number.isInteger(r.impressions) && r.impressions >= 0 && r.clicks > r.impressions) ctx.addIssue({ code: 'custom', path: ['clicks'], message: CLICKS_OVER_IMPRESSIONS });
  });

export const adSpendSaveInput = z.object({
  rows: z
    .array(adSpendRowInput, '저장할 행을 보내세요.')
    .min(1, '저장할 행이 없습니다. 바꾼 칸이 있는지 확인하세요.')
    .max(AD_SAVE_MAX_ROWS, `한 번에 ${AD_SAVE_MAX_ROWS.toLocaleString('ko-KR')}행까지 저장할 수 있습니다.`),
});
export type AdSpendSaveInput = z.infer<typeof adSpendSaveInput>;

export const adSpendSaveResult = z.object({
  /** Entries written (added or replaced). */
  saved: z.number().int(),
  /** Entries removed (rows saved with all three figures 0). */
  deleted: z.number().int(),
});
export type AdSpendSaveResult = z.infer<typeof adSpendSaveResult>;

// ── Figures ─────────────────────────────────────────────────────────────────────────────

const count = z.number().int();
const ratio = z.number().nullable();

/** Spend, leads and the ratios of one group (a row, a medium, a day, the period). */
export const adFigures = z.object({
  impressions: count,
  clicks: count,
  /** KRW */
  spend: count,
  /** Leads received and not deleted, duplicates included. */
  leads: count,
  /** Leads that count (the valid-lead rule). */
  validLeads: count,
  /** Percent, two decimals; null when there were no impressions. */
  ctr: ratio,
  /** Percent (leads ÷ clicks); null without clicks. */
  cvr: ratio,
  /** KRW per lead; null without leads. */
  cpl: ratio,
  /** KRW per valid lead; null without valid leads. */
  cpa: ratio,
  /**
   * Leads received that did not come from an ad (entered by hand, imported, or without a
   * medium): shown apart, never in leads, validLeads or the ratios above.
   */
  otherLeads: count,
});
export type AdFigures = z.infer<typeof adFigures>;

export const adRow = adFigures.extend({
  day: z.string(),
  mediaTypeId: z.number(),
  mediaTypeName: z.string(),
  /** 0: the medium as a whole (and, per landing, the medium's leads without a landing). */
  landingId: z.number(),
  landingTitle: z.string(),
  /** An ad_spend entry exists for the row (otherwise it only has leads). */
  entered: z.boolean(),
  /** Where its figures came from: 'csv' when every entry behind it was imported; null without one. */
  source: z.enum(AD_SOURCES).nullable(),
  /** Per day × medium: the figures include entries made per landing (edit them per landing). */
  split: z.boolean(),
});
export type AdRow = z.infer<typeof adRow>;

/** Per medium; mediaTypeId null is 매체 미지정 (leads without a medium, never any spend). */
export const adMediumTotal = adFigures.extend({ mediaTypeId: z.number().nullable(), mediaTypeName: z.string() });
export type AdMediumTotal = z.infer<typeof adMediumTotal>;

export const adDayTotal = adFigures.extend({ day: z.string() });
export type AdDayTotal = z.infer<typeof adDayTotal>;

export const adSpendFigures = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  /** Seoul today: no figures are entered past it. */
  today: z.string(),
  byLanding: z.boolean(),
  /** Day × medium (× landing) with spend or leads, oldest day first, media in their code order. */
  rows: z.array(adRow),
  /** Every medium with spend or leads in the period, 매체 미지정 last. */
  media: z.array(adMediumTotal),
  /** Every day of the period (leads without a medium included). */
  days: z.array(adDayTotal),
  totals: adFigures,
  /** Active media types, for new rows and the import. */
  mediaTypes: z.array(z.object({ id: z.number(), name: z.string(), code: z.string() })),
  /** The shop's landings, for rows per landing and the import. */
  landings: z.array(z.object({ id: z.number(), title: z.string(), landingCode: z.string() })),
});
export type AdSpendFigures = z.infer<typeof adSpendFigures>;

// ── CSV import ──────────────────────────────────────────────────────────────────────────

export const AD_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const AD_IMPORT_MAX_ROWS = 20_000;
export const AD_IMPORT_ACCEPT = '.csv,.tsv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const AD_IMPORT_FIELDS = ['day', 'impressions', 'clicks', 'spend', 'medium'] as const;
export type AdImportField = (typeof AD_IMPORT_FIELDS)[number];
export const AD_IMPORT_FIELD_LABELS: Record<AdImportField, string> = { day: '날짜', impressions: '노출수', clicks: '클릭수', spend: '광고비', medium: '매체' };

/**
 * The column names each figure is read from, most specific first: a file's header is compared
 * with them by adHeaderKey (no spaces, brackets or punctuation, lower case), and the first name
 * the file has wins (Meta's 링크 클릭 before its 클릭(전체)).
 */
export const AD_IMPORT_HEADERS: Record<AdImportField, readonly string[]> = {
  day: ['일별', '날짜', '일자', '일', 'Day', 'Date', '보고 시작', 'Reporting starts'],
  impressions: ['노출수', '노출', 'Impressions', 'Impr.'],
  clicks: ['클릭수', '링크 클릭', 'Link clicks', '클릭(전체)', 'Clicks (all)', 'Clicks', '클릭'],
  spend: [
    '총비용(VAT포함,원)', '총비용', '비용', '광고비', '지출 금액 (KRW)', 'Amount spent (KRW)', '지출 금액', 'Amount spent', 'Cost', 'Spend',
  ],
  medium: ['매체', '매체명', 'Medium', 'Media'],
};
/** Without these a file cannot be read; impressions and clicks missing read as 0. */
export const AD_IMPORT_REQUIRED: readonly AdImportField[] = ['day', 'spend'];

/** The exports the import knows, as the upload form explains them. */
export const AD_IMPORT_PLATFORMS = [
  { key: 'naver', label: '네이버 검색광고', report: '일별 보고서', columns: '일별, 노출수, 클릭수, 총비용(VAT포함,원)' },
  { key: 'kakao', label: '카카오 모먼트', report: '일별 보고서', columns: '일, 노출수, 클릭수, 비용' },
  { key: 'meta', label: 'Meta 광고', report: '일 단위로 나눈 보고서', columns: '일(Day), 노출(Impressions), 링크 클릭(Link clicks) 또는 클릭(전체), 지출 금액 (KRW)' },
  { key: 'google', label: 'Google Ads', report: '일 단위 보고서', columns: '일(Day), 노출수(Impr.), 클릭수(Clicks), 비용(Cost)' },
] as const;

/** A header as the import compares it. */
export const adHeaderKey = (h: string) => h.toLowerCase().replace(/[\s()[\]{}_\-./·:*,'"]/g, '');

/** The sentence that lists what a file must have, for a file whose columns were not recognised. */
export const AD_IMPORT_EXPECTED = `날짜(${AD_IMPORT_HEADERS.day.slice(0, 4).join('·')}·Day)와 광고비(${['총비용(VAT포함,원)', '비용', '지출 금액 (KRW)', 'Cost'].join('·')}) 열이 있어야 하고, 노출수(노출·Impressions·Impr.)와 클릭수(링크 클릭·Clicks) 열을 읽습니다.`;

export const adImportQuery = z.object({
  /** The platform's medium; may be left out when the file has a 매체 column. */
  mediaTypeId: z.coerce.number('매체를 선택하세요.').int('매체를 목록에서 고르세요.').positive('매체를 목록에서 고르세요.').optional(),
  /** The landing the file's spend is for (none: the medium as a whole). */
  landingId: z.coerce.number('랜딩을 목록에서 고르세요.').int('랜딩을 목록에서 고르세요.').min(0, '랜딩을 목록에서 고르세요.').optional(),
});
export type AdImportQuery = z.infer<typeof adImportQuery>;

const figuresOnly = z.object({ impressions: count, clicks: count, spend: count });

export const adImportPreview = z.object({
  /** Hands the checked rows to importCommit (kept for an hour). */
  token: z.string(),
  fileName: z.string(),
  format: z.enum(['csv', 'xlsx']),
  /** csv: utf-8, cp949, utf-16le or utf-16be. */
  encoding: z.string().nullable(),
  /** Which column each figure was read from (a figure without one reads as 0). */
  columns: z.array(z.object({ field: z.enum(AD_IMPORT_FIELDS), header: z.string() })),
  /** Data rows read (totals rows and empty rows not counted). */
  totalRows: count,
  /** 합계/Total rows left out. */
  skippedTotals: count,
  /** One row per day × medium (the file's rows of the same day and medium added up). */
  rows: z.array(
    figuresOnly.extend({
      day: z.string(),
      mediaTypeId: z.number(),
      mediaTypeName: z.string(),
      landingId: z.number(),
      landingTitle: z.string(),
      /** The file's row numbers behind it. */
      fileRows: z.array(count),
      /** One of its file rows has an error: not imported (even when the others are). */
      blocked: z.boolean(),
      /** What it replaces; null when the day has no entry yet. */
      existing: figuresOnly.nullable(),
    }),
  ),
  /** Per file row: its number (the first line is 1), the column and what is wrong, in Korean. */
  errors: z.array(z.object({ row: count, column: z.string(), message: z.string() })),
  /** The days the file covers; null when no row could be read. */
  period: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type AdImportPreview = z.infer<typeof adImportPreview>;

export const adImportCommitInput = z.object({
  token: z.string('가져올 파일을 다시 올려 주세요.').min(1, '가져올 파일을 다시 올려 주세요.').max(100, '가져올 파일을 다시 올려 주세요.'),
  /** Import the rows without errors (오류 행 제외하고 가져오기); otherwise any error refuses the file. */
  skipErrors: z.boolean('오류 행을 뺄지 선택하세요.').optional(),
});
export type AdImportCommitInput = z.infer<typeof adImportCommitInput>;

export const adImportResult = z.object({
  /** Day × medium entries written (replaced or added). */
  saved: count,
  /** Entries removed (the file's day had all three figures 0). */
  deleted: count,
  /** Day × medium rows left out for their errors. */
  skipped: count,
  period: z.object({ from: z.string(), to: z.string() }).nullable(),
});
export type AdImportResult = z.infer<typeof adImportResult>;

const base = '/api/shops/:shopId/ad-spend';

export const adSpendApi = {
  figures: endpoint({ method: 'GET', path: base, params: shopParam, query: adSpendQuery, response: adSpendFigures }),
  /** Adds, replaces or (all three figures 0) removes entries; nothing is written when a row is refused (fields `rows.N.field`). */
  save: endpoint({ method: 'PUT', path: base, params: shopParam, body: adSpendSaveInput, response: adSpendSaveResult }),
  /** A platform's export (field `file`): read and checked whole, nothing written; answers what importCommit would write. */
  importPreview: endpoint({ method: 'POST', path: `${base}/imports`, params: shopParam, query: adImportQuery, body: 'multipart', response: adImportPreview }),
  importCommit: endpoint({ method: 'POST', path: `${base}/imports/commit`, params: shopParam, body: adImportCommitInput, response: adImportResult }),
};

