// The pickers show and take Seoul wall-clock time whatever the browser's zone: a picked
// "2026-11-25 02:00" means 02:00 in Seoul, sent with its +09:00 offset.
import dayjs, { type Dayjs } from 'dayjs';
import { formatSeoulSeconds, seoulDay } from '@contracts/kst.ts';

/** A picked value → the instant it names in Seoul (ISO with +09:00). */
export const fromPicker = (d: Dayjs | null | undefined): string | null => (d ? `${d.format('YYYY-MM-DDTHH:mm')}:00+09:00` : null);

/** An instant (ISO, or epoch ms) → a picker value showing its Seoul wall-clock time. */
export const toPicker = (at: string | number | null | undefined): Dayjs | null => (at ? dayjs(formatSeoulSeconds(at).replace(' ', 'T')) : null);

/** Days before today in Seoul cannot be picked. */
export const beforeToday = (d: Dayjs) => d.format('YYYY-MM-DD') < seoulDay(new Date());
