// 무효 교체: the shop's return requests — which lead, why, who asked and who decided — filtered
// by status and contract on the server, with each current contract's return rate against its
// maximum above them. With write permission a request is approved or rejected (with a reason).
// A lead's name opens its detail (the drawer DB 현황 uses).
import { useMemo, useState } from 'react';
import { Card, Col, Progress, Row, Space, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { shopContractsApi, type ContractFigures, type ReturnItem } from '@contracts/shop-contracts.ts';
import { RETURN_STATUSES, RETURN_STATUS_LABELS } from '@contracts/money.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { ERROR, PRIMARY, WARNING_TEXT } from '@/lib/theme.ts';
import { useSearchId, useSearchPatch } from '@/lib/search-state.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { RowButton } from '@/components/crud.tsx';
import { LeadDrawer } from '@/components/leads/lead-drawer.tsx';
import { DecisionModal, type Decision } from './decision-modal.tsx';
import { ContractStatusTag, ReturnStatusTag, count, percent } from '@/components/contracts/contract-tags.tsx';

const api = shopContractsApi;

export function ReturnsTab() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('contract-management', 'write');
  const canOpen = can('database-status', 'read');
  const params = { shopId: shop.id };
  const [, patch] = useSearchPatch();
  const [openId, openLead] = useSearchId('lead');
  const [decision, setDecision] = useState<Decision | null>(null);
  const contracts = useCall(api.list, { params, query: { pageSize: 100, sort: '-startsOn' } }, { staleTime: 30_000 });
  const status = useCall(api.status, { params }, { enabled: can('contract-status', 'read') });

  const columns = useMemo<ColumnsType<ReturnItem>>(
    () => [
      { title: '요청일', dataIndex: 'requestedAt', key: 'requestedAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
      { title: '계약', dataIndex: 'contractName', key: 'contractName', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
      {
        title: 'DB', key: 'lead',
        render: (_: unknown, r) => (
          <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <span>
              {canOpen ? <Typography.Link onClick={() => openLead(r.leadId)}>{r.leadName}</Typography.Link> : r.leadName}
              <Typography.Text type="secondary"> · {r.leadPhone}</Typography.Text>
            </span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(r.leadCreatedAt)} 접수</Typography.Text>
          </Space>
        ),
      },
      { title: '사유', dataIndex: 'reason', key: 'reason' },
      {
        title: '메모', dataIndex: 'note', key: 'note',
        render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 220 }}>{v}</Typography.Text> : '-'),
      },
      { title: '상태', dataIndex: 'status', key: 'status', render: (_: unknown, r) => <ReturnStatusTag status={r.status} /> },
      { title: '요청자', dataIndex: 'requestedByName', key: 'requestedByName', render: (v: string | null) => v ?? '-' },
      {
        title: '처리', key: 'decidedAt',
        render: (_: unknown, r) =>
          r.decidedAt ? (
            <Space orientation="vertical" size={0}>
              <span style={{ whiteSpace: 'nowrap' }}>
                {r.decidedByName ?? '-'} <Typography.Text type="secondary">· {formatDateTime(r.decidedAt)}</Typography.Text>
              </span>
              {r.decisionNote && (
                <Typography.Text type="secondary" ellipsis={{ tooltip: r.decisionNote }} style={{ maxWidth: 220, fontSize: 12 }}>
                  {r.decisionNote}
                </Typography.Text>
              )}
            </Space>
          ) : (
            <Typography.Text type="secondary">대기 중</Typography.Text>
          ),
      },
      ...(writable
        ? [{
            title: '관리', key: 'actions', fixed: 'right' as const,
            render: (_: unknown, r: ReturnItem) =>
              r.status === 'requested' && (
                <Space size={0}>
                  <RowButton onClick={() => setDecision({ row: r, approve: true })}>승인</RowButton>
                  <RowButton onClick={() => setDecision({ row: r, approve: false })}>반려</RowButton>
                </Space>
              ),
          }]
        : []),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row handlers read the URL at click time
    [writable, canOpen],
  );

  const figures = status.data?.contracts ?? [];
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {figures.length > 0 && (
        <Card variant="borderless" title="계약별 반품률" size="small">
          <Row gutter={[24, 12]}>
            {figures.map((f) => (
              <Col key={f.contract.id} xs={24} md={12} xl={8}>
                <ReturnRate f={f} onPick={() => patch({ contractId: String(f.contract.id), page: null })} />
              </Col>
            ))}
          </Row>
        </Card>
      )}
      <ResourceTable
        endpoint={api.returns}
        params={params}
        columns={columns}
        filters={[
          { name: 'status', label: '상태', type: 'select', options: RETURN_STATUSES.map((s) => ({ value: s, label: RETURN_STATUS_LABELS[s] })) },
          { name: 'contractId', label: '계약', type: 'select', width: 220, options: (contracts.data?.items ?? []).map((c) => ({ value: c.id, label: c.name })) },
        ]}
        empty="아직 무효 교체 요청이 없습니다. DB 현황에서 DB를 열어 '무효 교체 요청'을 누르면 여기에 모입니다."
      />
      <DecisionModal shopId={shop.id} decision={decision} onClose={() => setDecision(null)} />
      {canOpen && (
        <LeadDrawer shopId={shop.id} id={openId} writable={can('database-status', 'write')} canUnmask={account!.canUnmask} onOpen={openLead} onClose={() => openLead(null)} />
      )}
    </Space>
  );
}

/** One contract's returns so far against its maximum rate: amber near it, red at it. */
function ReturnRate({ f, onPick }: { f: ContractFigures; onPick?: () => void }) {
  const used = f.returnRate ?? 0;
  const share = f.maxReturnRate > 0 ? Math.min(100, (used / f.maxReturnRate) * 100) : used > 0 ? 100 : 0;
  // The bar may be bright amber; the rate beside it is text and takes the readable shade.
  const color = share >= 100 ? ERROR : share >= 80 ? '#faad14' : PRIMARY;
  const textColor = share >= 100 ? ERROR : share >= 80 ? WARNING_TEXT : undefined;
  return (
    <div>
      <Space size={6} wrap>
        {onPick ? (
          <Tooltip title="이 계약의 요청만 보기">
            <Typography.Link strong onClick={onPick}>{f.contract.name}</Typography.Link>
          </Tooltip>
        ) : (
          <Typography.Text strong>{f.contract.name}</Typography.Text>
        )}
        <ContractStatusTag status={f.contract.status} />
      </Space>
      <Progress percent={share} showInfo={false} size="small" strokeColor={color} status="normal" aria-label={`${f.contract.name} 반품률`} />
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        반품률 <span style={{ color: textColor, fontSize: 'inherit' }}>{percent(f.returnRate)}</span> / 최대 {f.maxReturnRate}% · 요청{' '}
        {count(f.returns.requested)} · 승인 {count(f.returns.approved)}
        {f.replacementsOwed > 0 && <span style={{ whiteSpace: 'nowrap', color: WARNING_TEXT }}> · 교체 필요 {count(f.replacementsOwed)}</span>}
      </Typography.Text>
    </div>
  );
}
