// Accounts: create, edit, reset password, lock/unlock, disable; last login.
import { useState } from 'react';
import { Alert, Col, Form, Input, Row, Select, Tag, Tooltip, type FormInstance } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  ACCOUNT_STATUSES, ACCOUNT_STATUS_LABELS, accountCreate, accountsApi, accountUpdate, resetPasswordBody,
  type Account, type AccountCreate, type AccountUpdate,
} from '@contracts/accounts.ts';
import { formatPhone } from '@contracts/rules.ts';
import { call } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useAccountTypeOptions, useShopOptions } from '@/lib/options.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { ConfirmAction } from '@/components/confirm-action.tsx';
import { actionsColumn, CreateButton, RowButton, saveWith } from '@/components/crud.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const AccountCreateItem = schemaItem(accountCreate);
const AccountUpdateItem = schemaItem(accountUpdate);
const ResetPasswordBodyItem = schemaItem(resetPasswordBody);

const STATUS_COLORS: Record<Account['status'], string> = { active: 'green', locked: 'orange', disabled: 'default' };
const PASSWORD_HELP = '영문·숫자·특수문자 중 2종류로 10자 이상, 또는 3종류로 8자 이상';

export default function AccountSetting() {
  const { can, account: me } = useAuth();
  const writable = can('account-setting', 'write');
  const modal = useFormModal<Account>();
  const [resetting, setResetting] = useState<Account | null>(null);
  const types = useAccountTypeOptions();
  const editing = modal.editing;

  const columns: ColumnsType<Account> = [
    { title: '아이디', dataIndex: 'loginId', key: 'loginId', fixed: 'left' },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '계정 유형', dataIndex: 'accountTypeName', key: 'accountTypeName' },
    {
      title: '상태', dataIndex: 'status', key: 'status',
      render: (v: Account['status'], row) => (
        <Tooltip title={v === 'locked' && row.lockedUntil ? `${formatDateTime(row.lockedUntil)}까지 잠김` : undefined}>
          <Tag color={STATUS_COLORS[v]}>{ACCOUNT_STATUS_LABELS[v]}</Tag>
        </Tooltip>
      ),
    },
    { title: '연락처', dataIndex: 'phone', key: 'phone', render: (v: string | null) => (v ? formatPhone(v) : '-') },
    { title: '이메일', dataIndex: 'email', key: 'email', render: (v: string | null) => v ?? '-' },
    {
      title: '접근 업체', dataIndex: 'shopCount', key: 'shopCount',
      // Administrator-area types enter every shop; the count only matters for shop-area types.
      render: (v: number, row) => (types.types.find((t) => t.id === row.accountTypeId)?.area === 'admin' ? '전체' : `${v}곳`),
    },
    { title: '최근 로그인', dataIndex: 'lastLoginAt', key: 'lastLoginAt', render: formatDateTime },
    ...actionsColumn<Account>(writable, (row) => (
      <>
        <RowButton onClick={() => modal.edit(row)}>수정</RowButton>
        <RowButton onClick={() => setResetting(row)}>비밀번호 초기화</RowButton>
        {row.status === 'locked' ? (
          <ConfirmAction
            label="잠금 해제"
            confirm={`${row.loginId} 계정의 잠금을 해제할까요?`}
            run={() => call(accountsApi.unlock, { params: { id: row.id } })}
            invalidates={[accountsApi.list]}
          />
        ) : (
          <ConfirmAction
            label="잠금"
            danger
            disabled={row.id === me?.id || row.status === 'disabled'}
            confirm={`${row.loginId} 계정을 30분간 잠글까요? 로그인 중인 세션도 끝납니다.`}
            run={() => call(accountsApi.lock, { params: { id: row.id } })}
            invalidates={[accountsApi.list]}
          />
        )}
      </>
    )),
  ];

  return (
    <>
      <ResourceTable
        endpoint={accountsApi.list}
        columns={columns}
        filters={[
          { name: 'q', label: '아이디·이름·이메일', type: 'search' },
          { name: 'status', label: '상태', type: 'select', options: ACCOUNT_STATUSES.map((s) => ({ value: s, label: ACCOUNT_STATUS_LABELS[s] })) },
          { name: 'accountTypeId', label: '계정 유형', type: 'select', options: types.options },
        ]}
        toolbar={writable && <CreateButton onClick={modal.create}>계정 등록</CreateButton>}
      />
      <ResourceForm<AccountCreate & AccountUpdate>
        open={modal.open}
        title={editing ? `계정 수정 — ${editing.loginId}` : '계정 등록'}
        width={640}
        initialValues={
          editing
            ? { name: editing.name, phone: editing.phone ? formatPhone(editing.phone) : '', email: editing.email ?? '', accountTypeId: editing.accountTypeId, status: editing.status === 'disabled' ? 'disabled' : 'active' }
            : undefined
        }
        submit={saveWith(accountsApi, editing)}
        onClose={modal.close}
        invalidates={[accountsApi.list]}
      >
        {(form) => (
          <Row gutter={16}>
            {!editing && (
              <>
                <AccountCreateItem half label="아이디" name="loginId" required><Input maxLength={30} autoComplete="off" /></AccountCreateItem>
                <AccountCreateItem half label="초기 비밀번호" name="password" required extra={PASSWORD_HELP}>
                  <Input.Password autoComplete="new-password" />
                </AccountCreateItem>
              </>
            )}
            <AccountUpdateItem half label="이름" name="name" required><Input maxLength={30} /></AccountUpdateItem>
            <AccountUpdateItem half label="계정 유형" name="accountTypeId" required>
              <Select options={types.options} placeholder="선택" />
            </AccountUpdateItem>
            <AccountUpdateItem half label="연락처" name="phone"><Input placeholder="010-1234-5678" maxLength={20} /></AccountUpdateItem>
            <AccountUpdateItem half label="이메일" name="email"><Input maxLength={120} /></AccountUpdateItem>
            <Col span={24}>
              <ShopChoice form={form} types={types.types} editing={editing} />
            </Col>
            {editing && (
              <Col span={12}>
                <Form.Item label="사용 여부" name="status">
                  <Select
                    options={[
                      { value: 'active', label: '사용' },
                      { value: 'disabled', label: '사용 중지 (로그인 불가)' },
                    ]}
                  />
                </Form.Item>
              </Col>
            )}
          </Row>
        )}
      </ResourceForm>
      <ResourceForm<{ password: string }>
        open={!!resetting}
        title={`비밀번호 초기화 — ${resetting?.loginId ?? ''}`}
        submit={(body) => call(accountsApi.resetPassword, { params: { id: resetting!.id }, body })}
        onClose={() => setResetting(null)}
        invalidates={[accountsApi.list]}
        successMessage="비밀번호를 초기화했습니다. 잠금도 해제되었습니다. 다음 로그인 때 본인이 새 비밀번호를 정합니다."
      >
        <ResetPasswordBodyItem label="새 비밀번호" name="password" required extra={PASSWORD_HELP}>
          <Input.Password autoComplete="new-password" />
        </ResetPasswordBodyItem>
      </ResourceForm>
    </>
  );
}

