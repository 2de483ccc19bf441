import dayjs from 'dayjs';

export const formatDateTime = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '-');
export const formatDate = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD') : '-');
export const formatNumber = (n: number | null | undefined) => (n == null ? '-' : n.toLocaleString('ko-KR'));
