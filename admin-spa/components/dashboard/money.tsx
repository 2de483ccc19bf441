// The money on both dashboards: a contract's progress, the landings its cap holds closed, the
// caps' closings and reopenings, and this month's advertising. The figures are 계약 현황's and
// 광고 현황's own; these are their compact forms, each opening the screen it comes from.
import type { ReactNode } from 'react';
import { Empty, Flex, List, Progress, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import {
  CAP_EVENT_KIND_LABELS, progressPercent, type CapEventKind, type ContractProgress, type DashboardCapEvent,
} from '@contracts/shop-dashboard.ts';
import { AD_METRIC_HELP, type AdFigures } from '@contracts/ad-spend.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ContractStatusTag } from '@/components/contracts/contract-tags.tsx';
import { OtherLeadsNote } from '@/components/other-leads-note.tsx';

const CAP_EVENT_COLORS: Record<CapEventKind, string> = { 'closed-daily': 'orange', 'closed-quantity': 'red', reopened: 'green' };
const RED = '#cf1322';

export const won = (n: number | null | undefined) => (n == null ? '-' : `${formatNumber(n)}원`);
const count = (n: number) => `${formatNumber(n)}건`;

/** 계약 현황 opened on one contract. */
export const contractStatusPath = (contractId: number) => `/contract-status?contractId=${contractId}`;

function CapEventTag({ kind }: { kind: CapEventKind }) {
  return <Tag color={CAP_EVENT_COLORS[kind]} style={{ marginInlineEnd: 0 }}>{CAP_EVENT_KIND_LABELS[kind]}</Tag>;
}

/** A landing a cap holds closed: until the next midnight (the daily cap) or for good (the quantity). */
export function ClosedTag({ title, reopenAt }: { title?: string; reopenAt: string | null }) {
  const label = reopenAt ? '마감 · 자정 재개' : '수량 마감';
  return (
    <Tooltip title={reopenAt ? `일 한도에 도달해 마감했습니다. ${formatDateTime(reopenAt)}에 다시 열립니다.` : '계약 수량을 채워 마감했습니다.'}>
      <Tag color={reopenAt ? 'orange' : 'red'} style={{ marginInlineEnd: 0 }}>
        {title ? `${title} · ${label}` : label}
      </Tag>
    </Tooltip>
  );
}

/** The bar of a contract's progress with "counted / quantity건 (n%)". */
export function ProgressBar({ p, compact }: { p: Pick<ContractProgress, 'counted' | 'quantity' | 'remaining'>; compact?: boolean }) {
  const done = progressPercent(p);
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
      <Progress
        percent={done}
        showInfo={false}
        status={p.remaining === 0 ? 'success' : 'normal'}
        size={compact ? 'small' : { height: 10 }}
        style={{ flex: 1, minWidth: 80, margin: 0 }}
        aria-label={`계약 진행률 ${done}%`}
      />
      <span style={{ whiteSpace: 'nowrap', fontSize: compact ? 13 : undefined }}>
        {formatNumber(p.counted)} / {count(p.quantity)} <Typography.Text strong>({done}%)</Typography.Text>
      </span>
    </div>
  );
}

/** "오늘 3 / 일 한도 5", red at the cap. */
export function TodayCount({ p }: { p: Pick<ContractProgress, 'todayCount'> }) {
  const { valid, billable, dailyCap } = p.todayCount;
  const reached = dailyCap !== null && billable >= dailyCap;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      오늘 <span style={reached ? { color: RED, fontWeight: 600 } : undefined}>{formatNumber(valid)}</span>
      {dailyCap === null ? ' · 일 한도 없음' : ` / 일 한도 ${formatNumber(dailyCap)}`}
    </span>
  );
}

/** The projected completion, amber when it falls after the contract's last day. */
export function Projected({ p }: { p: Pick<ContractProgress, 'projectedOn' | 'lastDay' | 'remaining'> }) {
  if (p.remaining === 0) return <span>수량 완료</span>;
  if (!p.projectedOn) return <Typography.Text type="secondary">예상 완료 -</Typography.Text>;
  if (p.projectedOn > p.lastDay) {
    return (
      <Tooltip title={`지금 속도로는 종료일(${p.lastDay})까지 수량을 채우지 못합니다.`}>
        <Typography.Text type="warning" style={{ whiteSpace: 'nowrap' }}>예상 완료 {p.projectedOn} · 종료일 이후</Typography.Text>
      </Tooltip>
    );
  }
  return <span style={{ whiteSpace: 'nowrap' }}>예상 완료 {p.projectedOn}</span>;
}

/** One contract as the shop dashboard lists it: what it has counted, today against its cap, what is left and when it should be done. */
export function ContractProgressItem({ p, link }: { p: ContractProgress; link: (children: ReactNode) => ReactNode }) {
  const c = p.contract;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap size={8}>
        {link(<Typography.Text strong>{c.name}</Typography.Text>)}
        {c.status !== 'active' && <ContractStatusTag status={c.status} />}
        {p.closedLandings.map((l) => <ClosedTag key={l.id} title={l.title} reopenAt={l.reopenAt} />)}
      </Space>
      <ProgressBar p={p} />
      <Space wrap size={4} separator={<Typography.Text type="secondary">·</Typography.Text>} style={{ fontSize: 13 }}>
        <TodayCount p={p} />
        <span style={{ whiteSpace: 'nowrap' }}>남은 수량 {count(p.remaining)}</span>
        {c.status === 'active' && <Projected p={p} />}
        {p.replacementsOwed > 0 && <Typography.Text type="danger" style={{ whiteSpace: 'nowrap' }}>교체 필요 {count(p.replacementsOwed)}</Typography.Text>}
      </Space>
    </Space>
  );
}

/** The caps' latest closings and reopenings, newest first. */
export function CapEventList({ events, shopName }: { events: Array<DashboardCapEvent & { shopName?: string }>; shopName?: boolean }) {
  if (!events.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="마감·재개 기록이 없습니다." />;
  return (
    <List
      size="small"
      dataSource={events}
      renderItem={(e) => (
        <List.Item>
          <Space size={8} style={{ minWidth: 0 }}>
            <CapEventTag kind={e.kind} />
            <Typography.Text ellipsis style={{ maxWidth: 260 }}>
              {shopName && e.shopName ? `${e.shopName} · ` : ''}
              {e.landingTitle ?? '삭제된 랜딩'}
            </Typography.Text>
          </Space>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</Typography.Text>
        </List.Item>
      )}
    />
  );
}

/** This month's spend, valid leads and CPA (광고 현황's totals of the same days). */
export function AdFiguresRow({ totals }: { totals: AdFigures }) {
  const cells: Array<{ title: ReactNode; value: string }> = [
    { title: '광고비', value: won(totals.spend) },
    { title: <Tooltip title="중복·무효·반품을 뺀, 계약에 세는 DB입니다.">유효 DB</Tooltip>, value: count(totals.validLeads) },
    { title: <Tooltip title={AD_METRIC_HELP.cpa}>CPA</Tooltip>, value: won(totals.cpa) },
  ];
  // Side by side with a clear gap while they fit, one under another when they do not: a figure
  // never runs into the next ("6,502,520원153건" in a narrow column).
  return (
    <>
      <Flex wrap gap="8px 32px">
        {cells.map((c, i) => (
          <Statistic key={i} title={c.title} value={c.value} styles={{ content: { fontSize: 20, whiteSpace: 'nowrap' } }} />
        ))}
      </Flex>
      <OtherLeadsNote count={totals.otherLeads} />
    </>
  );
}
