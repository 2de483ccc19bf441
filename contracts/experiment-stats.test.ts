import { describe, expect, it } from 'vitest';
import {
  MIN_LEADS, MIN_VISITS, chiSquareGoodnessOfFit, chiSquarePValue, experimentVerdict, logGamma, probabilityBetaGreater, probabilityToBeBest, wilsonInterval,
} from './experiment-stats.ts';

describe('Wilson score interval (95 %)', () => {
  it('matches the textbook values', () => {
    // 20 successes in 100 trials: [0.1334, 0.2888] (Newcombe 1998, Agresti & Coull 1998).
    const i = wilsonInterval(20, 100)!;
    expect(i.low).toBeCloseTo(0.1334, 4);
    expect(i.high).toBeCloseTo(0.2888, 4);
    // 0 of 10 stays inside [0, 1]: [0, 0.2775].
    const zero = wilsonInterval(0, 10)!;
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 4);
    // 81 of 263 (Wilson's worked example in Newcombe): [0.2553, 0.3662].
    const w = wilsonInterval(81, 263)!;
    expect(w.low).toBeCloseTo(0.2553, 4);
    expect(w.high).toBeCloseTo(0.3662, 4);
  });

  it('has no interval without trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('chi-square', () => {
  it('gives the tables’ critical values their p-values', () => {
    expect(chiSquarePValue(3.841459, 1)).toBeCloseTo(0.05, 6);
    expect(chiSquarePValue(10.827566, 1)).toBeCloseTo(0.001, 7);
    expect(chiSquarePValue(5.991465, 2)).toBeCloseTo(0.05, 6);
    expect(chiSquarePValue(16.918978, 9)).toBeCloseTo(0.05, 6);
    expect(chiSquarePValue(0, 3)).toBe(1);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
  });

  it('reproduces Mendel’s peas against 9:3:3:1 (χ² = 0.470, df 3, p = 0.925)', () => {
    const r = chiSquareGoodnessOfFit([315, 108, 101, 32], [9, 3, 3, 1]);
    expect(r.statistic).toBeCloseTo(0.47, 2);
    expect(r.df).toBe(3);
    expect(r.pValue).toBeCloseTo(0.925, 3);
  });
});

describe('probability to be best (Beta(1, 1) prior)', () => {
  it('matches closed forms of Beta comparisons', () => {
    // X ~ Beta(a, 1), Y ~ Beta(1, 1): P(X > Y) = E[X] = a / (a + 1).
    expect(probabilityBetaGreater(2, 1, 1, 1)).toBeCloseTo(2 / 3, 12);
    expect(probabilityBetaGreater(5, 1, 1, 1)).toBeCloseTo(5 / 6, 12);
    // X ~ Beta(1, 2), Y ~ Beta(2, 1): ∫ 2(1 − x) x² dx = 1/6.
    expect(probabilityBetaGreater(1, 2, 2, 1)).toBeCloseTo(1 / 6, 12);
    // Equal posteriors: one half.
    expect(probabilityBetaGreater(31, 71, 31, 71)).toBeCloseTo(0.5, 10);
  });

  it('is exact for two variants and agrees with the seeded Monte Carlo for more', () => {
    const arms = [{ visits: 1000, leads: 100 }, { visits: 1000, leads: 130 }];
    const [a, b] = probabilityToBeBest(arms);
    expect(a! + b!).toBeCloseTo(1, 12);
    // A third arm that can never win (0 of 5000) leaves the two-arm answer; Monte Carlo within its error.
    const three = probabilityToBeBest([...arms, { visits: 5000, leads: 0 }], { draws: 40_000, seed: 7 });
    expect(three[1]).toBeCloseTo(b!, 2);
    expect(three[2]).toBe(0);
    // Same seed, same figures.
    expect(probabilityToBeBest([...arms, { visits: 5000, leads: 0 }], { draws: 40_000, seed: 7 })).toEqual(three);
    // B's rate is higher by 3 points on 1000 visits each: about 98 % (normal approximation: Φ(2.11) ≈ 0.983).
    expect(b).toBeGreaterThan(0.97);
    expect(b).toBeLessThan(0.99);
    // Three identical arms: a third each.
    for (const p of probabilityToBeBest([{ visits: 200, leads: 20 }, { visits: 200, leads: 20 }, { visits: 200, leads: 20 }], { draws: 30_000 })) {
      expect(p).toBeGreaterThan(0.31);
      expect(p).toBeLessThan(0.36);
    }
  });
});

describe('experiment verdict', () => {
  const v = (key: string, visits: number, leads: number, weight = 50) => ({ key, weight, visits, leads, validLeads: leads });

  it('says there is not enough data below the stated minimum', () => {
    const r = experimentVerdict([v('A', MIN_VISITS - 1, 30), v('B', 500, 60)]);
    expect(r.enoughData).toBe(false);
    expect(r.winner).toBeNull();
    expect(r.summary[0]).toContain('아직 데이터가 부족합니다');
    expect(experimentVerdict([v('A', 500, 5), v('B', 500, MIN_LEADS - 6)]).enoughData).toBe(false);
  });

  it('names a clear winner and computes rates, intervals, valid rate and CPA', () => {
    const r = experimentVerdict([
      { ...v('A', 2000, 100), validLeads: 80, spend: 800_000 },
      { ...v('B', 2000, 160), validLeads: 150, spend: 800_000 },
    ]);
    expect(r.enoughData).toBe(true);
    expect(r.winner).toBe('B');
    expect(r.variants[0]!.conversionRate).toBeCloseTo(0.05, 10);
    expect(r.variants[0]!.validRate).toBeCloseTo(0.8, 10);
    expect(r.variants[0]!.cpa).toBe(10_000);
    expect(r.variants[1]!.interval!.low).toBeLessThan(0.08);
    expect(r.variants[1]!.interval!.high).toBeGreaterThan(0.08);
    expect(r.summary[0]).toContain('B안을 채택해도 좋습니다');
    expect(r.srm.warning).toBe(false);
  });

  it('warns of a sample-ratio mismatch at p < 0.001, not at chance deviations', () => {
    // 50/50 weights, 5000 vs 5300 visits: χ² = 8.74, p = 0.0031 — chance is plausible.
    expect(experimentVerdict([v('A', 5000, 50), v('B', 5300, 50)]).srm.warning).toBe(false);
    // 5000 vs 5500: χ² = 23.8, p ≈ 1e-6 — assignment is broken.
    const broken = experimentVerdict([v('A', 5000, 50), v('B', 5500, 50)]);
    expect(broken.srm.warning).toBe(true);
    expect(broken.summary.at(-1)).toContain('배분 이상 경고');
    // Against 90/10 weights, 9000 vs 1000 is as planned.
    expect(experimentVerdict([v('A', 9000, 50, 90), v('B', 1000, 50, 10)]).srm.warning).toBe(false);
  });
});
