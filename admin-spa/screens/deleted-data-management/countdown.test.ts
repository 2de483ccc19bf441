import { describe, expect, it } from 'vitest';
import { destroyCountdown } from './countdown.ts';

const DAY = 86_400_000;

describe('destroyCountdown', () => {
  it('counts the Seoul days of the grace period: deleted today with 30 days, D-30 (it showed D-29)', () => {
    const now = Date.parse('2026-11-27T02:00:00.000Z'); // 11:00 in Seoul
    expect(destroyCountdown(new Date(now + 30 * DAY).toISOString(), now)).toBe('D-30');
    expect(destroyCountdown(new Date(now + 1 * DAY).toISOString(), now)).toBe('D-1');
  });

  it('counts calendar days in Seoul, not 24-hour spans', () => {
    const now = Date.parse('2026-11-27T14:30:00.000Z'); // 23:30 in Seoul
    expect(destroyCountdown('2026-11-27T15:10:00.000Z', now)).toBe('D-1'); // 00:10 the next Seoul day
    expect(destroyCountdown('2026-11-27T14:50:00.000Z', now)).toBe('오늘');
  });

  it('says the purge is due once the time has passed', () => {
    const now = Date.parse('2026-11-27T02:00:00.000Z');
    expect(destroyCountdown('2026-11-27T01:59:00.000Z', now)).toBe('파기 대기');
  });
});
