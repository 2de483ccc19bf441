// Which shops each account may enter. Administrator-area types enter every shop.
import { useState } from 'react';
import { Form, Select, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { shopPermissionsApi, type ShopPermissionRow } from '@contracts/shop-permissions.ts';
import { authApi } from '@contracts/auth.ts';
import { AREA_LABELS } from '@contracts/permissions.ts';
import { call } from '@/lib/api.ts';
import { useShopOptions } from '@/lib/options.ts';
import { actionsColumn, RowButton } from '@/components/crud.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { ResourceTable } from '@/components/resource-table.tsx';
import { ResourceForm } from '@/components/resource-form.tsx';

export default function ShopPermissionSetting() {
  const { can } = useAuth();
  const writable = can('shop-permission-setting', 'write');
  const [editing, setEditing] = useState<ShopPermissionRow | null>(null);
  const shops = useShopOptions();
  const byId = new Map((shops.data?.items ?? []).map((s) => [s.id, s]));

  const columns: ColumnsType<ShopPermissionRow> = [
    { title: '아이디', dataIndex: 'loginId', key: 'loginId' },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '계정 유형', dataIndex: 'accountTypeName', key: 'accountTypeName' },
    {
      title: '접근 가능한 업체',
      key: 'shops',
      render: (_: unknown, row) =>
        row.area === 'admin' ? (
          <Tag color="blue">전체 업체 ({AREA_LABELS.admin})</Tag>
        ) : row.shopIds.length === 0 ? (
          <Typography.Text type="secondary">없음 — 로그인해도 업체 화면에 들어갈 수 없습니다</Typography.Text>
        ) : (
          <Space size={[4, 4]} wrap>
            {row.shopIds.map((id) => (
              <Tag key={id}>{byId.get(id)?.name ?? `#${id}`}</Tag>
            ))}
          </Space>
        ),
    },
    ...actionsColumn<ShopPermissionRow>(writable, (row) => row.area === 'shop' && <RowButton onClick={() => setEditing(row)}>업체 지정</RowButton>),
  ];

  return (
    <>
      <ResourceTable
        endpoint={shopPermissionsApi.list}
        rowKey="accountId"
        columns={columns}
        filters={[
          { name: 'q', label: '아이디·이름', type: 'search' },
          { name: 'area', label: '영역', type: 'select', options: [{ value: 'shop', label: AREA_LABELS.shop }, { value: 'admin', label: AREA_LABELS.admin }] },
        ]}
      />
      <ResourceForm<{ shopIds: number[] }>
        open={!!editing}
        title={`업체 접근 권한 — ${editing?.name ?? ''} (${editing?.loginId ?? ''})`}
        initialValues={editing ? { shopIds: editing.shopIds } : undefined}
        submit={(v) => call(shopPermissionsApi.update, { params: { accountId: editing!.accountId }, body: { shopIds: v.shopIds ?? [] } })}
        onClose={() => setEditing(null)}
        invalidates={[shopPermissionsApi.list, authApi.shops, authApi.session]}
      >
        <Form.Item label="업체" name="shopIds" extra="선택한 업체의 DB와 화면에만 들어갈 수 있습니다.">
          <Select
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="업체를 선택하세요"
            loading={shops.isLoading}
            options={(shops.data?.items ?? []).map((s) => ({ value: s.id, label: `${s.name} (${s.shopCode})` }))}
          />
        </Form.Item>
      </ResourceForm>
    </>
  );
}
