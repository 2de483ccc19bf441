// How 광고 현황 writes its figures: counts with thousands separators, won, percent, and "-"
// where a ratio has nothing to divide by (never 0 or ∞).
import { formatNumber } from '@/lib/format.ts';

export const formatCount = (n: number | null | undefined) => formatNumber(n);
export const formatWon = (n: number | null | undefined) => (n == null ? '-' : `${formatNumber(n)}원`);
export const formatPercent = (n: number | null | undefined) => (n == null ? '-' : `${n.toLocaleString('ko-KR', { maximumFractionDigits: 2 })}%`);
/** 2026-11-05 → 11/05 (chart axes). */
export const shortDay = (day: string) => day.slice(5).replace('-', '/');

const WEEKDAYS = ['일', '월', '화', '수', '목', '금', '토'];
/** 2026-11-05 → 11/05 (목). */
export const dayWithWeekday = (day: string) => `${shortDay(day)} (${WEEKDAYS[new Date(`${day}T00:00:00Z`).getUTCDay()]})`;
