// DB 배분 수정: take leads back from a counselor (to 미배분) or hand them to another, always with
// a reason; below, the history of every allocation and move — who, when, from whom to whom, why.
import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { SwapOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import { allocationApi, reassignInput, type AllocationEvent } from '@contracts/allocation.ts';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { useChangeModal } from '@/components/change-modal.tsx';
import { ResourceTable } from '@/components/resource-table.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { StatusTag } from '@/components/status-tag.tsx';

const MODE_LABELS: Record<string, string> = {
  manual: '수동', 'round-robin': '순환', weighted: '가중치', 'auto-round-robin': '자동 (순환)', 'auto-weighted': '자동 (가중치)', reassign: '재배분', return: '회수',
};
const RETURN = 0;

export default function DataAllocationModify() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('data-allocation-modify', 'write');
  const params = { shopId: shop.id };
  const { from, to, today, setPeriod } = usePeriod(30);
  const counselors = useCall(leadsApi.counselors, { params });
  const [selected, setSelected] = useState<number[]>([]);
  const [moving, setMoving] = useState(false);
  const counselorOptions = (counselors.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }));

  const columns: ColumnsType<LeadListItem> = [
    { title: '접수', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '연락처', dataIndex: 'phone', key: 'phone' },
    { title: '상태', dataIndex: 'csStatus', key: 'csStatus', render: (v: LeadListItem['csStatus']) => <StatusTag status={v} /> },
    { title: '담당', dataIndex: 'assigneeName', key: 'assigneeName', render: (v: string | null) => v ?? <Typography.Text type="secondary">미배분</Typography.Text> },
    { title: '랜딩', dataIndex: 'landingTitle', key: 'landing', render: (v: string | null) => <Typography.Text ellipsis style={{ maxWidth: 200 }}>{v ?? '직접 등록'}</Typography.Text> },
  ];

  const historyColumns: ColumnsType<AllocationEvent> = [
    { title: '시각', dataIndex: 'at', key: 'at', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: 'DB', key: 'lead', render: (_: unknown, e) => `${e.leadName} (#${e.leadId})` },
    {
      title: '담당 변경', key: 'move',
      render: (_: unknown, e) => (
        <Space size={4}>
          <span>{e.fromName ?? <Typography.Text type="secondary">미배분</Typography.Text>}</span>→<Typography.Text strong>{e.toName ?? '미배분'}</Typography.Text>
        </Space>
      ),
    },
    { title: '방식', dataIndex: 'mode', key: 'mode', render: (v: string | null) => (v ? <Tag>{MODE_LABELS[v] ?? v}</Tag> : '-') },
    { title: '사유', dataIndex: 'reason', key: 'reason', render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text> },
    { title: '처리자', dataIndex: 'byName', key: 'byName', render: (v: string | null) => v ?? <Typography.Text type="secondary">자동</Typography.Text> },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <ResourceTable
        title="담당 옮기기"
        endpoint={leadsApi.list}
        params={params}
        extraQuery={{ from, to }}
        columns={columns}
        filters={[
          { name: 'assignee', label: '담당', type: 'select', options: [{ value: 'none', label: '미배분' }, ...counselorOptions] },
          { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 180 },
          { name: 'status', label: '상태', type: 'multi', options: ['미처리', '부재', '상담예약', '통화완료', '보류'].map((s) => ({ value: s, label: s })) },
        ]}
        rowSelection={writable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        toolbar={
          <>
            <PeriodPicker label="접수 기간" from={from} to={to} today={today} onChange={setPeriod} />
            {writable && (
              <Button type="primary" icon={<SwapOutlined />} disabled={!selected.length} onClick={() => setMoving(true)}>
                선택한 {selected.length}건 옮기기
              </Button>
            )}
          </>
        }
      />
      <ResourceTable title="배분 기록" urlPrefix="h." endpoint={allocationApi.history} params={params} columns={historyColumns} empty="아직 배분한 기록이 없습니다." />
      <MoveModal
        open={moving}
        shopId={shop.id}
        ids={selected}
        options={counselors.data?.items ?? []}
        onClose={(done) => {
          setMoving(false);
          if (done) setSelected([]);
        }}
      />
    </Space>
  );
}

function MoveModal({ open, shopId, ids, options, onClose }: {
  open: boolean;
  shopId: number;
  ids: number[];
  options: Array<{ id: number; name: string }>;
  onClose: (done: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const { form, modalProps, errorAlert } = useChangeModal<{ to: number; reason: string }>({ open, onCancel: () => onClose(false), fields: ['to', 'reason'], failure: '옮기지 못했습니다.' });
  const move = async (v: { to: number; reason: string }) => {
    const { moved } = await call(allocationApi.reassign, { params: { shopId }, body: { leadIds: ids, to: v.to === RETURN ? null : v.to, reason: v.reason } });
    await invalidate(queryClient, [leadsApi.list, leadsApi.get, allocationApi.history, allocationApi.state]);
    return `${formatNumber(moved)}건을 ${v.to === RETURN ? '미배분으로 회수' : '옮겼'}습니다.`;
  };
  return (
    <Modal open={open} title={`선택한 ${ids.length}건 옮기기`} okText="옮기기" {...modalProps(move, () => onClose(true))}>
      <Form form={form} layout="vertical" requiredMark="optional">
        {errorAlert}
        <Form.Item label="옮길 곳" name="to" required rules={[{ required: true, message: '옮길 담당을 고르세요.' }]}>
          <Select
            placeholder="상담원 또는 미배분"
            options={[{ value: RETURN, label: '미배분으로 회수' }, ...options.map((c) => ({ value: c.id, label: c.name }))]}
          />
        </Form.Item>
        <Form.Item label="사유" name="reason" required rules={[zodRule(reassignInput, 'reason')]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} placeholder="예: 상담원 휴가, 지역 담당 변경" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
