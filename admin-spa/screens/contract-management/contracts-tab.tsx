// 계약 목록: the shop's contracts — period, quantity, price, cap, what counts, the return terms,
// status and progress — sorted and filtered on the server. With write permission: register,
// edit, stop (with a reason) or resume, and delete (the server refuses a contract that counted
// leads: stop it instead). Every row links to its 계약 현황.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { contractStopInput, shopContractsApi, type ContractItem } from '@contracts/shop-contracts.ts';
import { CONTRACT_STATUSES, CONTRACT_STATUS_LABELS, vatOf, won0 } from '@contracts/money.ts';
import { useQueryClient } from '@tanstack/react-query';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useSearchPatch } from '@/lib/search-state.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { CreateButton, RowButton } from '@/components/crud.tsx';
import { ConfirmAction, DeleteAction } from '@/components/confirm-action.tsx';
import { ReasonModal } from '@/components/reason-modal.tsx';
import { useFormModal } from '@/components/resource-form.tsx';
import { ContractForm } from './contract-form.tsx';
import { CONTRACT_VIEWS } from '@/components/contracts/contract-views.ts';
import { ContractStatusTag, count, period } from '@/components/contracts/contract-tags.tsx';

const api = shopContractsApi;

/** "전체" or the names, shortened with the rest in a tooltip. */
function Scope({ label, names }: { label: string; names: string[] }) {
  const text = names.length === 0 ? '전체' : names.length <= 2 ? names.join(', ') : `${names.slice(0, 2).join(', ')} 외 ${names.length - 2}`;
  return (
    <div style={{ whiteSpace: 'nowrap' }}>
      <Typography.Text type="secondary">{label} </Typography.Text>
      {names.length > 2 ? <Tooltip title={names.join(', ')}>{text}</Tooltip> : text}
    </div>
  );
}

/** The contracts table's columns; a writer gets 수정, 중지 or 재개, and 삭제 on each row. */
function useContractColumns({ shopId, writable, canStatus, onEdit, onStop }: {
  shopId: number;
  writable: boolean;
  canStatus: boolean;
  onEdit: (r: ContractItem) => void;
  onStop: (r: ContractItem) => void;
}) {
  const params = { shopId };
  return useMemo<ColumnsType<ContractItem>>(
    () => [
      {
        title: '계약명', dataIndex: 'name', key: 'name',
        render: (v: string, r) => (
          <Space orientation="vertical" size={0}>
            <Space size={6} style={{ whiteSpace: 'nowrap' }}>
              <Typography.Text strong>{v}</Typography.Text>
              <ContractStatusTag status={r.status} />
            </Space>
            {r.memo && <Typography.Text type="secondary" ellipsis={{ tooltip: r.memo }} style={{ maxWidth: 220, fontSize: 12 }}>{r.memo}</Typography.Text>}
          </Space>
        ),
      },
      {
        title: '기간', key: 'startsOn',
        render: (_: unknown, r) => (
          <Space orientation="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
            <span>{period(r)}</span>
            {r.stoppedOn && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.stoppedOn}에 중지</Typography.Text>}
          </Space>
        ),
      },
      {
        title: '수량 · 단가 (VAT 별도)', dataIndex: 'quantity', key: 'quantity', align: 'right',
        render: (_: unknown, r) => (
          <Tooltip title={`부가세 ${won0(vatOf(r.unitPrice))} · 합계 ${won0(r.unitPrice + vatOf(r.unitPrice))} (1건)`}>
            <span style={{ whiteSpace: 'nowrap' }}>{count(r.quantity)} × {won0(r.unitPrice)}</span>
          </Tooltip>
        ),
      },
      {
        title: '일 한도', dataIndex: 'dailyCap', key: 'dailyCap',
        render: (v: number | null, r) => (
          <Space size={4} style={{ whiteSpace: 'nowrap' }}>
            {v === null ? <Typography.Text type="secondary">없음</Typography.Text> : <span>{count(v)}</span>}
            {r.autoClose && <Tag color="blue">자동 마감</Tag>}
          </Space>
        ),
      },
      {
        title: '집계 대상', key: 'scope',
        render: (_: unknown, r) => (
          <>
            <Scope label="랜딩" names={r.landingTitles} />
            <Scope label="매체" names={r.mediaTypeNames} />
          </>
        ),
      },
      {
        title: '반품', key: 'returns',
        render: (_: unknown, r) => <span style={{ whiteSpace: 'nowrap' }}>{r.returnWindowDays}일 · 최대 {r.maxReturnRate}%</span>,
      },
      {
        title: '집계', key: 'counted',
        render: (_: unknown, r) => (
          <div style={{ width: 110 }}>
            <Typography.Text style={{ whiteSpace: 'nowrap' }}>
              {count(r.counted)} / {count(r.quantity)}
            </Typography.Text>
            <Progress percent={Math.min(100, Math.floor((r.counted / r.quantity) * 100))} size="small" showInfo={false} status="normal" aria-label={`${r.name} 집계 진행률`} />
          </div>
        ),
      },
      ...(writable || canStatus ? [{
        title: writable ? '관리' : '현황', key: 'actions', fixed: 'right' as const,
        render: (_: unknown, r: ContractItem) => (
          <Space size={0}>
            {canStatus && (
              <Link to={`/contract-status?contractId=${r.id}`} style={{ paddingInline: 4, whiteSpace: 'nowrap' }}>
                현황 보기
              </Link>
            )}
            {writable && <RowButton onClick={() => onEdit(r)}>수정</RowButton>}
            {writable && r.status !== 'stopped' && r.status !== 'completed' && <RowButton onClick={() => onStop(r)}>중지</RowButton>}
            {writable && r.status === 'stopped' && (
              <ConfirmAction
                label="재개"
                confirm="이 계약을 다시 집계할까요?"
                description="중지를 취소하고 계약 기간 끝까지 다시 집계합니다. 그 사이 다른 계약이 같은 날짜·랜딩·매체를 맡았다면 재개할 수 없습니다."
                run={() => call(api.resume, { params: { ...params, id: r.id } })}
                invalidates={CONTRACT_VIEWS}
                success="계약을 재개했습니다."
              />
            )}
            {writable && (
              <DeleteAction
                endpoint={api.remove}
                input={{ params: { ...params, id: r.id } }}
                invalidates={CONTRACT_VIEWS}
                confirm={`'${r.name}' 계약을 삭제할까요?`}
              />
            )}
          </Space>
        ),
      }] : []),
    ],
    // onEdit and onStop are stable in what they do; the row handlers need no refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [shopId, writable, canStatus],
  );
}

