// A staff member abroad reads the same times as the record and the shop: Seoul's, whatever the
// machine's zone. The process here runs in New York, where 01:02 UTC is the evening before.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeRange, formatDateTimeSeconds, formatTime } from './format.ts';
import { toPicker } from './seoul-time.ts';

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
