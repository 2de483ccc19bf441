// Account types: the roles accounts are given; their rights are set in 권한 설정.
import { Form, Input, Select, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { accountTypeInput, accountTypesApi, type AccountType, type AccountTypeInput } from '@contracts/account-types.ts';
import { AREA_LABELS, DATA_SCOPES, DATA_SCOPE_LABELS, SIDE_LABELS } from '@contracts/permissions.ts';
import { SIDES } from '@contracts/screens.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { OrderAndActiveFields, ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { DeleteAction } from '@/components/confirm-action.tsx';
import { actionsColumn, CreateButton, RowButton, saveWith } from '@/components/crud.tsx';
import { Link } from 'react-router-dom';
import { schemaItem } from '@/components/schema-item.tsx';

const AccountTypeItem = schemaItem(accountTypeInput);

export default function AccountTypeSetting() {
  const { can } = useAuth();
  const writable = can('account-type-setting', 'write');
  const modal = useFormModal<AccountType>();
  const editing = modal.editing;

  const columns: ColumnsType<AccountType> = [
    { title: '순서', dataIndex: 'sortOrder', key: 'sortOrder', width: 80 },
    {
      title: '이름', dataIndex: 'name', key: 'name',
      render: (v: string, row) => (
        <Space>
          {v}
          {row.builtinKey && <Tag color="blue">기본</Tag>}
        </Space>
      ),
    },
    { title: '영역', dataIndex: 'area', key: 'area', render: (v: AccountType['area']) => AREA_LABELS[v] },
    {
      title: '구분', dataIndex: 'side', key: 'side',
      render: (v: AccountType['side']) => <Tag color={v === 'agency' ? 'purple' : 'green'}>{SIDE_LABELS[v]}</Tag>,
    },
    { title: '데이터 범위', dataIndex: 'dataScope', key: 'dataScope', render: (v: AccountType['dataScope']) => DATA_SCOPE_LABELS[v] },
    {
      title: '개인정보 권한', key: 'rights',
      render: (_: unknown, row) => (
        <Space size={4}>
          {row.canUnmask && <Tag>마스킹 해제</Tag>}
          {row.canExport && <Tag>다운로드</Tag>}
          {!row.canUnmask && !row.canExport && '-'}
        </Space>
      ),
    },
    { title: '사용', dataIndex: 'active', key: 'active', render: (v: boolean) => (v ? <Tag color="green">사용</Tag> : <Tag>사용 안 함</Tag>) },
    { title: '계정 수', dataIndex: 'usage', key: 'usage' },
    { title: '수정일', dataIndex: 'updatedAt', key: 'updatedAt', render: formatDateTime },
    ...actionsColumn<AccountType>(writable, (row) => (
      <>
        <RowButton onClick={() => modal.edit(row)}>수정</RowButton>
        <Link to="/permission-setting" style={{ padding: '0 4px' }}>
          권한
        </Link>
        <DeleteAction
          endpoint={accountTypesApi.remove}
          input={{ params: { id: row.id } }}
          invalidates={[accountTypesApi.list, accountTypesApi.options]}
          disabled={!!row.builtinKey || row.usage > 0}
          confirm={`'${row.name}' 유형을 삭제할까요?`}
        />
      </>
    )),
  ];

  return (
    <>
      <ResourceTable
        endpoint={accountTypesApi.list}
        columns={columns}
        filters={[{ name: 'q', label: '유형 이름', type: 'search' }]}
        toolbar={writable && <CreateButton onClick={modal.create}>계정 유형 등록</CreateButton>}
      />
      <ResourceForm<AccountTypeInput>
        open={modal.open}
        title={editing ? '계정 유형 수정' : '계정 유형 등록'}
        initialValues={editing ?? { area: 'shop', side: 'client', dataScope: 'all', sortOrder: 10, active: true }}
        submit={saveWith(accountTypesApi, editing)}
        onClose={modal.close}
        invalidates={[accountTypesApi.list, accountTypesApi.options]}
      >
        {(form) => (
          <>
            <AccountTypeItem label="이름" name="name" required>
              <Input maxLength={30} />
            </AccountTypeItem>
            <AccountTypeItem label="영역" name="area" required extra="관리자 영역 유형은 모든 업체에 들어갈 수 있고, 업체 영역 유형은 허용된 업체에만 들어갑니다.">
              <Select
                disabled={editing?.builtinKey === 'superadmin'}
                options={(['admin', 'shop'] as const).map((a) => ({ value: a, label: AREA_LABELS[a] }))}
                // Every administrator-area type is the agency's (it spans every shop).
                onChange={(area) => area === 'admin' && form.setFieldValue('side', 'agency')}
              />
            </AccountTypeItem>
            <Form.Item noStyle dependencies={['area']}>
              {() => (
                <AccountTypeItem label="구분" name="side" extra="고객사 유형은 대행사 전용 화면(CPA 관리·광고 현황·랜딩 스크립트, 계약 관리 편집)과 수치(광고비·목표 CPA·CPA·마진)를 받을 수 없습니다. 대행사 직원의 유형만 대행사로 두세요.">
                  <Select
                    disabled={!!editing?.builtinKey || form.getFieldValue('area') === 'admin'}
                    options={SIDES.map((v) => ({ value: v, label: SIDE_LABELS[v] }))}
                  />
                </AccountTypeItem>
              )}
            </Form.Item>
            <AccountTypeItem label="데이터 범위" name="dataScope" required>
              <Select options={DATA_SCOPES.map((d) => ({ value: d, label: DATA_SCOPE_LABELS[d] }))} />
            </AccountTypeItem>
            <OrderAndActiveFields schema={accountTypeInput} />
          </>
        )}
      </ResourceForm>
    </>
  );
}
