// The form side of drafts.ts: while a form is open under a key it can be kept when the
// session ends; opened again under the same key, it takes its draft back and says so.
import { useEffect } from 'react';
import dayjs from 'dayjs';
import { App, type FormInstance } from 'antd';
import { registerDraft, takeDraft } from './drafts.ts';
import { useAuth } from './auth.tsx';

/** Values from a draft back into the form's kinds (dates become dayjs again). */
export function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === 'object') {
    const date = (value as { $date?: unknown }).$date;
    if (typeof date === 'string') return dayjs(date);
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, x]) => [k, revive(x)]));
  }
  return value;
}

/**
 * `key` names the form and the data it was opened on (null while closed). `onRestore` sees the
 * restored values (e.g. to refresh a preview).
 */
export function useDraft<V>(form: FormInstance<V>, key: string | null, onRestore?: (values: V) => void): void {
  const { message } = App.useApp();
  const who = useAuth().account?.id;
  useEffect(() => {
    if (!key || who === undefined) return;
    const draft = takeDraft(key, who);
    if (draft !== undefined) {
      const values = revive(draft) as V;
      form.setFieldsValue(values as never);
      onRestore?.(form.getFieldsValue(true) as V);
      message.info('로그인이 만료되기 전에 입력하던 내용을 되살렸습니다. 확인 후 저장하세요.');
    }
    return registerDraft(key, form);
    // onRestore is read once, when the form opens under its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, key, who, message]);
}
