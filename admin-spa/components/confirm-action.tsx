// A destructive or state-changing row action behind a confirmation.
import { useState, type ReactNode } from 'react';
import { App, Button, Popconfirm } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { listQueryKey } from './resource-table.tsx';
import { api } from '../lib/api.ts';

export interface ConfirmActionProps {
  label: ReactNode;
  confirm: string;
  /** More to know before confirming (shown under the question). */
  description?: ReactNode;
  run: () => Promise<unknown>;
  invalidates?: string[];
  danger?: boolean;
  success?: string;
  disabled?: boolean;
}

export function ConfirmAction({ label, confirm, description, run, invalidates = [], danger, success = '처리했습니다.', disabled }: ConfirmActionProps) {
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return (
    <Popconfirm
      title={confirm}
      description={description && <div style={{ maxWidth: 360 }}>{description}</div>}
      okText="확인"
      cancelText="취소"
      okButtonProps={{ danger }}
      disabled={disabled}
      onConfirm={async () => {
        setBusy(true);
        try {
          await run();
          await Promise.all(invalidates.map((e) => queryClient.invalidateQueries({ queryKey: listQueryKey(e) })));
          message.success(success);
        } catch (err) {
          message.error(err instanceof Error ? err.message : '처리하지 못했습니다.');
        } finally {
          setBusy(false);
        }
      }}
    >
      <Button type="link" size="small" danger={danger} loading={busy} disabled={disabled} style={{ paddingInline: 4 }}>
        {label}
      </Button>
    </Popconfirm>
  );
}

/** The row's 삭제: DELETE `${endpoint}/${id}` behind a confirmation, then the list refreshes. */
export function DeleteAction({ endpoint, id, confirm, disabled, success = '삭제했습니다.' }: {
  endpoint: string;
  id: number;
  confirm: string;
  disabled?: boolean;
  success?: string;
}) {
  return <ConfirmAction label="삭제" danger disabled={disabled} confirm={confirm} run={() => api.del(`${endpoint}/${id}`)} invalidates={[endpoint]} success={success} />;
}
