// The statistics of landing experiments (A/B variants), pure and isomorphic: the server's results
// endpoint and its tests use them, the screen only shows what they computed.
// - Conversion rate per variant with a Wilson score interval (95 %): unlike the normal
//   approximation it stays inside [0, 1] and is honest for small counts and rates near 0.
// - Probability to be best: Bayesian, each variant's rate with a uniform Beta(1, 1) prior, so its
//   posterior is Beta(1 + leads, 1 + visits − leads). A posterior probability does not inflate
//   when someone looks every day (there is no repeated significance test to fool). Two variants:
//   exact (Evan Miller's closed form); more: Monte Carlo with a seeded generator (repeatable).
// - "Not enough data" until every variant has MIN_VISITS visits and MIN_LEADS leads in all.
// - Sample-ratio mismatch: chi-square goodness of fit of the visits against the weights; below
//   SRM_P_VALUE the assignment looks broken (a redirect, a cache, a bot filter on one side).

/** 1.96: the two-sided 95 % normal quantile. */
export const Z_95 = 1.959963984540054;
/** Every variant needs this many visits … */
export const MIN_VISITS = 100;
/** … and the experiment this many leads in all, before results are read. */
export const MIN_LEADS = 20;
/** A variant whose probability to be best reaches this, with enough data, is a clear winner. */
export const WINNER_PROBABILITY = 0.95;
/** Sample-ratio mismatch is reported below this p-value. */
export const SRM_P_VALUE = 0.001;
/** Monte Carlo draws for three variants or more. */
export const BEST_DRAWS = 100_000;

export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score interval of `successes` out of `trials` (null without trials). */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

// ln Γ(x) by Lanczos (g = 7, n = 9): about 15 significant digits for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const y = x - 1;
  let a = LANCZOS[0]!;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b);

/** The regularized upper incomplete gamma Q(a, x) (series below a + 1, continued fraction above). */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  const lead = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lead));
  }
  // Lentz's method for the continued fraction.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(lead) * h;
}

/** P(χ²(df) ≥ statistic). */
export const chiSquarePValue = (statistic: number, df: number) => gammaQ(df / 2, statistic / 2);

export interface ChiSquare {
  statistic: number;
  df: number;
  pValue: number;
}

/** Chi-square goodness of fit of observed counts against expected proportions (any positive scale). */
export function chiSquareGoodnessOfFit(observed: number[], weights: number[]): ChiSquare {
  const total = observed.reduce((s, o) => s + o, 0);
  const weightSum = weights.reduce((s, w) => s + w, 0);
  let statistic = 0;
  observed.forEach((o, i) => {
    const expected = (total * weights[i]!) / weightSum;
    if (expected > 0) statistic += ((o - expected) * (o - expected)) / expected;
  });
  const df = observed.length - 1;
  return { statistic, df, pValue: df > 0 && total > 0 ? chiSquarePValue(statistic, df) : 1 };
}

/** P(X > Y) for X ~ Beta(a1, b1), Y ~ Beta(a2, b2), exact for an integer a1 (Evan Miller's closed form). */
export function probabilityBetaGreater(a1: number, b1: number, a2: number, b2: number): number {
  let total = 0;
  const base = logBeta(a2, b2);
  for (let i = 0; i < a1; i++) total += Math.exp(logBeta(a2 + i, b1 + b2) - Math.log(b1 + i) - logBeta(1 + i, b1) - base);
  return Math.min(1, Math.max(0, total));
}

