// What every resource screen repeats: the 관리 column (with write permission only), the row
// buttons in it, and saving a create-or-edit form through the resource's endpoints.
import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import type { CallInput, Endpoint } from '@contracts/endpoint.ts';
import { call, type CallArgs } from '@/lib/api.ts';

/** The 관리 column: shown only to accounts that may change the resource. */
export function actionsColumn<T>(writable: boolean, render: (row: T) => ReactNode): ColumnsType<T> {
  if (!writable) return [];
  return [{ title: '관리', key: 'actions', fixed: 'right', render: (_: unknown, row: T) => <Space size={0}>{render(row)}</Space> }];
}

/** A link-style row button (수정, 비밀번호 초기화 …). */
export function RowButton({ children, onClick }: { children: ReactNode; onClick: () => void }) {
  return (
    <Button type="link" size="small" onClick={onClick} style={{ paddingInline: 4 }}>
      {children}
    </Button>
  );
}

/** The toolbar's 등록 button (primary, with a plus), for accounts that may change the resource. */
export function CreateButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick}>
      {children}
    </Button>
  );
}

type Params<E extends Endpoint> = CallInput<E>['params'];

/**
 * The form's save: `update` of the row being edited, else `create`. `params` are the path
 * params both share (e.g. the current shop); the edited row's id joins them for `update`.
 */
export function saveWith<C extends Endpoint, U extends Endpoint>(
  api: { create: C; update: U },
  editing: { id: number } | null,
  params?: Params<C>,
): (body: CallInput<C>['body'] & CallInput<U>['body']) => Promise<unknown> {
  return (body) =>
    editing
      ? call(api.update, ...([{ params: { ...(params as object), id: editing.id }, body }] as unknown as CallArgs<U>))
      : call(api.create, ...([{ params, body }] as unknown as CallArgs<C>));
}
