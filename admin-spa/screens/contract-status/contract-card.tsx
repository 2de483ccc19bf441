// One contract's progress: valid leads counted against the quantity, today against the daily
// cap, the amount billed so far, the pace and the day it should complete, returns against the
// maximum rate and the replacements owed, what was left out and why, the landings its cap has
// closed; below, the daily chart, the monthly settlement and the cap's record. Every count
// opens the leads behind it.
import { lazy, Suspense, useMemo, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Card, Col, Empty, Progress, Row, Skeleton, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { CapEventItem, ContractFigures, ContractLeadKind } from '@contracts/shop-contracts.ts';
import { won0 } from '@contracts/money.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { WARNING_TEXT } from '@/lib/theme.ts';
import { ContractStatusTag, count, percent, period } from '@/components/contracts/contract-tags.tsx';
import { progressOption } from './progress-option.ts';
import { SettlementPanel } from './settlement-panel.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));

const RED = '#cf1322';
const AMBER = WARNING_TEXT;

const CAP_EVENT_LABELS: Record<string, { label: string; color: string }> = {
  'closed-daily': { label: '일 한도 마감', color: 'orange' },
  'closed-quantity': { label: '수량 마감', color: 'red' },
  reopened: { label: '재개', color: 'green' },
};

/** A count that opens the leads behind it. */
function Count({ n, kind, label, onShow, style }: { n: number; kind: ContractLeadKind; label: string; onShow: (kind: ContractLeadKind) => void; style?: CSSProperties }) {
  // Typography sets its own 14px: the count takes the size of the figure it stands in.
  return (
    <Typography.Link onClick={() => onShow(kind)} aria-label={`${label} ${formatNumber(n)}건 DB 보기`} style={{ fontSize: 'inherit', ...style }}>
      {formatNumber(n)}
    </Typography.Link>
  );
}

/** One figure: a label, a large value, a line under it. */
function Figure({ label, value, note, tone }: { label: ReactNode; value: ReactNode; note?: ReactNode; tone?: 'danger' | 'warning' | 'attention' }) {
  const color = tone === 'danger' ? RED : tone === 'warning' ? AMBER : undefined;
  return (
    <div
      style={{
        boxSizing: 'border-box', height: '100%', padding: '12px 16px', borderRadius: 8,
        background: tone === 'attention' ? '#fff7e6' : '#fafafa', border: tone === 'attention' ? '1px solid #ffd591' : '1px solid transparent',
      }}
    >
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>{label}</Typography.Text>
      <div style={{ fontSize: 22, fontWeight: 600, lineHeight: 1.4, color, whiteSpace: 'nowrap' }}>{value}</div>
      {note && <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.6)' }}>{note}</div>}
    </div>
  );
}

/** The five figures under the progress bar: today against the cap, the bill so far, the pace, returns, replacements owed. */
function FigureRow({ f, show }: { f: ContractFigures; show: (kind: ContractLeadKind, label: string, n: number, style?: CSSProperties) => ReactNode }) {
  const cap = f.todayCount.dailyCap;
  const capReached = cap !== null && f.todayCount.billable >= cap;
  const todayOver = f.todayCount.valid - f.todayCount.billable;
  // Near the maximum from four fifths of it; at it, no return fits any more.
  const rateShare = f.returnRate === null ? 0 : f.maxReturnRate > 0 ? f.returnRate / f.maxReturnRate : f.returnRate > 0 ? 1 : 0;
  const rateTone = rateShare >= 1 ? 'danger' : rateShare >= 0.8 ? 'warning' : undefined;
  const late = f.projectedOn !== null && f.projectedOn > f.lastDay;
  const running = f.contract.status === 'active';
  return (
  <Row gutter={[12, 12]}>
    <Col xs={24} sm={12} xl={{ flex: '1 1 0' }}>
      <Figure
        label="오늘"
        tone={capReached ? 'danger' : undefined}
        value={
          <>
            {show('today', '오늘 접수', f.todayCount.valid, capReached ? { color: RED } : undefined)}
            <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}>
              {' '}/ {cap === null ? '한도 없음' : `일 한도 ${count(cap)}`}
            </Typography.Text>
          </>
        }
        note={capReached ? `오늘 한도 도달${todayOver > 0 ? ` · 초과 ${count(todayOver)}` : ''}` : running ? `오늘 정산 대상 ${count(f.todayCount.billable)}` : '집계 기간이 아닙니다'}
      />
    </Col>
    <Col xs={24} sm={12} xl={{ flex: '1 1 0' }}>
      <Figure label="청구 금액 (지금까지)" value={won0(f.total)} note={`공급가 ${won0(f.amount)} + 부가세 ${won0(f.vat)}`} />
    </Col>
    <Col xs={24} sm={12} xl={{ flex: '1 1 0' }}>
      <Figure
        label="일평균 · 예상 완료일"
        tone={late ? 'warning' : undefined}
        value={`${(Math.round(f.dailyAverage * 10) / 10).toLocaleString('ko-KR')}건`}
        note={
          f.remaining === 0
            ? '계약 수량을 채웠습니다'
            : f.projectedOn
              ? late
                ? (
                  <Tooltip title={`지금 속도로는 종료일(${f.lastDay})까지 수량을 채우지 못합니다.`}>
                    <Typography.Text type="warning" style={{ fontSize: 12 }}>예상 완료 {f.projectedOn} · 종료일 이후</Typography.Text>
                  </Tooltip>
                )
                : `예상 완료 ${f.projectedOn}`
              : '아직 예상할 수 없습니다'
        }
      />
    </Col>
    <Col xs={24} sm={12} xl={{ flex: '1 1 0' }}>
      <Figure
        label="반품률"
        tone={rateTone}
        value={
          <>
            {percent(f.returnRate)}
            <Typography.Text type="secondary" style={{ fontSize: 14, fontWeight: 400 }}> / 최대 {f.maxReturnRate}%</Typography.Text>
          </>
        }
        note={
          <>
            요청 {show('requested', '반품 요청 중', f.returns.requested)} · 승인 {show('returned', '반품 승인', f.returns.approved)} · 반려 {formatNumber(f.returns.rejected)}
            {' '}· 공급 {formatNumber(f.delivered)}건 기준
          </>
        }
      />
    </Col>
    <Col xs={24} sm={12} xl={{ flex: '1 1 0' }}>
      <Figure
        label={
          <Tooltip title="승인된 반품 가운데 남은 계약 수량으로 아직 채우지 못한 건수입니다.">
            <span>교체 필요</span>
          </Tooltip>
        }
        tone={f.replacementsOwed > 0 ? 'attention' : undefined}
        value={
          f.replacementsOwed > 0 ? (
            <>
              {show('returned', '교체 필요 (반품 승인)', f.replacementsOwed, { color: AMBER })}
              <span style={{ color: AMBER }}>건</span>
            </>
          ) : (
            '0건'
          )
        }
        note={f.replacementsOwed > 0 ? '반품 승인된 DB만큼 더 공급해야 합니다' : '교체할 DB가 없습니다'}
      />
    </Col>
  </Row>
  );
}

