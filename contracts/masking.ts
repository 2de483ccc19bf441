// How personal data is shown where it must not be read in full: names in the access record and
// search terms recorded in it (phones have maskPhone in rules.ts).
import { maskPhone } from './rules.ts';

/** 홍길동 → 홍*동, 남궁민수 → 남**수, 홍길 → 홍*, 김 → *: the first and last letters stay. */
export function maskName(name: string): string {
  const letters = [...name.trim()];
  if (letters.length <= 1) return letters.length ? '*' : '';
  if (letters.length === 2) return `${letters[0]}*`;
  return `${letters[0]}${'*'.repeat(letters.length - 2)}${letters[letters.length - 1]}`;
}

/**
 * The digits of a phone search as the record keeps them: a whole number as 010-****-5678,
 * a part of one as ****5678 (the last four, its length hidden).
 */
export function maskPhoneDigits(digits: string): string {
  return digits.length >= 9 ? maskPhone(digits) : `****${digits.slice(-4)}`;
}