/** A small, fast seeded generator (mulberry32): the same seed gives the same figures. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(rand: () => number): number {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** A Gamma(shape, 1) draw (Marsaglia–Tsang; shape ≥ 1 here, as Beta(1 + k, …) parameters are). */
function gammaDraw(shape: number, rand: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(rand);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rand();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

export interface Arm {
  visits: number;
  leads: number;
}

/**
 * Each variant's probability of having the highest conversion rate, under a Beta(1, 1) prior on
 * each rate. Exact for two variants; Monte Carlo (seeded, `draws`) for more.
 */
export function probabilityToBeBest(arms: Arm[], o: { draws?: number; seed?: number } = {}): number[] {
  const post = arms.map((a) => ({ a: 1 + Math.min(a.leads, a.visits), b: 1 + Math.max(0, a.visits - a.leads) }));
  if (post.length === 0) return [];
  if (post.length === 1) return [1];
  if (post.length === 2) {
    const pBOverA = probabilityBetaGreater(post[1]!.a, post[1]!.b, post[0]!.a, post[0]!.b);
    return [1 - pBOverA, pBOverA];
  }
  const rand = seededRandom(o.seed ?? 26);
  const draws = o.draws ?? BEST_DRAWS;
  const wins = new Array<number>(post.length).fill(0);
  for (let n = 0; n < draws; n++) {
    let best = -1;
    let at = 0;
    post.forEach((p, i) => {
      const x = gammaDraw(p.a, rand);
      const v = x / (x + gammaDraw(p.b, rand));
      if (v > best) {
        best = v;
        at = i;
      }
    });
    wins[at]!++;
  }
  return wins.map((w) => w / draws);
}

export interface VariantFigures extends Arm {
  key: string;
  weight: number;
  /** Leads that count for the money rule (not duplicates, 무효 or returned). */
  validLeads: number;
  /** Spend attributed to the variant (won), when known. */
  spend?: number | null;
}

export interface VariantResult extends VariantFigures {
  conversionRate: number | null;
  interval: Interval | null;
  validRate: number | null;
  probabilityToBeBest: number | null;
  /** Spend per valid lead, when spend is known and there are valid leads. */
  cpa: number | null;
}

export interface ExperimentVerdict {
  variants: VariantResult[];
  enoughData: boolean;
  /** The variant whose probability to be best reached WINNER_PROBABILITY with enough data. */
  winner: string | null;
  srm: ChiSquare & { warning: boolean };
  /** What the numbers mean, in Korean, for the marketer. */
  summary: string[];
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
/** A probability as shown: never "100.0%" or "0.0%", which would read as certainty. */
export const probabilityText = (p: number) => (p > 0.999 ? '99.9% 이상' : p < 0.001 ? '0.1% 미만' : pct(p));

/** The results of an experiment from its variants' counts. */
export function experimentVerdict(figures: VariantFigures[]): ExperimentVerdict {
  const best = probabilityToBeBest(figures);
  const enoughData = figures.length > 1 && figures.every((f) => f.visits >= MIN_VISITS) && figures.reduce((s, f) => s + f.leads, 0) >= MIN_LEADS;
  const variants: VariantResult[] = figures.map((f, i) => ({
    ...f,
    conversionRate: f.visits > 0 ? f.leads / f.visits : null,
    interval: wilsonInterval(Math.min(f.leads, f.visits), f.visits),
    validRate: f.leads > 0 ? f.validLeads / f.leads : null,
    probabilityToBeBest: figures.length > 1 ? (best[i] ?? null) : null,
    cpa: f.spend != null && f.validLeads > 0 ? Math.round(f.spend / f.validLeads) : null,
  }));
  const chi = chiSquareGoodnessOfFit(
    figures.map((f) => f.visits),
    figures.map((f) => f.weight),
  );
  // Too few visits make the test meaningless either way.
  const srm = { ...chi, warning: figures.reduce((s, f) => s + f.visits, 0) >= MIN_VISITS && chi.pValue < SRM_P_VALUE };
  const top = variants.reduce<VariantResult | null>((a, v) => (a === null || (v.probabilityToBeBest ?? 0) > (a.probabilityToBeBest ?? 0) ? v : a), null);
  const winner = enoughData && top && (top.probabilityToBeBest ?? 0) >= WINNER_PROBABILITY ? top.key : null;

  const summary: string[] = [];
  if (!enoughData) {
    summary.push(
      `아직 데이터가 부족합니다. 변형마다 방문 ${MIN_VISITS}회 이상, 실험 전체 접수 ${MIN_LEADS}건 이상이 모여야 결과를 판단할 수 있습니다. 지금의 차이는 우연일 수 있습니다.`,
    );
  } else if (winner && top) {
    summary.push(`${top.key}안이 가장 좋을 확률이 ${probabilityText(top.probabilityToBeBest!)}입니다. ${top.key}안을 채택해도 좋습니다.`);
  } else if (top) {
    summary.push(
      `${top.key}안이 앞서 있지만 가장 좋을 확률이 ${probabilityText(top.probabilityToBeBest ?? 0)}로 ${pct(WINNER_PROBABILITY)}에 미치지 못합니다. 차이가 작거나 데이터가 더 필요합니다.`,
    );
  }
  summary.push(
    '전환율은 방문 대비 접수 비율이며, 괄호 안의 범위는 95% 신뢰구간(Wilson)입니다. 두 변형의 구간이 많이 겹치면 차이가 확실하지 않다는 뜻입니다.',
    '"가장 좋을 확률"은 사전분포 Beta(1,1)(모든 전환율을 똑같이 가능하다고 보는 가정)에서 지금까지의 방문과 접수로 계산한 베이즈 확률입니다. 매일 확인해도 판단이 왜곡되지 않습니다.',
    '유효율은 중복·무효·반품을 뺀 유효 접수의 비율입니다.',
  );
  if (srm.warning) {
    summary.push(
      `배분 이상 경고: 방문이 설정한 비중과 크게 다릅니다(카이제곱 p=${chi.pValue.toExponential(1)}). 리디렉션, 캐시, 광고 설정이 한쪽 변형에만 영향을 주고 있지 않은지 확인하세요. 이 상태의 결과는 믿기 어렵습니다.`,
    );
  }
  return { variants, enoughData, winner, srm, summary };
}
