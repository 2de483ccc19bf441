// The three code-table screens (client, media and event types) share this screen.
import { useMemo } from 'react';
import { App, Form, Input, Switch, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { CODE_KIND_LABELS, CODE_KIND_SCREENS, codeItemInput, codeItemsApi, type CodeItem, type CodeItemInput, type CodeKind } from '@contracts/code-items.ts';
import { quoted } from '@contracts/korean.ts';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { ResourceTable } from './resource-table.tsx';
import { actionsColumn, CreateButton, RowButton, saveWith } from './crud.tsx';
import { OrderAndActiveFields, ResourceForm, useFormModal } from './resource-form.tsx';
import { DeleteAction } from './confirm-action.tsx';

export function CodeTableScreen({ kind }: { kind: CodeKind }) {
  const api = useMemo(() => codeItemsApi(kind), [kind]);
  const label = CODE_KIND_LABELS[kind];
  const { can } = useAuth();
  const writable = can(CODE_KIND_SCREENS[kind], 'write');
  const modal = useFormModal<CodeItem>();
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  async function toggle(row: CodeItem, active: boolean) {
    try {
      await call(api.update, { params: { id: row.id }, body: { name: row.name, code: row.code, sortOrder: row.sortOrder, active } });
      await invalidate(queryClient, [api.list]);
      message.success(active ? '사용으로 변경했습니다.' : '사용 안 함으로 변경했습니다.');
    } catch (err) {
      message.error((err as Error).message);
    }
  }

  const columns: ColumnsType<CodeItem> = [
    { title: '순서', dataIndex: 'sortOrder', key: 'sortOrder', width: 80 },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '코드', dataIndex: 'code', key: 'code', render: (v: string) => <Tag>{v}</Tag> },
    {
      title: '사용',
      dataIndex: 'active',
      key: 'active',
      render: (v: boolean, row) => <Switch size="small" checked={v} disabled={!writable} onChange={(next) => toggle(row, next)} aria-label={`${row.name} 사용`} />,
    },
    { title: '사용 건수', dataIndex: 'usage', key: 'usage', render: (v: number) => v.toLocaleString('ko-KR') },
    { title: '수정일', dataIndex: 'updatedAt', key: 'updatedAt', render: formatDateTime },
    ...actionsColumn<CodeItem>(writable, (row) => (
      <>
        <RowButton onClick={() => modal.edit(row)}>수정</RowButton>
        <DeleteAction endpoint={api.remove} input={{ params: { id: row.id } }} invalidates={[api.list]} disabled={row.usage > 0} confirm={`${quoted(row.name, '을/를')} 삭제할까요?`} />
      </>
    )),
  ];

  return (
    <>
      <ResourceTable
        endpoint={api.list}
        columns={columns}
        filters={[
          { name: 'q', label: '이름 또는 코드', type: 'search' },
          { name: 'active', label: '사용 여부', type: 'select', options: [{ value: 'true', label: '사용' }, { value: 'false', label: '사용 안 함' }] },
        ]}
        toolbar={writable && <CreateButton onClick={modal.create}>{label} 등록</CreateButton>}
      />
      <ResourceForm<CodeItemInput>
        open={modal.open}
        title={modal.editing ? `${label} 수정` : `${label} 등록`}
        initialValues={modal.editing ?? { sortOrder: 0, active: true }}
        submit={saveWith(api, modal.editing)}
        onClose={modal.close}
        invalidates={[api.list]}
      >
        <Form.Item label="이름" name="name" required rules={[zodRule(codeItemInput, 'name')]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item label="코드" name="code" required rules={[zodRule(codeItemInput, 'code')]} extra="영문·숫자·-·_ (연동용 식별자)">
          <Input maxLength={40} />
        </Form.Item>
        <OrderAndActiveFields schema={codeItemInput} />
      </ResourceForm>
    </>
  );
}
