import { describe, expect, it } from 'vitest';
import { monthLabel, monthsBetween } from './months.ts';

describe('monthsBetween', () => {
  it('lists every month the period touches, across a year end', () => {
    expect(monthsBetween('2026-11-20', '2027-02-03')).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
  });
  it('gives one month for a period inside it, none for a period that ends before it starts', () => {
    expect(monthsBetween('2026-11-01', '2026-11-30')).toEqual(['2026-11']);
    expect(monthsBetween('2026-11-01', '2026-10-31')).toEqual([]);
  });
  it('labels a month in Korean', () => {
    expect(monthLabel('2026-01')).toBe('2026년 1월');
  });
});
