import { z } from './zod.ts';
import { ACCESS_LEVELS, BUILTIN_ACCOUNT_TYPES, DATA_SCOPES, matrixForSide, normaliseMatrix, type PermissionMatrix } from './permissions.ts';
import { findScreen, SCREENS, SIDES, type Area, type Side } from './screens.ts';
import { idParam, listEndpoint } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { requiredText, rowTimes } from './fields.ts';

/** What a type grants its accounts: the type carries it, and the session hands it to each account of the type. */
export const accountTypeGrants = {
  area: z.enum(['admin', 'shop']),
  /** Agency or client: a client type never reaches the agency's screens and figures, whatever its matrix says. */
  side: z.enum(SIDES),
  dataScope: z.enum(DATA_SCOPES),
  canUnmask: z.boolean(),
  canExport: z.boolean(),
  permissions: z.record(z.string(), z.enum(ACCESS_LEVELS)),
};

export const accountType = z.object({
  id: z.number(),
  name: z.string(),
  ...accountTypeGrants,
  builtinKey: z.string().nullable(),
  sortOrder: z.number(),
  active: z.boolean(),
  usage: z.number(),
  ...rowTimes,
});
export type AccountType = z.infer<typeof accountType>;

export const accountTypeInput = z.object({
  name: requiredText(30, '유형 이름을 입력하세요.'),
  area: z.enum(['admin', 'shop'], '영역을 선택하세요.'),
  /** Left out: the client for a shop-area type. An administrator-area type is always the agency's; a built-in type keeps its side. */
  side: z.enum(SIDES, '구분(대행사·고객사)을 선택하세요.').optional(),
  dataScope: z.enum(DATA_SCOPES, '데이터 범위를 선택하세요.'),
  sortOrder: z.coerce.number().int().min(0).max(9999).default(0),
  active: z.boolean().default(true),
});
export type AccountTypeInput = z.infer<typeof accountTypeInput>;


/** Every account type with its matrix, for the permission-setting screen. */
export const permissionListResponse = z.object({ items: z.array(accountType) });

/** Account types for selects on other screens (account form, filters). */
export const accountTypeOption = z.object({ id: z.number(), name: z.string(), area: z.enum(['admin', 'shop']), side: z.enum(SIDES), active: z.boolean() });
export const accountTypeOptionsResponse = z.object({ items: z.array(accountTypeOption) });

/**
 * A complete matrix a type of `area` may hold: shop-area types never get administrator
 * screens (those span every shop and would bypass shop permissions).
 */
export function matrixForArea(area: Area, matrix: Partial<PermissionMatrix>): PermissionMatrix {
  const full = normaliseMatrix(matrix);
  if (area === 'shop') for (const s of SCREENS) if (s.area === 'admin') full[s.key] = 'none';
  return full;
}

/**
 * A built-in type's stored matrix completed with the screens the catalogue gained since it was
 * stored (an upgrade added them): each gets the type's built-in level, within its area and side,
 * so even 최고관리자 is never locked out of a new screen. A screen the stored matrix names —
 * 'none' included — is an administrator's choice (권한 설정 stores every screen) and stays.
 * Answers the screens added, none when the matrix already names every one.
 */
export function withNewScreens(t: { builtinKey: string; area: Area; side: Side; permissions: Partial<PermissionMatrix> }): { permissions: PermissionMatrix; added: string[] } {
  const builtin = BUILTIN_ACCOUNT_TYPES.find((b) => b.key === t.builtinKey);
  const added = builtin ? SCREENS.filter((s) => !(s.key in t.permissions)).map((s) => s.key) : [];
  if (!builtin || !added.length) return { permissions: normaliseMatrix(t.permissions), added: [] };
  const defaults = matrixForSide(t.side, matrixForArea(t.area, builtin.permissions));
  return { permissions: { ...normaliseMatrix(t.permissions), ...Object.fromEntries(added.map((k) => [k, defaults[k]!])) }, added };
}

/** Why 권한 설정 refuses a client type's row that grants what only the agency may have (the screens beyondSide names). */
export function agencyOnlyRefusal(screens: readonly string[]): string {
  const names = screens.map((k) => {
    const s = findScreen(k);
    return s?.agency === 'write' ? `${s.title} 편집` : (s?.title ?? k);
  });
  return `고객사 유형에는 대행사 전용 권한을 줄 수 없습니다: ${names.join(', ')}.`;
}

/** The permission matrix editor saves one account type's row at a time. */
export const permissionUpdate = z.object({
  permissions: z.record(z.string(), z.enum(ACCESS_LEVELS), '화면별 권한을 지정하세요.'),
  canUnmask: z.boolean('개인정보 표시 권한을 지정하세요.'),
  canExport: z.boolean('다운로드 권한을 지정하세요.'),
});
export type PermissionUpdate = z.infer<typeof permissionUpdate>;

export const accountTypesApi = {
  list: listEndpoint({ path: '/api/account-types', item: accountType, sort: ['name', 'sortOrder', 'createdAt', 'usage'] }),
  get: endpoint({ method: 'GET', path: '/api/account-types/:id', params: idParam, response: accountType }),
  create: endpoint({ method: 'POST', path: '/api/account-types', body: accountTypeInput, response: accountType, status: 201 }),
  update: endpoint({ method: 'PUT', path: '/api/account-types/:id', params: idParam, body: accountTypeInput, response: accountType }),
  remove: endpoint({ method: 'DELETE', path: '/api/account-types/:id', params: idParam, response: null }),
  /** For the type select and filter of the screens that assign types. */
  options: endpoint({ method: 'GET', path: '/api/account-types/options', response: accountTypeOptionsResponse }),
};

export const permissionsApi = {
  list: endpoint({ method: 'GET', path: '/api/permissions', response: permissionListResponse }),
  update: endpoint({ method: 'PUT', path: '/api/permissions/:id', params: idParam, body: permissionUpdate, response: accountType }),
};
export type AccountTypeListQuery = QueryOf<typeof accountTypesApi.list>;
