// A destructive or state-changing row action behind a confirmation.
import { useState, type ReactNode } from 'react';
import { App, Button, Popconfirm } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { CallInput, Endpoint } from '@contracts/endpoint.ts';
import { call, type CallArgs } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';

interface ConfirmActionProps {
  label: ReactNode;
  confirm: string;
  /** More to know before confirming (shown under the question). */
  description?: ReactNode;
  run: () => Promise<unknown>;
  /** Endpoints whose data the action changes (their screens refresh). */
  invalidates?: readonly Endpoint[];
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
          await invalidate(queryClient, invalidates);
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

/** The row's 삭제: the delete endpoint behind a confirmation, then the lists of `invalidates` refresh. */
export function DeleteAction<E extends Endpoint>({ endpoint, input, invalidates, confirm, disabled, success = '삭제했습니다.' }: {
  endpoint: E;
  input: CallInput<E>;
  invalidates: readonly Endpoint[];
  confirm: string;
  disabled?: boolean;
  success?: string;
}) {
  return (
    <ConfirmAction label="삭제" danger disabled={disabled} confirm={confirm} run={() => call(endpoint, ...([input] as CallArgs<E>))} invalidates={invalidates} success={success} />
  );
}
