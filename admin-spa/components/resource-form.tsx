// The modal form every create/edit uses: validates inline with the contract's zod
// schema, shows the server's field errors next to their fields, never loses input (not
// even to an ended session: see lib/drafts.ts), and asks before Esc, × or 취소 throws
// changes away (lib/close-guard.ts).
import { useEffect, useId, useState, type ReactNode } from 'react';
import { App, Form, InputNumber, Modal, Switch, type FormInstance } from 'antd';
import type { z } from 'zod';
import { zodRule } from '@/lib/zod-rule.ts';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api.ts';
import { fieldErrors } from '@/lib/zod-rule.ts';
import type { Endpoint } from '@contracts/endpoint.ts';
import { invalidate } from '@/lib/use-call.ts';
import { useLocation } from 'react-router-dom';
import { hashOf } from '@/lib/drafts.ts';
import { useDraft } from '@/lib/use-draft.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';

interface ResourceFormProps<V> {
  open: boolean;
  title: string;
  initialValues?: Partial<V>;
  /** The API call; an ApiError's fields land on the form. */
  submit: (values: V) => Promise<unknown>;
  onClose: () => void;
  /** Endpoints whose data the form changes (their screens refresh after saving). */
  invalidates?: readonly Endpoint[];
  successMessage?: string;
  width?: number;
  children: ReactNode | ((form: FormInstance<V>) => ReactNode);
}

export function ResourceForm<V extends object>({
  open, title, initialValues, submit, onClose, invalidates = [], successMessage = '저장했습니다.', width = 560, children,
}: ResourceFormProps<V>) {
  const [form] = Form.useForm<V>();
  // A form name of its own keeps field ids unique beside the filter bar and other modals.
  const formName = `form-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const { saving, save } = useFormSave(form);
  const queryClient = useQueryClient();
  const guard = useCloseGuard(onClose);

  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues as never);
    }
  }, [open, initialValues, form]);
  // After the form is filled: what it was opened with is its saved state.
  const tracked = useTrackChanges(guard, form, open, hashOf(initialValues));
  // Input typed when the session ended comes back when the same form opens on the same data.
  const { pathname } = useLocation();
  useDraft(form, open ? `${pathname}|${title}|${hashOf(initialValues)}` : null, tracked.markChanged);

  async function onOk() {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const saved = await save(async () => {
      await submit(values);
      await invalidate(queryClient, invalidates);
      return successMessage;
    });
    if (saved) onClose();
  }

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText="저장"
      cancelText="취소"
      confirmLoading={saving}
      onOk={onOk}
      onCancel={guard.requestClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Form form={form} name={formName} layout="vertical" requiredMark="optional" onFinish={onOk} style={{ marginTop: 16 }}>
        {typeof children === 'function' ? children(form) : children}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}

/**
 * Saving a form: a busy flag, the success message, and on failure the server's field
 * errors next to their fields plus its message — the form keeps what the user typed.
 */
export function useFormSave<V>(form: FormInstance<V>) {
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();
  async function save(work: () => Promise<string>): Promise<boolean> {
    setSaving(true);
    try {
      message.success(await work());
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.fields) form.setFields(fieldErrors(err.fields) as never);
      message.error(err instanceof Error ? err.message : '저장하지 못했습니다.');
      return false;
    } finally {
      setSaving(false);
    }
  }
  return { saving, save };
}

/** Open/close state of a create-or-edit modal: `editing` is the row, or null for create. */
export function useFormModal<T>() {
  const [state, setState] = useState<{ open: boolean; editing: T | null }>({ open: false, editing: null });
  return {
    ...state,
    create: () => setState({ open: true, editing: null }),
    edit: (row: T) => setState({ open: true, editing: row }),
    close: () => setState((s) => ({ ...s, open: false })),
  };
}

/** The 정렬 순서 and 사용 fields of ordered, switchable rows (code tables, account types). */
export function OrderAndActiveFields({ schema }: { schema: z.ZodType }) {
  return (
    <>
      <Form.Item label="정렬 순서" name="sortOrder" rules={[zodRule(schema, 'sortOrder')]}>
        <InputNumber min={0} max={9999} style={{ width: 140 }} />
      </Form.Item>
      <Form.Item label="사용" name="active" valuePropName="checked">
        <Switch />
      </Form.Item>
    </>
  );
}
