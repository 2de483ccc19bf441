// A form in a drawer (계약 관리's contract, DB 전송 설정's channel): the footer's button submits
// the form by its name, Esc, × and 취소 ask first while the form holds unsaved changes, and a
// refusal that belongs to no field shows above the form (scrolled into sight). The body mounts
// while the drawer is open, so each opening starts from the record's values.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Drawer, Space } from 'antd';
import type { FormInstance } from 'antd';
import { ApiError } from '@/lib/api.ts';
import { fieldErrors } from '@/lib/zod-rule.ts';
import { useCloseGuard, type CloseGuard } from '@/lib/close-guard.ts';

/** What the drawer hands its body. */
export interface DrawerFormBody {
  /** The form's name: the footer's button submits it, and field ids stay unique beside the filter bar. */
  formName: string;
  guard: CloseGuard;
  onSaving: (saving: boolean) => void;
}

export function DrawerForm({ name, open, size, title, okText, onClose, children }: {
  /** What the form holds ('contract'): its name starts with it. */
  name: string;
  open: boolean;
  size: number;
  title: ReactNode;
  okText: string;
  onClose: () => void;
  children: (body: DrawerFormBody) => ReactNode;
}) {
  const formName = `${name}-${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const [saving, setSaving] = useState(false);
  const guard = useCloseGuard(onClose);
  return (
    <Drawer
      open={open}
      size={size}
      destroyOnHidden
      mask={{ closable: false }}
      onClose={guard.requestClose}
      title={title}
      footer={
        <Space>
          <Button type="primary" htmlType="submit" form={formName} loading={saving}>
            {okText}
          </Button>
          <Button onClick={guard.requestClose}>취소</Button>
        </Space>
      }
    >
      {open && children({ formName, guard, onSaving: setSaving })}
    </Drawer>
  );
}

/**
 * The body's submit: `save` runs with the footer's button loading; the server's field errors land
 * on their fields (named as the form names them by `onForm`), any other refusal in `refusal`,
 * which the body places at the top of its form.
 */
export function useDrawerFormSubmit<V>(
  form: FormInstance<V>,
  onSaving: (saving: boolean) => void,
  onForm: (fields: Record<string, string>) => Record<string, string>,
  save: (values: V) => Promise<void>,
) {
  const [refusal, setRefusal] = useState<string | null>(null);
  const top = useRef<HTMLDivElement>(null);
  // The refusal sits above the form, out of sight when the form was scrolled to its end.
  useEffect(() => {
    if (refusal) top.current?.scrollIntoView({ block: 'start' });
  }, [refusal]);

  async function submit(values: V) {
    onSaving(true);
    setRefusal(null);
    try {
      await save(values);
    } catch (err) {
      const fields = err instanceof ApiError && err.fields && Object.keys(err.fields).length ? fieldErrors(onForm(err.fields)) : null;
      if (fields) {
        form.setFields(fields as never);
        form.scrollToField(fields[0]!.name, { block: 'center' });
      } else {
        setRefusal(err instanceof Error ? err.message : '저장하지 못했습니다.');
      }
    } finally {
      onSaving(false);
    }
  }

  const banner = (
    <>
      <div ref={top} />
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} closable={{ onClose: () => setRefusal(null) }} />}
    </>
  );
  return { submit, refusal: banner };
}
