// Code tables: client types, media types, event types.
import { z } from './zod.ts';
import { idParam, listEndpoint, queryBool } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { CODE_RE } from './rules.ts';
import { requiredText, rowTimes } from './fields.ts';

export const CODE_KINDS = ['client-type', 'media-type', 'event-type'] as const;
export type CodeKind = (typeof CODE_KINDS)[number];

export const CODE_KIND_LABELS: Record<CodeKind, string> = {
  'client-type': '업체 유형',
  'media-type': '매체 유형',
  'event-type': '이벤트 유형',
};
/** Which screen guards which code table. */
export const CODE_KIND_SCREENS: Record<CodeKind, string> = {
  'client-type': 'client-type-setting',
  'media-type': 'shop-media-type-setting',
  'event-type': 'event-type-setting',
};

export const codeItem = z.object({
  id: z.number(),
  kind: z.enum(CODE_KINDS),
  name: z.string(),
  code: z.string(),
  sortOrder: z.number(),
  active: z.boolean(),
  usage: z.number(),
  ...rowTimes,
});
export type CodeItem = z.infer<typeof codeItem>;

export const codeItemInput = z.object({
  name: requiredText(50, '이름을 입력하세요.'),
  code: requiredText(40, '코드를 입력하세요.').regex(CODE_RE, '영문, 숫자, -, _ 로 40자 이내로 입력하세요.'),
  sortOrder: z.coerce.number().int('정수로 입력하세요.').min(0).max(9999).default(0),
  active: z.boolean().default(true),
});
export type CodeItemInput = z.infer<typeof codeItemInput>;

export const reorderBody = z.object({ ids: z.array(z.number().int().positive(), '순서를 바꿀 항목을 보내세요.').min(1, '순서를 바꿀 항목을 보내세요.').max(500) });

export const codeOption = z.object({ id: z.number(), name: z.string(), code: z.string() });
export const codeOptionsResponse = z.object({ items: z.array(codeOption) });

/** One code table's endpoints (each table is guarded by its own screen). */
export function codeItemsApi(kind: CodeKind) {
  const base = `/api/codes/${kind}`;
  return {
    list: listEndpoint({ path: base, item: codeItem, sort: ['name', 'code', 'sortOrder', 'active', 'createdAt', 'usage'], filters: { active: queryBool.optional() } }),
    create: endpoint({ method: 'POST', path: base, body: codeItemInput, response: codeItem, status: 201 }),
    update: endpoint({ method: 'PUT', path: `${base}/:id`, params: idParam, body: codeItemInput, response: codeItem }),
    remove: endpoint({ method: 'DELETE', path: `${base}/:id`, params: idParam, response: null }),
    reorder: endpoint({ method: 'POST', path: `${base}/reorder`, body: reorderBody, response: null }),
    /** Active entries for selects on other screens: any logged-in account. */
    options: endpoint({ method: 'GET', path: `${base}/options`, response: codeOptionsResponse }),
  };
}
type CodeItemsApi = ReturnType<typeof codeItemsApi>;
export type CodeItemListQuery = QueryOf<CodeItemsApi['list']>;
