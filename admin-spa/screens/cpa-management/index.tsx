// CPA 관리: for a month (?month=, default this Seoul month) the current shop's target and actual
// CPA per medium, how far each is from its target (red ▲ above, green ▼ below), what each
// medium earned at the contracts' unit prices and the margin left after spend; the last months'
// trend underneath. Those who may write set the targets in the table and copy last month's.
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Alert, Button, Card, Collapse, Empty, Segmented, Skeleton, Space, Typography } from 'antd';
import { CPA_TREND_MONTHS_DEFAULT, CPA_MONTH_RE, addMonths, cpaApi, monthLabel } from '@contracts/cpa.ts';
import { seoulDay } from '@contracts/kst.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { ServerError } from '@/layouts/results.tsx';
import { OtherLeadsNote } from '@/components/other-leads-note.tsx';
import { MonthPicker } from '@/components/month-picker.tsx';
import { SummaryCards } from './summary-cards.tsx';
import { CpaTable } from './cpa-table.tsx';
import { TrendCharts } from './trend-charts.tsx';
import { HELP } from './figures.tsx';

const TREND_CHOICES = [6, 12] as const;
/** How far ahead targets may be planned. */
const PLAN_AHEAD_MONTHS = 12;

export default function CpaManagement() {
  const shop = useCurrentShop();
  const params = { shopId: shop.id };
  const { can } = useAuth();
  const writable = can('cpa-management', 'write');
  const canAdvertising = can('advertising-status', 'read');
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const thisMonth = seoulDay(new Date()).slice(0, 7);
  const asked = search.get('month') ?? '';
  const month = CPA_MONTH_RE.test(asked) ? asked : thisMonth;
  const months = Number(search.get('months')) === 12 ? 12 : CPA_TREND_MONTHS_DEFAULT;
  const setQuery = (next: { month?: string; months?: number }) =>
    setSearch((s) => {
      const out = new URLSearchParams(s);
      if (next.month) out.set('month', next.month);
      if (next.months) out.set('months', String(next.months));
      return out;
    });

  const overview = useCall(cpaApi.overview, { params, query: { month, months } }, { keepPrevious: true });
  const targets = useCall(cpaApi.targets, { params, query: { month } }, { keepPrevious: true });
  const d = overview.data;
  const sameMonth = d?.month === month;

  if (overview.isError) return <ServerError message={(overview.error as Error).message} onRetry={() => overview.refetch()} />;

  const activeMedia = targets.data?.items.filter((i) => i.active).length ?? 0;
  const nothing = d && d.rows.length === 0 && (!writable || activeMedia === 0);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={12}>
        <MonthPicker label="조회할 달" month={month} last={addMonths(thisMonth, PLAN_AHEAD_MONTHS)} onChange={(m) => setQuery({ month: m })} />
        <Segmented<number>
          aria-label="추이 기간"
          value={months}
          options={TREND_CHOICES.map((n) => ({ label: `${n}개월 추이`, value: n }))}
          onChange={(v) => setQuery({ months: v })}
        />
        <Typography.Text type="secondary">한국 시간 기준 월 · 유효 DB 기준 (삭제·중복·무효·반품 제외) · 매출은 계약 단가 × 청구 대상 유효 DB (VAT 별도)</Typography.Text>
      </Space>

      {!d || !sameMonth || (writable && !targets.data) ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : nothing ? (
        <Card variant="borderless">
          <Empty
            description={
              activeMedia === 0 && targets.data ? (
                <span>
                  등록된 매체가 없습니다.
                  <br />
                  매체 유형을 먼저 등록한 뒤 광고비와 목표 CPA를 입력하세요.
                </span>
              ) : (
                <span>
                  {monthLabel(month)}에 광고비·DB·목표 CPA가 없습니다.
                  <br />
                  광고비는 광고 현황에서 입력합니다.
                </span>
              )
            }
          >
            {canAdvertising && (
              <Button type="primary" onClick={() => navigate('/advertising-status')}>
                광고 현황으로 가기
              </Button>
            )}
          </Empty>
        </Card>
      ) : (
        <>
          <SummaryCards totals={d.totals} />
          <OtherLeadsNote
            banner
            count={d.other.leads}
            extra={d.other.billableLeads > 0 ? `그중 계약에 청구되는 ${d.other.billableLeads.toLocaleString('ko-KR')}건(${d.other.revenue.toLocaleString('ko-KR')}원)은 계약 현황의 정산에 그대로 들어가고, 여기 매출·마진에는 넣지 않았습니다.` : undefined}
          />
          {d.rows.length === 0 && (
            <Alert
              type="info"
              showIcon
              title="이 달에는 아직 광고비나 DB가 없습니다."
              description={canAdvertising ? <span>매체별 목표 CPA를 먼저 정해 둘 수 있습니다. 광고비는 <Link to="/advertising-status">광고 현황</Link>에서 입력합니다.</span> : '매체별 목표 CPA를 먼저 정해 둘 수 있습니다.'}
            />
          )}
          <CpaTable
            key={month}
            shopId={shop.id}
            month={month}
            rows={d.rows}
            totals={d.totals}
            targets={targets.data?.month === month ? targets.data : undefined}
            writable={writable}
            canAdvertising={canAdvertising}
          />
          <TrendCharts trend={d.trend} />
        </>
      )}

      <Collapse
        ghost
        items={[{
          key: 'help',
          label: '지표 설명',
          children: (
            <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '6px 16px' }}>
              {[
                ['목표 CPA', HELP.target], ['합계 목표', HELP.totalTarget], ['실제 CPA', HELP.actual], ['차이', HELP.variance],
                ['광고비', HELP.spend], ['유효 DB', HELP.validLeads], ['매출', HELP.revenue], ['마진', HELP.margin], ['마진율', HELP.marginRate],
                ['한도 초과 · 계약 외', HELP.unbilled],
              ].map(([term, text]) => (
                <div key={term} style={{ display: 'contents' }}>
                  <dt style={{ fontWeight: 600 }}>{term}</dt>
                  <dd style={{ margin: 0, color: 'rgba(0,0,0,0.65)' }}>{text}</dd>
                </div>
              ))}
            </dl>
          ),
        }]}
      />
    </Space>
  );
}
