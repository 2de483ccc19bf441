import dayjs from 'dayjs';

export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '-');
export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '-');
export const formatNumber = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('ko-KR'));

/** A ring slice's label: its share, rounded (no room for "38.08%"), and none on a sliver too thin to hold it. */
export const sliceShare = (p: { percent?: number }) => ((p.percent ?? 0) >= 5 ? `${Math.round(p.percent ?? 0)}%` : '');
