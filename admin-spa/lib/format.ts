import dayjs from 'dayjs';

export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '-');
export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '-');
export const formatNumber = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('ko-KR'));

/** A pie slice's label: its share, rounded (a ring has no room for "38.08%"). */
export const sliceShare = (p: { percent?: number }) => `${Math.round(p.percent ?? 0)}%`;
