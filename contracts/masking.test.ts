import { describe, expect, it } from 'vitest';
import { maskName, maskPhoneDigits } from './masking.ts';
import { parseSearchTerm } from './global-search.ts';
import { monthDays, previousMonth } from './access-record.ts';

describe('masking', () => {
  it('keeps a name’s first and last letters', () => {
    expect(['홍길동', '남궁민수', '홍길', '김', '', ' 이 서 '].map(maskName)).toEqual(['홍*동', '남**수', '홍*', '*', '', '이*서']);
  });
  it('hides a searched number but its last four', () => {
    expect(maskPhoneDigits('01012345678')).toBe('010-****-5678');
    expect(maskPhoneDigits('021234567')).toBe('02-***-4567');
    expect(maskPhoneDigits('5678')).toBe('****5678');
    expect(maskPhoneDigits('0101234')).toBe('****1234');
  });
});

describe('search terms and review months', () => {
  it('tells a phone from a name', () => {
    expect(parseSearchTerm(' 5678 ')).toEqual({ kind: 'last4', digits: '5678' });
    expect(parseSearchTerm('010-1234')).toEqual({ kind: 'phone', digits: '0101234' });
    expect(parseSearchTerm('+82 10-1234-5678')).toEqual({ kind: 'phone', digits: '01012345678' });
    expect(parseSearchTerm('홍길')).toEqual({ kind: 'name', name: '홍길' });
    expect(parseSearchTerm('567')).toEqual({ error: '전화번호는 4자리 이상 입력하세요.' });
    expect(parseSearchTerm('홍')).toEqual({ error: '이름은 2자 이상 입력하세요.' });
  });
  it('knows last month and a month’s days', () => {
    expect(previousMonth('2026-01-15')).toBe('2025-12');
    expect(previousMonth('2026-11-21')).toBe('2026-10');
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
});