export function ContractsTab() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('contract-management', 'write');
  const canStatus = can('contract-status', 'read');
  const params = { shopId: shop.id };
  const modal = useFormModal<ContractItem>();
  const [stopping, setStopping] = useState<ContractItem | null>(null);
  const queryClient = useQueryClient();
  // ?new=1 (계약 현황's 계약 등록) opens the form for a new contract.
  const [search, patchSearch] = useSearchPatch();
  const creating = writable && search.get('new') === '1';
  const closeForm = () => {
    modal.close();
    if (creating) patchSearch({ new: null }, { replace: true });
  };

  const columns = useContractColumns({ shopId: shop.id, writable, canStatus, onEdit: modal.edit, onStop: setStopping });

  const register = writable && <CreateButton onClick={modal.create}>계약 등록</CreateButton>;

  return (
    <>
      <ResourceTable
        endpoint={api.list}
        params={params}
        columns={columns}
        filters={[
          { name: 'q', label: '계약명', type: 'search' },
          { name: 'status', label: '상태', type: 'select', options: CONTRACT_STATUSES.map((s) => ({ value: s, label: CONTRACT_STATUS_LABELS[s] })) },
        ]}
        toolbar={register}
        empty={
          <Space orientation="vertical" align="center">
            <span>아직 등록된 계약이 없습니다. 계약을 등록하면 기간·수량·단가에 맞춰 유효 DB를 집계하고 정산서를 만듭니다.</span>
            {register}
          </Space>
        }
      />
      <ContractForm shopId={shop.id} open={modal.open || creating} editing={creating ? null : modal.editing} onClose={closeForm} />
      <ReasonModal
        open={stopping !== null}
        title={stopping ? `계약 중지 · ${stopping.name}` : '계약 중지'}
        description="오늘 접수된 DB까지 이 계약에 집계하고, 내일부터는 집계하지 않습니다. 중지한 계약은 나중에 재개할 수 있습니다."
        okText="중지"
        danger
        schema={contractStopInput}
        placeholder="예: 업체 요청으로 조기 종료"
        submit={async (reason) => {
          await call(api.stop, { params: { ...params, id: stopping!.id }, body: { reason } });
          await invalidate(queryClient, CONTRACT_VIEWS);
          return '계약을 중지했습니다.';
        }}
        onClose={() => setStopping(null)}
      />
    </>
  );
}
