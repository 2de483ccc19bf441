import { agencyPart, SCREENS, type Area, type Side } from './screens.ts';

export const ACCESS_LEVELS = ['none', 'read', 'write'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];
export type Action = 'read' | 'write';
export type PermissionMatrix = Record<string, AccessLevel>;

export const ACCESS_LEVEL_LABELS: Record<AccessLevel, string> = { none: '없음', read: '조회', write: '편집' };

export const DATA_SCOPES = ['all', 'assigned'] as const;
type DataScope = (typeof DATA_SCOPES)[number];
export const DATA_SCOPE_LABELS: Record<DataScope, string> = { all: '전체 DB', assigned: '배정된 DB만' };
export const AREA_LABELS: Record<Area, string> = { admin: '관리자 영역', shop: '업체 영역' };
export const SIDE_LABELS: Record<Side, string> = { agency: '대행사', client: '고객사' };

export function allows(matrix: PermissionMatrix, screen: string, action: Action): boolean {
  const level = matrix[screen] ?? 'none';
  return action === 'read' ? level === 'read' || level === 'write' : level === 'write';
}

// ── Sides ───────────────────────────────────────────────────────────────────────────────
// The agency's books (ad spend, CPA targets, CPA, margin) and other shops' anything never reach a
// client account, whatever its type's matrix says: the access check refuses, the session's
// matrix leaves them out, 권한 설정 cannot grant them, and mixed responses drop their figures.

const RANK: Record<AccessLevel, number> = { none: 0, read: 1, write: 2 };

/** The highest level an account of `side` may use on a screen, whatever its matrix says. */
function sideCeiling(side: Side, screen: string): AccessLevel {
  if (side === 'agency') return 'write';
  const part = agencyPart(screen);
  return part === 'all' ? 'none' : part === 'write' ? 'read' : 'write';
}

export function sideAllows(side: Side, screen: string, action: Action): boolean {
  return allows({ [screen]: sideCeiling(side, screen) }, screen, action);
}

/** The matrix as an account of `side` may use it: every level above the side's ceiling comes down to it. */
export function matrixForSide(side: Side, matrix: Partial<PermissionMatrix>): PermissionMatrix {
  const full = normaliseMatrix(matrix);
  for (const key of Object.keys(full)) {
    const ceiling = sideCeiling(side, key);
    if (RANK[full[key]!] > RANK[ceiling]) full[key] = ceiling;
  }
  return full;
}

/** The screens a matrix grants beyond what `side` may hold (권한 설정 refuses to save them). */
export function beyondSide(side: Side, matrix: Partial<PermissionMatrix>): string[] {
  return SCREENS.filter((s) => RANK[matrix[s.key] ?? 'none'] > RANK[sideCeiling(side, s.key)]).map((s) => s.key);
}

/**
 * A mixed screen's response as an account of `side` receives it: `fields` (the agency's figures,
 * declared next to the response's schema) are null for the client.
 */
export function forSide<T extends object, K extends keyof T>(side: Side, value: T, fields: readonly K[]): T {
  if (side === 'agency') return value;
  return { ...value, ...Object.fromEntries(fields.map((f) => [f, null])) };
}

/** A full matrix with every screen set to one level; missing screens read as `none`. */
export function uniformMatrix(level: AccessLevel, keys: readonly string[] = SCREENS.map((s) => s.key)): PermissionMatrix {
  return Object.fromEntries(keys.map((k) => [k, level]));
}

/** Fills in every catalogue screen, so a stored matrix is always complete. */
export function normaliseMatrix(matrix: Partial<PermissionMatrix>): PermissionMatrix {
  return Object.fromEntries(SCREENS.map((s) => [s.key, matrix[s.key] ?? 'none']));
}

type BuiltinTypeKey = 'superadmin' | 'admin' | 'marketer' | 'shop-owner' | 'counselor';

interface BuiltinAccountType {
  key: BuiltinTypeKey;
  name: string;
  area: Area;
  side: Side;
  dataScope: DataScope;
  canUnmask: boolean;
  canExport: boolean;
  permissions: PermissionMatrix;
}

const shopKeys = SCREENS.filter((s) => s.area === 'shop').map((s) => s.key);
const adminKeys = SCREENS.filter((s) => s.area === 'admin').map((s) => s.key);

function matrix(levels: Partial<PermissionMatrix>): PermissionMatrix {
  return normaliseMatrix(levels);
}

export const BUILTIN_ACCOUNT_TYPES: readonly BuiltinAccountType[] = [
  {
    key: 'superadmin', name: '최고관리자', area: 'admin', side: 'agency', dataScope: 'all', canUnmask: true, canExport: true,
    permissions: uniformMatrix('write'),
  },
  {
    key: 'admin', name: '관리자', area: 'admin', side: 'agency', dataScope: 'all', canUnmask: true, canExport: true,
    permissions: matrix({
      ...uniformMatrix('write'),
      'permission-setting': 'read',
      'account-type-setting': 'read',
    }),
  },
  {
    // Agency staff working inside shops: a shop-area type on the agency's side.
    key: 'marketer', name: '마케터', area: 'shop', side: 'agency', dataScope: 'all', canUnmask: false, canExport: false,
    permissions: matrix({
      ...uniformMatrix('write', shopKeys),
      ...uniformMatrix('none', adminKeys),
      'data-deletion': 'none',
      'deleted-data-management': 'none',
      'database-history': 'read',
    }),
  },
  {
    key: 'shop-owner', name: '업체관리자', area: 'shop', side: 'client', dataScope: 'all', canUnmask: true, canExport: true,
    permissions: matrix({
      ...uniformMatrix('read', shopKeys),
      'database-status': 'write',
      'data-allocation': 'write',
      'data-allocation-modify': 'write',
      'base-information': 'write',
      'privacy-management': 'write',
      // The agency's books and ad tooling are not the client's (contracts/screens.ts marks them).
      'cpa-management': 'none',
      'advertising-status': 'none',
      'landing-script-management': 'none',
      // A shop owner connects its own systems: channels and keys, manual sends, retries.
      'database-delivery-settings': 'write',
      'shop-data-delivery': 'write',
      'shop-data-deliver-history': 'write',
    }),
  },
  {
    key: 'counselor', name: '상담원', area: 'shop', side: 'client', dataScope: 'assigned', canUnmask: true, canExport: false,
    permissions: matrix({
      'shop-dashboard': 'read',
      'database-status': 'write',
      'database-calendar': 'read',
      'cs-stats': 'read',
      // Their own leads only (the search narrows by data scope); never the shop's access record.
      'global-db-search': 'read',
    }),
  },
];

/** Where an account lands after logging in. */
export function homePath(area: Area, matrix: PermissionMatrix): string {
  const first = area === 'admin' ? 'dashboard' : 'shop-dashboard';
  if (allows(matrix, first, 'read')) return `/${first}`;
  const any = SCREENS.find((s) => allows(matrix, s.key, 'read'));
  return any ? `/${any.key}` : '/403';
}
