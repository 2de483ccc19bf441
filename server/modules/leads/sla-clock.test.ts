// The SLA clock on a shop's calendar: time runs only within working hours on work days that are
// not holidays, in Seoul time, whatever the server's zone.
import { describe, expect, it } from 'vitest';
import { addWorkingMinutes, calendarSpan, workingMinutesBetween, type WorkCalendar } from './sla-clock.ts';

/** A Seoul wall-clock time ('2026-12-04 17:50') as an instant. */
const kst = (s: string) => new Date(`${s.replace(' ', 'T')}:00+09:00`);
const seoul = (d: Date) => new Date(d.getTime() + 9 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

// Weekdays 09:00–18:00. 2026-12-04 is a Friday, 12-07 a Monday, 12-25 (Christmas) a Friday.
const office: WorkCalendar = { days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00', holidays: [] };
const due = (cal: WorkCalendar, from: string, minutes: number) => seoul(addWorkingMinutes(cal, kst(from), minutes));

describe('the SLA clock', () => {
  it('runs straight through working hours, to the end of the day exactly', () => {
    expect(due(office, '2026-12-07 10:00', 30)).toBe('2026-12-07 10:30');
    expect(due(office, '2026-12-07 17:30', 30)).toBe('2026-12-07 18:00');
    expect(due(office, '2026-12-07 09:00', 9 * 60)).toBe('2026-12-07 18:00');
  });

  it('pauses over the evening and the weekend', () => {
    expect(due(office, '2026-12-07 17:50', 30)).toBe('2026-12-08 09:20');
    expect(due(office, '2026-12-04 17:50', 30)).toBe('2026-12-07 09:20');
    expect(due(office, '2026-12-04 17:00', 9 * 60 + 60)).toBe('2026-12-07 18:00');
    expect(due(office, '2026-12-04 17:00', 9 * 60 + 61)).toBe('2026-12-08 09:01');
  });

  it('starts a lead that arrives outside hours at the next working minute', () => {
    expect(due(office, '2026-12-07 07:00', 0)).toBe('2026-12-07 09:00');
    expect(due(office, '2026-12-07 20:00', 30)).toBe('2026-12-08 09:30');
    expect(due(office, '2026-12-05 14:00', 30)).toBe('2026-12-07 09:30');
    // Just after midnight Seoul is still the previous day in UTC: the Seoul day counts.
    expect(due(office, '2026-12-08 00:30', 15)).toBe('2026-12-08 09:15');
  });

  it('skips holidays, several in a row with a weekend between', () => {
    const xmas: WorkCalendar = { ...office, holidays: ['2026-12-25', '2026-12-28'] };
    expect(due(xmas, '2026-12-24 17:45', 30)).toBe('2026-12-29 09:15');
    expect(due(xmas, '2026-12-25 10:00', 30)).toBe('2026-12-29 09:30');
  });

  it('follows a calendar of weekends and late hours, up to midnight', () => {
    const weekend: WorkCalendar = { days: [6, 7], start: '10:00', end: '24:00', holidays: [] };
    expect(due(weekend, '2026-12-05 23:50', 30)).toBe('2026-12-06 10:20');
    expect(due(weekend, '2026-12-06 23:50', 30)).toBe('2026-12-12 10:20');
    expect(due(weekend, '2026-12-07 12:00', 10)).toBe('2026-12-12 10:10');
  });

  it('restarts for the next counselor from the moment of the re-route', () => {
    const arrival = kst('2026-12-04 17:40');
    const deadline = addWorkingMinutes(office, arrival, 30);
    expect(seoul(deadline)).toBe('2026-12-07 09:10');
    const rerouted = new Date(deadline.getTime() + 2 * 60_000);
    expect(seoul(addWorkingMinutes(office, rerouted, 30))).toBe('2026-12-07 09:42');
    expect(workingMinutesBetween(office, arrival, rerouted)).toBe(32);
  });

  it('counts the working minutes between two instants', () => {
    expect(workingMinutesBetween(office, kst('2026-12-04 17:50'), kst('2026-12-07 09:20'))).toBe(30);
    expect(workingMinutesBetween(office, kst('2026-12-05 08:00'), kst('2026-12-06 23:00'))).toBe(0);
    expect(workingMinutesBetween(office, kst('2026-12-07 10:00'), kst('2026-12-07 09:00'))).toBe(0);
    expect(workingMinutesBetween({ ...office, holidays: ['2026-12-08'] }, kst('2026-12-07 17:00'), kst('2026-12-09 10:00'))).toBe(120);
    expect(workingMinutesBetween(office, kst('2026-12-07 09:00'), new Date(kst('2026-12-07 09:00').getTime() + 90_000))).toBe(1.5);
  });

  it('answers the inverse of adding working minutes, from any instant', () => {
    const cal: WorkCalendar = { days: [1, 2, 3, 5, 6], start: '08:30', end: '19:15', holidays: ['2026-12-10', '2026-12-11'] };
    let seed = 7;
    const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 300; i++) {
      const from = new Date(kst('2026-12-01 00:00').getTime() + Math.floor(rand() * 20 * 86_400_000));
      const minutes = Math.floor(rand() * 2000);
      const at = addWorkingMinutes(cal, from, minutes);
      expect(at >= from).toBe(true);
      expect(workingMinutesBetween(cal, from, at)).toBeCloseTo(minutes, 6);
    }
  });
});

describe('a span of the calendar laid out once (the SLA figures)', () => {
  it('answers the working minutes between two instants as the day-by-day clock does, and nothing outside the span', () => {
    const calendars: WorkCalendar[] = [
      { days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00', holidays: ['2026-12-08', '2026-12-25'] },
      { days: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00', holidays: [] },
      { days: [6], start: '10:30', end: '13:15', holidays: ['2026-12-12'] },
    ];
    const from = new Date('2026-11-30T15:00:00.000Z'); // 12-01 00:00 Seoul
    const to = new Date('2026-12-31T14:59:59.000Z');
    // A fixed sequence of instants (no randomness between runs): every 97 minutes across the month, paired with one 3 days 7 hours later.
    for (const cal of calendars) {
      const span = calendarSpan(cal, from, to);
      for (let t = from.getTime(); t < to.getTime() - 4 * 86_400_000; t += 97 * 60_000) {
        const a = new Date(t);
        const b = new Date(t + (t % 7 === 0 ? 0 : 3 * 86_400_000 + 7 * 3_600_000 + (t % 61) * 1000));
        expect(span.between(a, b), `${cal.start}–${cal.end} ${a.toISOString()} → ${b.toISOString()}`).toBe(workingMinutesBetween(cal, a, b));
      }
      expect(span.between(new Date('2026-11-30T14:59:00.000Z'), to)).toBeNull();
      expect(span.between(from, new Date('2026-12-31T15:00:00.000Z'))).toBeNull();
    }
  });
});
