// A staff member abroad reads the same times as the record and the shop: Seoul's, whatever the
// machine's zone. The process here runs in New York, where 01:02 UTC is the evening before.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import { formatDate, formatDateTime, formatDateTimeRange, formatDateTimeSeconds, formatTime } from './format.ts';
import { fromPicker, toPicker } from './seoul-time.ts';
import { FUTURE_ONLY } from '@/components/leads/lead-edits.tsx';

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const AT = '2026-11-21T01:02:03.000Z';

it('runs in another zone than Seoul', () => {
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/New_York');
  expect(new Date(AT).getDate()).toBe(20);
});

it('shows Seoul wall-clock time and day', () => {
  expect(formatDateTime(AT)).toBe('2026-11-21 10:02');
  expect(formatDateTimeSeconds(AT)).toBe('2026-11-21 10:02:03');
  expect(formatTime(AT)).toBe('10:02');
  expect(formatDate('2026-11-20T16:30:00Z')).toBe('2026-11-21');
  expect(formatDate('2026-11-01')).toBe('2026-11-01');
  expect(formatDateTime(null)).toBe('-');
});

it('shows a span within a Seoul day, and across days', () => {
  expect(formatDateTimeRange('2026-11-24T17:00:00Z', '2026-11-24T19:00:00Z')).toBe('2026-11-25 02:00~04:00');
  expect(formatDateTimeRange('2026-11-25T14:00:00Z', '2026-11-25T16:00:00Z')).toBe('2026-11-25 23:00~11-26 01:00');
});

it('gives a picker the Seoul wall-clock time', () => {
  expect(toPicker(AT)!.format('YYYY-MM-DD HH:mm')).toBe('2026-11-21 10:02');
});

it('takes a picked time as Seoul time, and the appointment picker offers no Seoul day or hour already past', () => {
  expect(fromPicker(toPicker(AT))).toBe('2026-11-21T10:02:00+09:00');
  // 10:02 on the 21st in Seoul is 20:02 on the 20th here: the 20th is past, the 21st is today.
  vi.useFakeTimers({ now: new Date(AT) });
  try {
    expect(FUTURE_ONLY.disabledDate(dayjs('2026-11-20T12:00'))).toBe(true);
    expect(FUTURE_ONLY.disabledDate(dayjs('2026-11-21T12:00'))).toBe(false);
    const today = FUTURE_ONLY.disabledTime(dayjs('2026-11-21T12:00'));
    expect(today.disabledHours!()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(today.disabledMinutes!(10)).toEqual([0, 1]);
  } finally {
    vi.useRealTimers();
  }
});
