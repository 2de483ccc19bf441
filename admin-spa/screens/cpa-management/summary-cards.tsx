// The month at a glance: spend, valid leads, the average CPA against the (blended) target,
// revenue at the contracts' unit prices, margin and margin rate.
import type { ReactNode } from 'react';
import { Statistic } from 'antd';
import type { CpaFigures } from '@contracts/cpa.ts';
import { formatNumber } from '@/lib/format.ts';
import { FigureCards } from '@/components/figures.tsx';
import { ABOVE_COLOR, BELOW_COLOR, HELP, Help, Variance, formatLeads, formatWon } from './figures.tsx';

export function SummaryCards({ totals }: { totals: CpaFigures }) {
  const cards: Array<{ title: string; help: string; value: number | null; suffix?: string; note: ReactNode; color?: string }> = [
    { title: '총 광고비', help: HELP.spend, value: totals.spend, suffix: '원', note: `접수 DB ${formatLeads(totals.leads)}` },
    {
      title: '유효 DB', help: HELP.validLeads, value: totals.validLeads, suffix: '건',
      note: `청구 대상 ${formatLeads(totals.billableLeads)}`,
    },
    {
      title: '평균 CPA', help: `${HELP.actual} 목표는 ${HELP.totalTarget}`, value: totals.actualCpa, suffix: totals.actualCpa === null ? undefined : '원',
      note:
        totals.targetCpa === null ? (
          '목표 없음'
        ) : (
          <span>
            목표 {formatWon(totals.targetCpa)}
            {totals.variance && (
              <>
                {' · '}
                <Variance variance={totals.variance} compact />
              </>
            )}
          </span>
        ),
      color: totals.variance ? (totals.variance.diff > 0 ? ABOVE_COLOR : totals.variance.diff < 0 ? BELOW_COLOR : undefined) : undefined,
    },
    { title: '매출 (계약 단가 기준)', help: HELP.revenue, value: totals.revenue, suffix: '원', note: 'VAT 별도' },
    {
      title: '마진', help: HELP.margin, value: totals.margin, suffix: '원', note: '매출 − 광고비',
      color: totals.margin < 0 ? ABOVE_COLOR : undefined,
    },
    {
      title: '마진율', help: HELP.marginRate, value: totals.marginRate, suffix: totals.marginRate === null ? undefined : '%', note: '마진 ÷ 매출',
      color: totals.marginRate !== null && totals.marginRate < 0 ? ABOVE_COLOR : undefined,
    },
  ];
  return (
    <FigureCards
      cards={cards}
      figure={(c) => (
        <Statistic
          title={<Help title={c.title} help={c.help} />}
          value={c.value ?? '-'}
          suffix={c.suffix}
          formatter={c.value === null ? undefined : (v) => formatNumber(Number(v))}
          styles={{ content: c.color ? { color: c.color } : undefined }}
        />
      )}
    />
  );
}
