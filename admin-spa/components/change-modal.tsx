// A modal form that makes one change (a reason, a request, a decision): it checks the form, is
// busy while the change runs, says the change's success, puts the server's errors on the form's
// own fields and any other error above them, and asks before a stray Esc throws typed input away.
import { useState, type ReactNode } from 'react';
import { Alert, App, Form, type ModalProps } from 'antd';
import { ApiError } from '@/lib/api.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';

export function useChangeModal<V extends object>({ open, onCancel, fields, failure }: {
  open: boolean;
  /** Closing without the change (×, Esc, 취소; asked first when something was typed). */
  onCancel: () => void;
  /** The form's fields: the server's errors on them land there. */
  fields: ReadonlyArray<keyof V & string>;
  /** What an error without a message of its own says. */
  failure: string;
}) {
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { message } = App.useApp();
  const guard = useCloseGuard(onCancel);
  useTrackChanges(guard, form, open);

  /** The Modal's props: OK checks the form and runs `change`, whose answer is the success message; then `done`. */
  const modalProps = (change: (values: V) => Promise<string>, done: () => void): ModalProps => ({
    cancelText: '취소',
    confirmLoading: busy,
    destroyOnHidden: true,
    afterClose: () => setError(null),
    onCancel: guard.requestClose,
    onOk: async () => {
      const v = await form.validateFields().catch(() => null);
      if (!v || !open) return;
      setBusy(true);
      setError(null);
      try {
        message.success(await change(v));
        done();
      } catch (err) {
        const sent = err instanceof ApiError ? err.fields : undefined;
        const mine = fields.filter((name) => sent?.[name]);
        if (sent && mine.length) form.setFields(mine.map((name) => ({ name, errors: [sent[name]!] })) as never);
        else setError(err instanceof Error ? err.message : failure);
      } finally {
        setBusy(false);
      }
    },
  });

  /** The error that belongs to no field, above the form's fields. */
  const errorAlert: ReactNode = error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />;
  return { form, modalProps, errorAlert };
}
