// Exporting DB 현황: the leads of the list's current filter as an XLSX or CSV file, with the
// reason it is taken (kept in the access record) and, for XLSX, an optional password. A POST,
// so the reason and the password never sit in a URL or a server log line.
import { z } from './zod.ts';
import { requiredText } from './fields.ts';
import { listQuery, shopParam } from './list.ts';
import { endpoint } from './endpoint.ts';
import { leadFilters } from './leads.ts';

const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const EXPORT_PASSWORD_MIN = 4;
const EXPORT_REASON_REQUIRED = '내보내는 사유를 입력하세요.';
const EXPORT_PASSWORD_XLSX_ONLY = '암호는 XLSX 파일에만 걸 수 있습니다.';
/** The header announcing how many rows the file holds (the browser's progress). */
export const EXPORT_ROWS_HEADER = 'x-export-rows';

export const leadExportBody = z
  .object({
    ...leadFilters,
    /** The list's search: a name, or phone digits. */
    q: listQuery.shape.q,
    format: z.enum(EXPORT_FORMATS, '파일 형식을 선택하세요.'),
    reason: requiredText(200, EXPORT_REASON_REQUIRED),
    /** Opens the XLSX (ECMA-376 encryption); empty: none. Never stored, never recorded. */
    password: z
      .string('암호를 문자로 입력하세요.')
      .max(255, '암호는 255자 이하로 입력하세요.')
      .refine((v) => v === '' || v.length >= EXPORT_PASSWORD_MIN, `암호는 ${EXPORT_PASSWORD_MIN}자 이상으로 입력하세요.`)
      .transform((v) => v || undefined)
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.password && v.format === 'csv') ctx.addIssue({ code: 'custom', path: ['password'], message: EXPORT_PASSWORD_XLSX_ONLY });
  });
export type LeadExportBody = z.infer<typeof leadExportBody>;

export const leadExportApi = {
  /** The file ('file' response; its row count in EXPORT_ROWS_HEADER). Needs the account type's export right. */
  export: endpoint({ method: 'POST', path: '/api/shops/:shopId/leads/export', params: shopParam, body: leadExportBody, response: 'file' }),
};
