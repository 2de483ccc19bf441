// Deny rules for lead intake and back-office login, with hit counts and expiry.
import dayjs, { type Dayjs } from 'dayjs';
import { DatePicker, Form, Input, Select, Space, Tag, Typography, type FormInstance } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  DENY_KINDS, DENY_KIND_LABELS, DENY_SCOPES, DENY_SCOPE_LABELS, denyRuleInput, denyRulesApi, type DenyRule, type DenyKind, type DenyScope,
} from '@contracts/deny-rules.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { DeleteAction } from '@/components/confirm-action.tsx';
import { actionsColumn, CreateButton, RowButton, saveWith } from '@/components/crud.tsx';
import { beforeToday, fromPicker, toPicker } from '@/lib/seoul-time.ts';

interface FormValues {
  kind: DenyKind;
  value: string;
  scope: DenyScope;
  reason?: string;
  expiresAt?: Dayjs | null;
}

const PLACEHOLDERS: Record<DenyKind, string> = {
  ip: '203.0.113.7',
  cidr: '203.0.113.0/24',
  phone: '010-1234-5678',
  keyword: '차단할 단어 (이름·응답에 포함되면 차단)',
};

export default function AccessDenySetting() {
  const { can } = useAuth();
  const writable = can('access-deny-setting', 'write');
  const modal = useFormModal<DenyRule>();
  const editing = modal.editing;
  const now = dayjs();

  const columns: ColumnsType<DenyRule> = [
    { title: '종류', dataIndex: 'kind', key: 'kind', render: (v: DenyKind) => <Tag>{DENY_KIND_LABELS[v]}</Tag> },
    { title: '값', dataIndex: 'value', key: 'value', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: '적용 대상', dataIndex: 'scope', key: 'scope', render: (v: DenyScope) => <Tag color={v === 'intake' ? 'purple' : 'volcano'}>{DENY_SCOPE_LABELS[v]}</Tag> },
    { title: '사유', dataIndex: 'reason', key: 'reason', render: (v: string | null) => v ?? '-' },
    { title: '차단 횟수', dataIndex: 'hits', key: 'hits', render: (v: number) => v.toLocaleString('ko-KR') },
    { title: '최근 차단', dataIndex: 'lastHitAt', key: 'lastHitAt', render: formatDateTime },
    {
      title: '만료', dataIndex: 'expiresAt', key: 'expiresAt',
      render: (v: string | null) => (!v ? <Tag color="red">무기한</Tag> : dayjs(v).isBefore(now) ? <Tag>만료됨 {formatDateTime(v)}</Tag> : formatDateTime(v)),
    },
    { title: '등록', key: 'created', render: (_: unknown, r) => `${r.createdBy ?? '-'} · ${formatDateTime(r.createdAt)}` },
    ...actionsColumn<DenyRule>(writable, (row) => (
      <>
        <RowButton onClick={() => modal.edit(row)}>수정</RowButton>
        <DeleteAction endpoint={denyRulesApi.remove} input={{ params: { id: row.id } }} invalidates={[denyRulesApi.list]} confirm="이 차단 규칙을 삭제할까요?" />
      </>
    )),
  ];

  const toBody = (v: FormValues) => ({ ...v, reason: v.reason ?? '', expiresAt: fromPicker(v.expiresAt) });

  return (
    <>
      <ResourceTable
        endpoint={denyRulesApi.list}
        columns={columns}
        filters={[
          { name: 'q', label: '값 또는 사유', type: 'search' },
          { name: 'kind', label: '종류', type: 'select', options: DENY_KINDS.map((k) => ({ value: k, label: DENY_KIND_LABELS[k] })) },
          { name: 'scope', label: '적용 대상', type: 'select', options: DENY_SCOPES.map((s) => ({ value: s, label: DENY_SCOPE_LABELS[s] })) },
        ]}
        toolbar={writable && <CreateButton onClick={modal.create}>차단 규칙 등록</CreateButton>}
      />
      <ResourceForm<FormValues>
        open={modal.open}
        title={editing ? '차단 규칙 수정' : '차단 규칙 등록'}
        initialValues={
          editing
            ? { kind: editing.kind, value: editing.value, scope: editing.scope, reason: editing.reason ?? '', expiresAt: toPicker(editing.expiresAt) }
            : { kind: 'ip', scope: 'intake' }
        }
        submit={(v) => saveWith(denyRulesApi, editing)(toBody(v))}
        onClose={modal.close}
        invalidates={[denyRulesApi.list]}
      >
        {(form) => <DenyRuleFields form={form} />}
      </ResourceForm>
    </>
  );
}

/** Kind-dependent fields: the value is checked by the same schema the server uses. */
function DenyRuleFields({ form }: { form: FormInstance<FormValues> }) {
      const kind = (Form.useWatch('kind', form) ?? 'ip') as DenyKind;
      return (
        <>
          <Space.Compact block>
            <Form.Item label="종류" name="kind" required style={{ width: '40%' }}>
              <Select options={DENY_KINDS.map((k) => ({ value: k, label: DENY_KIND_LABELS[k] }))} />
            </Form.Item>
            <Form.Item label="적용 대상" name="scope" required style={{ width: '60%' }} rules={[{ required: true, message: '적용 대상을 선택하세요.' }]}>
              <Select
                options={DENY_SCOPES.map((s) => ({ value: s, label: DENY_SCOPE_LABELS[s], disabled: s === 'backoffice-login' && (kind === 'phone' || kind === 'keyword') }))}
              />
            </Form.Item>
          </Space.Compact>
          <Form.Item
            label="값"
            name="value"
            required
            dependencies={['kind', 'scope']}
            rules={[
              {
                validator: async (_r, value) => {
                  const result = denyRuleInput.safeParse({ ...form.getFieldsValue(), value: value ?? '', expiresAt: null, reason: '' });
                  const issue = result.success ? null : result.error.issues.find((i) => i.path[0] === 'value');
                  if (issue) throw new Error(issue.message);
                },
              },
            ]}
          >
            <Input placeholder={PLACEHOLDERS[kind]} maxLength={100} />
          </Form.Item>
          <Form.Item label="사유" name="reason">
            <Input maxLength={200} placeholder="예: 반복 허위 접수" />
          </Form.Item>
          <Form.Item label="만료 일시" name="expiresAt" extra="비우면 무기한 차단합니다.">
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={beforeToday} />
          </Form.Item>
        </>
      );
}
