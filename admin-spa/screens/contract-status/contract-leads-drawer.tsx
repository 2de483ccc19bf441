// The leads behind one of a contract's figures (정산 대상, 한도 초과, 오늘, 중복, 무효, 반품,
// 삭제, 반품 요청 중), paged on the server, phones masked. A lead's name opens its detail, the
// drawer DB 현황 uses, on top of this one.
import { useState } from 'react';
import { Alert, Drawer, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface.js';
import {
  CONTRACT_LEAD_KINDS, CONTRACT_LEAD_KIND_LABELS, shopContractsApi, type ContractItem, type ContractLeadItem, type ContractLeadKind,
} from '@contracts/shop-contracts.ts';
import { PAGE_SIZES } from '@contracts/list.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { landingColumn, nameColumn, phoneColumn, receivedColumn, statusColumn, tagsColumn } from '@/components/leads/lead-columns.tsx';
import { LeadDrawer } from '@/components/leads/lead-drawer.tsx';
import { RETURN_STATE_TAGS } from '@/components/contracts/contract-tags.tsx';

export interface LeadsTarget {
  contract: ContractItem;
  kind: ContractLeadKind;
}

/** What each list holds, said under its title. */
const KIND_NOTES: Record<ContractLeadKind, string> = {
  counted: '계약 수량에 집계되어 청구되는 유효 DB입니다.',
  over: '유효하지만 일 한도나 계약 수량을 넘어 청구하지 않는 DB입니다.',
  today: '오늘 접수된 유효 DB입니다.',
  duplicate: '같은 전화번호로 다시 들어와 집계에서 빠진 DB입니다.',
  invalid: '무효 처리되어 집계에서 빠진 DB입니다.',
  returned: '무효 교체(반품)가 승인되어 집계에서 빠진 DB입니다.',
  deleted: '삭제되어 집계에서 빠진 DB입니다.',
  requested: '무효 교체를 요청해 승인을 기다리는 DB입니다.',
};

export function ContractLeadsDrawer({ shopId, target, onClose }: { shopId: number; target: LeadsTarget | null; onClose: () => void }) {
  return (
    <Drawer open={target !== null} size={860} onClose={onClose} destroyOnHidden title={target ? `${target.contract.name} · DB 목록` : 'DB 목록'}>
      {target && <Body key={target.contract.id} shopId={shopId} contract={target.contract} initialKind={target.kind} />}
    </Drawer>
  );
}

function Body({ shopId, contract, initialKind }: { shopId: number; contract: ContractItem; initialKind: ContractLeadKind }) {
  const { can, account } = useAuth();
  const canOpen = can('database-status', 'read');
  const [kind, setKind] = useState(initialKind);
  const [view, setView] = useState<{ page: number; pageSize: number; sort?: 'createdAt' | '-createdAt' }>({ page: 1, pageSize: 20 });
  const [openId, setOpenId] = useState<number | null>(null);
  const q = useCall(shopContractsApi.leads, { params: { shopId, id: contract.id }, query: { kind, ...view } }, { keepPrevious: true });

  const columns: ColumnsType<ContractLeadItem> = [
    receivedColumn({ sorter: true, sortOrder: view.sort === 'createdAt' ? 'ascend' : view.sort === '-createdAt' ? 'descend' : null }),
    // A deleted lead has no detail to open (it waits in 삭제 DB 관리).
    nameColumn(canOpen ? setOpenId : undefined, (r) => !r.deletedAt),
    phoneColumn({ render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> }),
    landingColumn(),
    statusColumn({ title: '상담 상태' }),
    tagsColumn({
      // A return shows as its request's state, not as 반품.
      validity: (r) => r.validity === 'invalid' && <Tag>무효</Tag>,
      more: (r) => (
        <>
          {r.deletedAt && (
            <Tooltip title={`${formatDateTime(r.deletedAt)} 삭제`}>
              <Tag>삭제</Tag>
            </Tooltip>
          )}
          {r.returnStatus && <Tag color={RETURN_STATE_TAGS[r.returnStatus].color}>{RETURN_STATE_TAGS[r.returnStatus].label}</Tag>}
        </>
      ),
    }),
  ];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Segmented<ContractLeadKind>
        value={kind}
        onChange={(k) => {
          setKind(k);
          setView((v) => ({ ...v, page: 1 }));
        }}
        options={CONTRACT_LEAD_KINDS.map((k) => ({ value: k, label: CONTRACT_LEAD_KIND_LABELS[k] }))}
        style={{ flexWrap: 'wrap' }}
      />
      <Typography.Text type="secondary">{KIND_NOTES[kind]} 연락처는 가려서 보여 줍니다.</Typography.Text>
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} />}
      <Table<ContractLeadItem>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={q.data?.items ?? []}
        loading={q.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: `${CONTRACT_LEAD_KIND_LABELS[kind]} DB가 없습니다.` }}
        onChange={(pagination, _f, sorter) => {
          const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<ContractLeadItem> | undefined;
          const sort = s?.order ? (s.order === 'descend' ? '-createdAt' : 'createdAt') : undefined;
          setView({ page: sort !== view.sort ? 1 : (pagination.current ?? 1), pageSize: pagination.pageSize ?? view.pageSize, sort });
        }}
        pagination={{
          current: view.page,
          pageSize: view.pageSize,
          total: q.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (total) => `총 ${total.toLocaleString('ko-KR')}건`,
        }}
      />
      {canOpen && (
        <LeadDrawer shopId={shopId} id={openId} writable={can('database-status', 'write')} canUnmask={account!.canUnmask} onOpen={setOpenId} onClose={() => setOpenId(null)} />
      )}
    </Space>
  );
}
