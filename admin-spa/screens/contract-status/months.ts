// The months a contract's settlement can be asked for: those its period touches.

/** The months (YYYY-MM) from one day's month to another's, both included, oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.slice(0, 7).split('-').map(Number) as [number, number];
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > last) return out;
    out.push(month);
    if (++m > 12) [y, m] = [y + 1, 1];
  }
}

/** "2026년 11월" */
export const monthLabel = (month: string) => `${month.slice(0, 4)}년 ${Number(month.slice(5))}월`;
