// 승인 or 반려 of a return request: approving takes the lead out of the contract's count (the
// remaining quantity brings its replacement); rejecting must say why. The server's field errors
// land on the note; anything else shows above it.
import { useQueryClient } from '@tanstack/react-query';
import { Descriptions, Form, Input, Modal } from 'antd';
import { REJECT_NOTE_REQUIRED, returnDecisionInput, shopContractsApi, type ReturnItem } from '@contracts/shop-contracts.ts';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { formatDateTime } from '@/lib/format.ts';
import { RETURN_VIEWS } from '@/components/contracts/contract-views.ts';
import { useChangeModal } from '@/components/change-modal.tsx';

export interface Decision {
  row: ReturnItem;
  approve: boolean;
}

export function DecisionModal({ shopId, decision, onClose }: { shopId: number; decision: Decision | null; onClose: () => void }) {
  const open = decision !== null;
  const { form, modalProps, errorAlert } = useChangeModal<{ note?: string }>({ open, onCancel: onClose, fields: ['note'], failure: '처리하지 못했습니다.' });
  const queryClient = useQueryClient();
  const approve = decision?.approve ?? true;
  const row = decision?.row;
  const decide = async (v: { note?: string }) => {
    await call(shopContractsApi.decideReturn, { params: { shopId, id: row!.id }, body: { approve, note: v.note ?? null } });
    await invalidate(queryClient, RETURN_VIEWS);
    return approve ? '무효 교체를 승인했습니다.' : '무효 교체 요청을 반려했습니다.';
  };

  return (
    <Modal
      open={open}
      title={approve ? '무효 교체 승인' : '무효 교체 반려'}
      okText={approve ? '승인' : '반려'}
      okButtonProps={{ danger: !approve }}
      {...modalProps(decide, onClose)}
    >
      {row && (
        <Form form={form} layout="vertical" requiredMark="optional" preserve={false}>
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label="계약">{row.contractName}</Descriptions.Item>
            <Descriptions.Item label="DB">
              {row.leadName} · {row.leadPhone} · {formatDateTime(row.leadCreatedAt)} 접수
            </Descriptions.Item>
            <Descriptions.Item label="사유">
              {row.reason}
              {row.note ? ` · ${row.note}` : ''}
            </Descriptions.Item>
          </Descriptions>
          <div style={{ marginBottom: 16 }}>
            {approve
              ? '승인하면 이 DB는 반품으로 바뀌어 계약 집계에서 빠지고, 남은 계약 수량 안에서 새 DB로 교체됩니다.'
              : '반려하면 이 DB는 그대로 계약에 집계됩니다. 요청한 사람이 볼 수 있도록 반려 사유를 적어 주세요.'}
          </div>
          {errorAlert}
          <Form.Item
            label={approve ? '처리 메모' : '반려 사유'}
            name="note"
            required={!approve}
            rules={[
              zodRule(returnDecisionInput, 'note'),
              ...(approve ? [] : [{ required: true, whitespace: true, message: REJECT_NOTE_REQUIRED }]),
            ]}
          >
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={500} showCount aria-label={approve ? '처리 메모' : '반려 사유'} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