type TypeOption = ReturnType<typeof useAccountTypeOptions>['types'][number];

/**
 * Which shops the account enters: administrator-area types enter every shop; a shop-area
 * account gets its shops here when created (later on 업체 권한 설정).
 */
function ShopChoice({ form, types, editing }: { form: FormInstance; types: TypeOption[]; editing: Account | null }) {
  const typeId = Form.useWatch('accountTypeId', form) as number | undefined;
  const area = types.find((t) => t.id === typeId)?.area;
  const shops = useShopOptions(area === 'shop' && !editing);
  const chosen = (Form.useWatch('shopIds', form) as number[] | undefined) ?? [];
  if (!area) return null;
  if (area === 'admin') {
    return <Alert type="info" showIcon style={{ marginBottom: 16 }} title="관리자 영역 유형은 모든 업체에 들어갈 수 있습니다." />;
  }
  if (editing) {
    return (
      <Alert
        type={editing.shopCount ? 'info' : 'warning'}
        showIcon
        style={{ marginBottom: 16 }}
        title={editing.shopCount ? `접근 업체 ${editing.shopCount}곳 — 업체 권한 설정 화면에서 바꿉니다.` : '이 계정은 들어갈 수 있는 업체가 없습니다. 업체 권한 설정 화면에서 업체를 지정하세요.'}
      />
    );
  }
  return (
    <Form.Item
      label="접근 업체"
      name="shopIds"
      extra={chosen.length ? '선택한 업체에만 들어갈 수 있습니다. 나중에 업체 권한 설정 화면에서 바꿀 수 있습니다.' : undefined}
      help={chosen.length ? undefined : '업체를 고르지 않으면 이 계정은 로그인해도 볼 수 있는 업체가 없습니다.'}
      validateStatus={chosen.length ? undefined : 'warning'}
    >
      <Select mode="multiple" options={shops.options} loading={shops.isLoading} placeholder="업체 선택" showSearch={{ optionFilterProp: 'label' }} allowClear />
    </Form.Item>
  );
}
