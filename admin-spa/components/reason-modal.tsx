// A change that must say why (deleting, restoring, destroying leads): the reason typed in a
// modal, checked with the endpoint's own schema, the count said on the button. The server's
// field errors land on the field; other errors show above it.
import type { ReactNode } from 'react';
import { Form, Input, Modal } from 'antd';
import type { z } from 'zod';
import { zodRule } from '@/lib/zod-rule.ts';
import { useChangeModal } from '@/components/change-modal.tsx';

interface ReasonModalProps {
  open: boolean;
  title: ReactNode;
  /** What will happen (the count, what can be undone and until when). */
  description: ReactNode;
  okText: string;
  danger?: boolean;
  /** The input schema whose `reason` field the form checks. */
  schema: z.ZodType;
  placeholder?: string;
  /** Runs the change with the reason; answers the success message. */
  submit: (reason: string) => Promise<string>;
  onClose: (done: boolean) => void;
}

export function ReasonModal({ open, title, description, okText, danger, schema, placeholder, submit, onClose }: ReasonModalProps) {
  const { form, modalProps, errorAlert } = useChangeModal<{ reason: string }>({ open, onCancel: () => onClose(false), fields: ['reason'], failure: '처리하지 못했습니다.' });
  return (
    <Modal open={open} title={title} okText={okText} okButtonProps={{ danger }} {...modalProps((v) => submit(v.reason), () => onClose(true))}>
      <Form form={form} layout="vertical" requiredMark="optional" preserve={false}>
        <div style={{ marginBottom: 16 }}>{description}</div>
        {errorAlert}
        <Form.Item label="사유" name="reason" required rules={[zodRule(schema, 'reason')]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} showCount placeholder={placeholder} aria-label="사유" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
