// A change that must say why (deleting, restoring, destroying leads): the reason typed in a
// modal, checked with the endpoint's own schema, the count said on the button. The server's
// field errors land on the field; other errors show above it.
import { useState, type ReactNode } from 'react';
import { Alert, App, Form, Input, Modal } from 'antd';
import type { z } from 'zod';
import { ApiError } from '@/lib/api.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';

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
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  // A reason typed is not thrown away by a stray Esc.
  const guard = useCloseGuard(() => onClose(false));
  useTrackChanges(guard, form, open);
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="취소"
      okButtonProps={{ danger }}
      confirmLoading={busy}
      destroyOnHidden
      afterClose={() => setError(null)}
      onCancel={guard.requestClose}
      onOk={async () => {
        const v = await form.validateFields().catch(() => null);
        if (!v) return;
        setBusy(true);
        setError(null);
        try {
          message.success(await submit(v.reason));
          onClose(true);
        } catch (err) {
          const fields = err instanceof ApiError ? err.fields : undefined;
          if (fields?.reason) form.setFields([{ name: 'reason', errors: [fields.reason] }]);
          else setError(err instanceof Error ? err.message : '처리하지 못했습니다.');
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form form={form} layout="vertical" requiredMark="optional" preserve={false}>
        <div style={{ marginBottom: 16 }}>{description}</div>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form.Item label="사유" name="reason" required rules={[zodRule(schema, 'reason')]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} showCount placeholder={placeholder} aria-label="사유" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
