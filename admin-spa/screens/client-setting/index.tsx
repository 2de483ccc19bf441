// Shops (clients): list, search, create, edit, disable; above them the agency's own details.
import { Col, Divider, Form, Input, Row, Select, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { SHOP_STATUSES, SHOP_STATUS_LABELS, shopInput, shopsApi, type Shop, type ShopInput } from '@contracts/shops.ts';
import { authApi } from '@contracts/auth.ts';
import { shopPermissionsApi } from '@contracts/shop-permissions.ts';
import { formatBusinessNumber, formatPhone } from '@contracts/rules.ts';
import { quoted } from '@contracts/korean.ts';
import { call } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useCodeOptions } from '@/lib/options.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { ConfirmAction } from '@/components/confirm-action.tsx';
import { actionsColumn, CreateButton, RowButton, saveWith } from '@/components/crud.tsx';
import { OperatorCard } from './operator-card.tsx';
import { BusinessFields } from '@/components/business-fields.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const ShopItem = schemaItem(shopInput);

/** Shops show in this list, the header's shop selector and the shop pickers. */
const SHOP_LISTS = [shopsApi.list, authApi.shops, shopPermissionsApi.shops];
const statusOptions = SHOP_STATUSES.map((s) => ({ value: s, label: SHOP_STATUS_LABELS[s] }));

function toForm(s: Shop): Partial<ShopInput> {
  return {
    shopCode: s.shopCode, name: s.name, clientTypeId: s.clientTypeId, status: s.status, companyName: s.companyName ?? '',
    representative: s.representative ?? '', businessNumber: s.businessNumber ? formatBusinessNumber(s.businessNumber) : '',
    phone: s.phone ? formatPhone(s.phone) : '', address: s.address ?? '', privacyOfficerName: s.privacyOfficerName ?? '',
    privacyOfficerContact: s.privacyOfficerContact ?? '',
  };
}

export default function ClientSetting() {
  const { can } = useAuth();
  const writable = can('client-setting', 'write');
  const modal = useFormModal<Shop>();
  const clientTypes = useCodeOptions('client-type');

  const columns: ColumnsType<Shop> = [
    { title: '업체명', dataIndex: 'name', key: 'name', fixed: 'left' },
    { title: '업체 코드', dataIndex: 'shopCode', key: 'shopCode', render: (v: string) => <Tag>{v}</Tag> },
    { title: '업체 유형', dataIndex: 'clientTypeName', key: 'clientTypeName', render: (v: string | null) => v ?? '-' },
    {
      title: '상태', dataIndex: 'status', key: 'status',
      render: (v: Shop['status']) => <Tag color={v === 'active' ? 'green' : 'default'}>{SHOP_STATUS_LABELS[v]}</Tag>,
    },
    { title: '사업자등록번호', dataIndex: 'businessNumber', key: 'businessNumber', render: (v: string | null) => (v ? formatBusinessNumber(v) : '-') },
    { title: '대표 전화', dataIndex: 'phone', key: 'phone', render: (v: string | null) => (v ? formatPhone(v) : '-') },
    { title: 'DB 수', dataIndex: 'leadCount', key: 'leadCount', render: (v: number) => v.toLocaleString('ko-KR') },
    { title: '등록일', dataIndex: 'createdAt', key: 'createdAt', render: formatDateTime },
    ...actionsColumn<Shop>(writable, (row) => (
      <>
        <RowButton onClick={() => modal.edit(row)}>수정</RowButton>
        <ConfirmAction
          label={row.status === 'active' ? '사용 중지' : '다시 사용'}
          danger={row.status === 'active'}
          confirm={row.status === 'active' ? `${quoted(row.name, '을/를')} 사용 중지할까요? 랜딩과 접수는 계속 동작합니다.` : `${quoted(row.name, '을/를')} 다시 사용할까요?`}
          run={() => call(shopsApi.update, { params: { id: row.id }, body: { ...toForm(row), status: row.status === 'active' ? 'disabled' : 'active' } as ShopInput })}
          invalidates={SHOP_LISTS}
        />
      </>
    )),
  ];

  const editing = modal.editing;
  return (
    <>
      <OperatorCard />
      <ResourceTable
        endpoint={shopsApi.list}
        columns={columns}
        filters={[
          { name: 'q', label: '업체명·코드·상호', type: 'search' },
          { name: 'status', label: '상태', type: 'select', options: statusOptions },
          { name: 'clientTypeId', label: '업체 유형', type: 'select', options: clientTypes.options },
        ]}
        toolbar={writable && <CreateButton onClick={modal.create}>업체 등록</CreateButton>}
      />
      <ResourceForm<ShopInput>
        open={modal.open}
        title={editing ? '업체 수정' : '업체 등록'}
        width={720}
        initialValues={editing ? toForm(editing) : { status: 'active' }}
        submit={saveWith(shopsApi, editing)}
        onClose={modal.close}
        invalidates={SHOP_LISTS}
      >
        <Row gutter={16}>
          <ShopItem half label="업체명" name="name" required>
            <Input maxLength={60} />
          </ShopItem>
          <ShopItem half label="업체 코드" name="shopCode" required extra={editing && editing.leadCount> 0 ? 'DB가 있는 업체의 코드는 바꿀 수 없습니다.' : '랜딩 주소에 쓰입니다: /view/업체코드/랜딩코드'}>
            <Input maxLength={40} disabled={!!editing && editing.leadCount > 0} />
          </ShopItem>
          <Col span={12}>
            <Form.Item label="업체 유형" name="clientTypeId">
              <Select allowClear options={clientTypes.options} placeholder="선택" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="상태" name="status">
              <Select options={statusOptions} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          사업자 정보
        </Divider>
        <BusinessFields schema={shopInput} />
      </ResourceForm>
    </>
  );
}
