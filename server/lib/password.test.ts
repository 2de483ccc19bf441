import { describe, expect, it } from 'vitest';
import { randomPassword } from './password.ts';
import { passwordProblem } from '../../contracts/rules.ts';

describe('randomPassword', () => {
  const many = Array.from({ length: 2000 }, () => randomPassword());

  it('meets the password rules every time: 16 characters with letters, digits and symbols, no spaces', () => {
    for (const pw of many) {
      expect(passwordProblem(pw), pw).toBeNull();
      expect(pw).toHaveLength(16);
      expect(pw).toMatch(/[A-Za-z]/);
      expect(pw).toMatch(/\d/);
      expect(pw).toMatch(/[^A-Za-z\d]/);
      expect(pw).not.toMatch(/\s/);
    }
  });

  it('is random in every place: no shared suffix or prefix, the symbol and the digit anywhere', () => {
    expect(new Set(many).size).toBe(many.length);
    // 2,000 draws of three characters out of ~70³ ≈ 340,000: a few collisions at most.
    expect(new Set(many.map((pw) => pw.slice(-3))).size).toBeGreaterThan(1900);
    expect(new Set(many.map((pw) => pw.slice(0, 3))).size).toBeGreaterThan(1900);
    const symbolAt = new Set(many.map((pw) => pw.search(/[^A-Za-z\d]/)));
    const digitAt = new Set(many.map((pw) => pw.search(/\d/)));
    expect(symbolAt.size).toBeGreaterThanOrEqual(12);
    expect(digitAt.size).toBeGreaterThanOrEqual(8);
  });
});
