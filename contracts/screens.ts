// The screen catalogue: the single source of SPA routes, menu entries, titles and
// permission keys. Adding a screen is one entry here plus one folder under
// admin-spa/screens/<key>/.

export type Area = 'admin' | 'shop';

/**
 * Agency and client are two sides of one tool: the agency (its administrators and marketers)
 * and its client shops (their owners and counselors). An account type belongs to one side.
 */
export const SIDES = ['agency', 'client'] as const;
export type Side = (typeof SIDES)[number];

/**
 * What of a screen only the agency's side may do: `all` — open it at all (its figures are the
 * agency's books); `write` — change it (the client reads its own terms, the agency sets them).
 */
type AgencyPart = 'all' | 'write';

export interface Screen {
  /** Permission key and screen folder name; the path is `/${key}`. */
  key: string;
  title: string;
  area: Area;
  /** Menu group (Korean) the entry sits under. */
  group: string;
  /** @ant-design/icons component name. */
  icon: string;
  /** What only the agency's side may do here (docs/PRODUCT.md says why for each); administrator-area screens are the agency's whole. */
  agency?: AgencyPart;
}

export const SCREENS: readonly Screen[] = [
  // Administrator area
  { key: 'dashboard', title: '대시보드', area: 'admin', group: '관리', icon: 'DashboardOutlined' },
  { key: 'client-setting', title: '업체 관리', area: 'admin', group: '관리', icon: 'ShopOutlined' },
  { key: 'account-setting', title: '계정 관리', area: 'admin', group: '관리', icon: 'UserOutlined' },
  { key: 'client-type-setting', title: '업체 유형', area: 'admin', group: '코드 관리', icon: 'AppstoreOutlined' },
  { key: 'account-type-setting', title: '계정 유형', area: 'admin', group: '코드 관리', icon: 'IdcardOutlined' },
  { key: 'shop-media-type-setting', title: '매체 유형', area: 'admin', group: '코드 관리', icon: 'NotificationOutlined' },
  { key: 'event-type-setting', title: '이벤트 유형', area: 'admin', group: '코드 관리', icon: 'GiftOutlined' },
  { key: 'permission-setting', title: '권한 설정', area: 'admin', group: '권한·보안', icon: 'SafetyOutlined' },
  { key: 'shop-permission-setting', title: '업체 접근 권한', area: 'admin', group: '권한·보안', icon: 'KeyOutlined' },
  { key: 'access-deny-setting', title: '접근 차단', area: 'admin', group: '권한·보안', icon: 'StopOutlined' },
  { key: 'admin-cs-stats', title: '전체 상담 통계', area: 'admin', group: '관리', icon: 'BarChartOutlined' },
  { key: 'system-reservation', title: '시스템 예약', area: 'admin', group: '관리', icon: 'ScheduleOutlined' },

  // Shop area
  { key: 'shop-dashboard', title: '업체 대시보드', area: 'shop', group: '현황', icon: 'DashboardOutlined' },
  { key: 'data-allocation', title: 'DB 배분', area: 'shop', group: 'DB 관리', icon: 'ApartmentOutlined' },
  { key: 'data-allocation-modify', title: 'DB 배분 수정', area: 'shop', group: 'DB 관리', icon: 'SwapOutlined' },
  { key: 'database-status', title: 'DB 현황', area: 'shop', group: 'DB 관리', icon: 'DatabaseOutlined' },
  { key: 'database-calendar', title: 'DB 캘린더', area: 'shop', group: 'DB 관리', icon: 'CalendarOutlined' },
  { key: 'cs-stats', title: '상담 통계', area: 'shop', group: '현황', icon: 'PieChartOutlined' },
  { key: 'contract-status', title: '계약 현황', area: 'shop', group: '계약', icon: 'FileDoneOutlined' },
  // The client reads its contracts and asks for returns; prices, quantities and return decisions are the agency's.
  { key: 'contract-management', title: '계약 관리', area: 'shop', group: '계약', icon: 'FileTextOutlined', agency: 'write' },
  { key: 'shop-data-delivery', title: 'DB 전송', area: 'shop', group: '전송', icon: 'SendOutlined' },
  { key: 'shop-data-deliver-history', title: 'DB 전송 이력', area: 'shop', group: '전송', icon: 'HistoryOutlined' },
  // Target and actual CPA, revenue and margin per medium: the agency's books.
  { key: 'cpa-management', title: 'CPA 관리', area: 'shop', group: '광고', icon: 'FundOutlined', agency: 'all' },
  { key: 'landing-status', title: '랜딩 관리', area: 'shop', group: '랜딩', icon: 'LayoutOutlined' },
  // Ad spend per day and medium, with CPL and CPA: what the agency pays the media.
  { key: 'advertising-status', title: '광고 현황', area: 'shop', group: '광고', icon: 'RiseOutlined', agency: 'all' },
  { key: 'data-insertion', title: 'DB 등록', area: 'shop', group: 'DB 관리', icon: 'ImportOutlined' },
  { key: 'data-deletion', title: 'DB 삭제', area: 'shop', group: 'DB 관리', icon: 'DeleteOutlined' },
  { key: 'base-information', title: '기본 정보', area: 'shop', group: '설정', icon: 'InfoCircleOutlined' },
  // The agency's ad-account pixels and conversion tags (what its bidding and CPA are measured by), and scripts run on public pages.
  { key: 'landing-script-management', title: '랜딩 스크립트', area: 'shop', group: '랜딩', icon: 'CodeOutlined', agency: 'all' },
  { key: 'database-delivery-settings', title: 'DB 전송 설정', area: 'shop', group: '전송', icon: 'SettingOutlined' },
  { key: 'privacy-management', title: '개인정보 처리방침', area: 'shop', group: '설정', icon: 'LockOutlined' },
  { key: 'deleted-data-management', title: '삭제 DB 관리', area: 'shop', group: 'DB 관리', icon: 'RestOutlined' },
  { key: 'global-db-search', title: '통합 DB 검색', area: 'shop', group: 'DB 관리', icon: 'SearchOutlined' },
  { key: 'database-history', title: '개인정보 접근 기록', area: 'shop', group: '설정', icon: 'AuditOutlined' },
];

export const SCREEN_KEYS: readonly string[] = SCREENS.map((s) => s.key);

const byKey = new Map(SCREENS.map((s) => [s.key, s]));

export function findScreen(key: string): Screen | undefined {
  return byKey.get(key);
}

/** What of the screen only the agency's side may do; null: both sides alike. An unknown key is the agency's (nothing is granted by omission). */
export function agencyPart(key: string): AgencyPart | null {
  const s = byKey.get(key);
  if (!s || s.area === 'admin') return 'all';
  return s.agency ?? null;
}


