// How CPA 관리 writes its figures: won, percent, the variance against the target (red ▲ above,
// green ▼ below), and the explanation of each figure the screen shows under a "?".
import { Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { formatNumber } from '@/lib/format.ts';

// Red 7 and green 8 of antd's palette: both read at 4.5:1 or more on white (green 7 does not: 3.46).
export const ABOVE_COLOR = '#cf1322';
export const BELOW_COLOR = '#237804';

/** KRW, or "-" when there is none. */
export const formatWon = (n: number | null | undefined) => (n == null ? '-' : `${formatNumber(n)}원`);
export const formatPercent = (n: number | null | undefined) => (n == null ? '-' : `${n.toLocaleString('ko-KR')}%`);
export const formatLeads = (n: number) => `${formatNumber(n)}건`;

/** What each figure means, for the column titles, the cards and the help panel. */
export const HELP = {
  target: '매체별로 정한 그 달의 목표 CPA입니다. 유효 DB 1건을 얻는 데 쓸 수 있는 광고비의 기준입니다.',
  totalTarget: '목표가 있는 매체들의 목표 CPA를 이 달의 유효 DB 수로 가중 평균한 값입니다 (유효 DB가 없으면 단순 평균). 매체마다 목표를 지켰다면 나왔을 전체 CPA입니다.',
  actual: '광고비 ÷ 유효 DB. 유효 DB가 없으면 계산하지 않습니다(-). 광고비 없이 DB만 있으면 0원입니다.',
  variance: '실제 CPA − 목표 CPA와 그 비율입니다. 목표보다 비싸면 빨간색 ▲, 싸면 초록색 ▼입니다.',
  spend: '광고 현황에 입력한 그 달 광고비의 합계입니다 (매체 전체 행과 랜딩별 행 모두).',
  validLeads: '삭제·중복·무효·반품을 뺀 DB입니다. 계약 수량과 정산에 쓰는 기준과 같습니다.',
  revenue: '계약 단가 × 청구 대상 유효 DB (VAT 별도). 청구 대상은 계약 기간·랜딩·매체에 들어가고 일 한도와 계약 수량 안에 든 유효 DB입니다. 한도를 넘긴 날에는 먼저 들어온 DB부터 청구 대상이 됩니다.',
  margin: '매출 − 광고비입니다.',
  marginRate: '마진 ÷ 매출. 매출이 없으면 계산하지 않습니다(-).',
  unbilled: '한도 초과 DB는 계약의 일 한도나 수량을 넘겨 청구되지 않는 유효 DB, 계약 외 DB는 어느 계약에도 들지 않는 유효 DB입니다. 둘 다 매출이 없습니다.',
} as const;

/** A title with its explanation in a tooltip. */
export function Help({ title, help }: { title: ReactNode; help: string }) {
  return (
    <Tooltip title={help}>
      <span style={{ whiteSpace: 'nowrap' }}>
        {title} <QuestionCircleOutlined style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)' }} />
      </span>
    </Tooltip>
  );
}

/** "▲ 5,000원 (25%)" in red above the target, "▼ …" in green below, "-" without a target or an actual CPA. */
export function Variance({ variance, compact }: { variance: { diff: number; percent: number } | null; compact?: boolean }) {
  if (!variance) return <Typography.Text type="secondary">-</Typography.Text>;
  const { diff, percent } = variance;
  if (diff === 0) return <span>목표 달성 (0원)</span>;
  const above = diff > 0;
  const sign = above ? '▲' : '▼';
  return (
    <span style={{ color: above ? ABOVE_COLOR : BELOW_COLOR, whiteSpace: 'nowrap' }} aria-label={above ? '목표보다 높음' : '목표보다 낮음'}>
      {sign} {formatWon(Math.abs(diff))}
      {!compact && ` (${formatPercent(Math.abs(percent))})`}
    </span>
  );
}
