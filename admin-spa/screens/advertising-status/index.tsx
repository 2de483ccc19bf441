// 광고 현황: what the current shop spent on advertising per day and medium (optionally per
// landing) set against the leads of the same day and medium — the period's figures, spend per
// day with the day's CPA, CPA and CVR per medium, the editable grid of the days' spend, and the
// totals per medium. Spend is typed into the grid or imported from a platform's CSV export.
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useBlocker, useSearchParams } from 'react-router-dom';
import { App, Button, Col, Row, Skeleton, Space, Spin, Switch, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { adSpendApi } from '@contracts/ad-spend.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { patchedSearch } from '@/lib/search-state.ts';
import { ServerError } from '@/layouts/results.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { ChartRow } from '@/components/cs-stats.tsx';
import { OtherLeadsNote } from '@/components/other-leads-note.tsx';
import { MediumTable, SummaryCards } from './summary.tsx';
import { SpendGrid } from './spend-grid.tsx';
import { ImportModal } from './import-modal.tsx';
import { mediumRatiosOption, spendByDayOption } from './charts.ts';
import './advertising-status.css';

const UNSAVED = { title: '저장하지 않은 광고비가 있습니다', content: '입력한 내용을 버리고 이동할까요?', okText: '버리고 이동', cancelText: '계속 입력' };

export default function AdvertisingStatus() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const { modal } = App.useApp();
  const writable = can('advertising-status', 'write');
  const { from, to, today, setPeriod } = usePeriod('month');
  const [search, setSearch] = useSearchParams();
  const byLanding = search.get('byLanding') === '1';
  const q = useCall(adSpendApi.figures, { params: { shopId: shop.id }, query: { from, to, byLanding: byLanding ? '1' : undefined } }, { keepPrevious: true });
  const d = q.data;
  const [dirty, setDirty] = useState(false);
  const [importing, setImporting] = useState(false);
  const onDirtyChange = useCallback((x: boolean) => setDirty(x), []);

  // Typed figures are not left behind by accident: another screen, a reload or a closed tab asks first.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({ ...UNSAVED, onOk: () => blocker.proceed(), onCancel: () => blocker.reset() });
  }, [blocker, modal]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  /** A change of period or view drops the grid's edits: asked first. */
  const guarded = (change: () => void) => (dirty ? modal.confirm({ ...UNSAVED, onOk: change }) : change());

  const setByLanding = (on: boolean) =>
    guarded(() => setSearch(patchedSearch(search, { byLanding: on ? '1' : null })));

  const charts = useMemo(() => d && { spend: spendByDayOption(d.days, d.rows, d.media), ratios: mediumRatiosOption(d.media) }, [d]);
  // The grid (a number cell per day, medium and figure: hundreds) renders just after the figures
  // and charts are on screen, in the background: they no longer wait for it.
  const gridFigures = useDeferredValue(d ?? null, null);

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Row justify="space-between" align="middle" gutter={[12, 12]}>
        <Col>
          <Space wrap size={12}>
            <PeriodPicker label="기간" from={from} to={to} today={today} onChange={(range) => guarded(() => setPeriod(range))} />
            <Space size={6}>
              <Switch aria-label="랜딩별로 보기" checked={byLanding} onChange={setByLanding} size="small" />
              <Typography.Text>랜딩별</Typography.Text>
            </Space>
            {q.isFetching && d && <Spin size="small" />}
            <Typography.Text type="secondary">접수일 기준 · 삭제된 DB 제외 · 유효 DB는 중복·무효·반품 제외</Typography.Text>
          </Space>
        </Col>
        {writable && (
          <Col>
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} disabled={!d}>
              CSV 가져오기
            </Button>
          </Col>
        )}
      </Row>
      {!d || !charts ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <>
          <SummaryCards totals={d.totals} />
          <OtherLeadsNote banner count={d.totals.otherLeads} />
          <ChartRow
            cards={[
              { xl: 16, title: '일별 광고비 · CPA', option: charts.spend, height: 300, label: '기간 중 일별 광고비를 매체별로 쌓은 막대와 일별 CPA 선 그래프', empty: '이 기간에 입력된 광고비가 없습니다.' },
              { xl: 8, title: '매체별 CPA · CVR', option: charts.ratios, height: 300, label: '매체별 CPA와 CVR 막대 그래프', empty: 'CPA나 CVR을 낼 매체가 없습니다. 광고비와 클릭을 입력하세요.' },
            ]}
          />
          {gridFigures ? (
            <SpendGrid
              key={`${shop.id}|${gridFigures.period.from}|${gridFigures.period.to}|${gridFigures.byLanding}`}
              shopId={shop.id}
              figures={gridFigures}
              writable={writable}
              draftKey={`ad-spend:${shop.id}:${gridFigures.period.from}:${gridFigures.period.to}:${gridFigures.byLanding ? 'landing' : 'medium'}`}
              onDirtyChange={onDirtyChange}
            />
          ) : (
            <Skeleton active paragraph={{ rows: 8 }} />
          )}
          <MediumTable media={d.media} totals={d.totals} />
          {writable && <ImportModal open={importing} shopId={shop.id} figures={d} onClose={() => setImporting(false)} />}
        </>
      )}
    </Space>
  );
}