export function ContractCard({ shopId, f, canManage, onShow }: { shopId: number; f: ContractFigures; canManage: boolean; onShow: (kind: ContractLeadKind) => void }) {
  const c = f.contract;
  const done = f.quantity > 0 ? Math.min(100, Math.floor((f.counted / f.quantity) * 1000) / 10) : 0;
  const cap = f.todayCount.dailyCap;
  const chart = useMemo(() => progressOption(f.days, f.quantity), [f.days, f.quantity]);
  const show = (kind: ContractLeadKind, label: string, n: number, style?: CSSProperties) => <Count n={n} kind={kind} label={label} onShow={onShow} style={style} />;

  return (
    <Card
      variant="borderless"
      title={
        <Space wrap size={8}>
          <span>{c.name}</span>
          <ContractStatusTag status={c.status} />
          <Typography.Text type="secondary" style={{ fontWeight: 400, fontSize: 13 }}>
            {period(c)}
            {c.stoppedOn ? ` · ${c.stoppedOn} 중지` : ''} · 단가 {won0(c.unitPrice)} (VAT 별도)
            {cap !== null ? ` · 일 한도 ${count(cap)}` : ''}
          </Typography.Text>
        </Space>
      }
      extra={canManage && <Link to="/contract-management">계약 관리</Link>}
    >
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <div>
          <Space align="baseline" wrap size={8}>
            <Typography.Text type="secondary">정산 대상</Typography.Text>
            <span style={{ fontSize: 28, fontWeight: 600 }}>{show('counted', '정산 대상', f.counted)}</span>
            <Typography.Text type="secondary">/ {count(f.quantity)}</Typography.Text>
            <Typography.Text strong>{done}%</Typography.Text>
            <Typography.Text type="secondary">· 남은 수량 {count(f.remaining)}</Typography.Text>
          </Space>
          <Progress percent={done} showInfo={false} status={f.remaining === 0 ? 'success' : 'normal'} size={{ height: 12 }} aria-label={`계약 진행률 ${done}%`} />
        </div>

        <FigureRow f={f} show={show} />

        <Space wrap size={[16, 4]}>
          <Typography.Text type="secondary">집계 제외</Typography.Text>
          <span>한도 초과 {show('over', '한도 초과', f.over)}건</span>
          <span>중복 {show('duplicate', '중복', f.excluded.duplicates)}건</span>
          <span>무효 {show('invalid', '무효', f.excluded.invalid)}건</span>
          <span>반품 {show('returned', '반품', f.excluded.returned)}건</span>
          <span>삭제 {show('deleted', '삭제', f.excluded.deleted)}건</span>
        </Space>

        {f.closedLandings.length > 0 && (
          <Alert
            type="warning"
            showIcon
            title="이 계약의 한도로 마감된 랜딩"
            description={
              <Space orientation="vertical" size={4}>
                {f.closedLandings.map((l) => (
                  <Space key={l.id} size={6} wrap>
                    <Typography.Text strong>{l.title}</Typography.Text>
                    {l.reopenAt ? (
                      <>
                        <Tag color="orange">마감 · 자정 재개</Tag>
                        <Typography.Text type="secondary">{formatDateTime(l.reopenAt)}에 다시 열립니다</Typography.Text>
                      </>
                    ) : (
                      <Tag color="red">수량 마감</Tag>
                    )}
                  </Space>
                ))}
              </Space>
            }
          />
        )}

        <Tabs
          size="small"
          items={[
            {
              key: 'chart', label: '진행 추이',
              children: f.days.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`계약이 ${c.startsOn}에 시작하면 일별 추이가 여기에 그려집니다.`} />
              ) : (
                <Suspense fallback={<Skeleton active />}>
                  <Chart option={chart} height={280} label={`${c.name} 일별 정산 대상과 한도 초과 DB 막대 그래프, 누적 정산 대상과 계약 수량 선 그래프`} />
                </Suspense>
              ),
            },
            { key: 'settlement', label: '정산서', children: <SettlementPanel shopId={shopId} f={f} /> },
            {
              key: 'caps', label: `마감 기록${f.capEvents.length ? ` ${f.capEvents.length}` : ''}`,
              children: <CapEvents events={f.capEvents} autoClose={c.autoClose} />,
            },
          ]}
        />
      </Space>
    </Card>
  );
}

function CapEvents({ events, autoClose }: { events: CapEventItem[]; autoClose: boolean }) {
  if (events.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={autoClose ? '아직 한도로 마감된 랜딩이 없습니다.' : '자동 마감을 쓰지 않는 계약입니다. 계약 관리에서 켜면 한도에 닿을 때 랜딩을 마감합니다.'}
      />
    );
  }
  return (
    <Table<CapEventItem>
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={events}
      columns={[
        { title: '일시', dataIndex: 'at', key: 'at', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
        {
          title: '구분', dataIndex: 'kind', key: 'kind',
          render: (v: string) => <Tag color={CAP_EVENT_LABELS[v]?.color}>{CAP_EVENT_LABELS[v]?.label ?? v}</Tag>,
        },
        { title: '랜딩', dataIndex: 'landingTitle', key: 'landingTitle', render: (v: string | null) => v ?? '-' },
        { title: '당시 집계', dataIndex: 'count', key: 'count', align: 'right', render: (v: number | null) => (v === null ? '-' : count(v)) },
        { title: '처리', dataIndex: 'accountName', key: 'accountName', render: (v: string | null) => v ?? '자동' },
      ]}
    />
  );
}
