// 무효 교체 요청 from a lead's detail: whether the lead may be returned now (its contract's window
// and maximum rate, asked of the server), the request itself (a reason, and a note for 기타),
// and the lead's return so far as a tag. Shown to accounts that may read 계약 관리; a lead no
// contract counts shows nothing.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { RETURN_NOTE_REQUIRED, returnRequestInput, shopContractsApi, type Returnable } from '@contracts/shop-contracts.ts';
import { RETURN_REASONS, type ReturnReason } from '@contracts/money.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { RETURN_STATE_TAGS, percent } from '@/components/contracts/contract-tags.tsx';
import { RETURN_VIEWS } from '@/components/contracts/contract-views.ts';
import { useChangeModal } from '@/components/change-modal.tsx';

export function ReturnRequest({ shopId, leadId }: { shopId: number; leadId: number }) {
  const { can } = useAuth();
  const allowed = can('contract-management', 'read');
  const q = useCall(shopContractsApi.returnable, { params: { shopId, leadId } }, { enabled: allowed, staleTime: 0 });
  const [open, setOpen] = useState(false);
  const r = q.data;
  if (!allowed || !r || (!r.contract && !r.current)) return null;

  const current = r.current;
  const pending = current?.status === 'requested' || current?.status === 'approved';
  const tag = current && RETURN_STATE_TAGS[current.status];
  return (
    <>
      <Space wrap size={8}>
        {tag && (
          <Tooltip
            title={
              current.status === 'rejected'
                ? `${formatDateTime(current.decidedAt)} 반려${current.decisionNote ? ` · ${current.decisionNote}` : ''}`
                : `${formatDateTime(current.requestedAt)} 요청 · ${current.reason}${current.note ? ` · ${current.note}` : ''}`
            }
          >
            <Tag color={tag.color}>{tag.label}</Tag>
          </Tooltip>
        )}
        {!pending && (
          <Tooltip title={r.allowed ? null : r.reason}>
            {/* A disabled button takes no pointer events: the wrapper carries the tooltip. */}
            <span>
              <Button size="small" disabled={!r.allowed} onClick={() => setOpen(true)}>
                무효 교체 요청
              </Button>
            </span>
          </Tooltip>
        )}
        {r.contract && (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.contract.name}
            {r.deadline && !pending ? ` · ${formatDateTime(r.deadline)}까지 요청 가능` : ''} · 반품률 {percent(r.rateUsed)} / 최대 {r.maxReturnRate ?? r.contract.maxReturnRate}%
          </Typography.Text>
        )}
      </Space>
      <RequestModal shopId={shopId} leadId={leadId} r={r} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function RequestModal({ shopId, leadId, r, open, onClose }: { shopId: number; leadId: number; r: Returnable; open: boolean; onClose: () => void }) {
  const { form, modalProps, errorAlert } = useChangeModal<{ reason?: ReturnReason; note?: string }>({
    open, onCancel: onClose, fields: ['reason', 'note'], failure: '요청하지 못했습니다.',
  });
  const queryClient = useQueryClient();
  const reason = Form.useWatch('reason', form);
  const request = async (v: { reason?: ReturnReason; note?: string }) => {
    await call(shopContractsApi.requestReturn, { params: { shopId, leadId }, body: { reason: v.reason!, note: v.note ?? null } });
    await invalidate(queryClient, RETURN_VIEWS);
    return '무효 교체를 요청했습니다. 계약 관리의 무효 교체에서 승인을 기다립니다.';
  };

  return (
    <Modal open={open} title="무효 교체 요청" okText="요청" {...modalProps(request, onClose)}>
      <Form form={form} layout="vertical" requiredMark="optional" preserve={false}>
        <div style={{ marginBottom: 16 }}>
          {r.contract?.name} 계약에서 이 DB를 빼고 새 DB로 교체해 달라고 요청합니다. 승인되면 계약 집계에서 빠집니다.
          {r.maxReturnRate !== null && (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
              지금까지 반품 {r.returnsSoFar}건 / 공급 {r.delivered}건 ({percent(r.rateUsed)}) · 최대 {r.maxReturnRate}%
            </Typography.Text>
          )}
        </div>
        {errorAlert}
        <Form.Item label="사유" name="reason" required rules={[zodRule(returnRequestInput, 'reason')]}>
          <Select placeholder="반품 사유를 고르세요" options={RETURN_REASONS.map((x) => ({ value: x, label: x }))} aria-label="반품 사유" />
        </Form.Item>
        <Form.Item
          label="메모"
          name="note"
          required={reason === '기타'}
          dependencies={['reason']}
          rules={[
            zodRule(returnRequestInput, 'note'),
            ...(reason === '기타' ? [{ required: true, whitespace: true, message: RETURN_NOTE_REQUIRED }] : []),
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={500} showCount placeholder="확인한 내용 (예: 통화 시 본인 신청 아님)" aria-label="메모" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
