// The current shop's own details: business information shown on its landing pages and
// privacy policy, and its privacy officer. Read-only without write permission.
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Divider, Form, Input, Row, Skeleton, Space, Tag } from 'antd';
import { SHOP_STATUS_LABELS, shopDetails, shopsApi, type Shop, type ShopDetails } from '@contracts/shops.ts';
import { authApi } from '@contracts/auth.ts';
import { formatBusinessNumber, formatPhone } from '@contracts/rules.ts';
import { call } from '@/lib/api.ts';
import { apiKey, invalidate, useCall } from '@/lib/use-call.ts';
import { useFormSave } from '@/components/resource-form.tsx';
import { useDraft } from '@/lib/use-draft.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const ShopDetailsItem = schemaItem(shopDetails);

type FormValues = { [K in keyof ShopDetails]: string };

function toForm(s: Shop): FormValues {
  return {
    name: s.name, companyName: s.companyName ?? '', representative: s.representative ?? '',
    businessNumber: s.businessNumber ? formatBusinessNumber(s.businessNumber) : '', phone: s.phone ? formatPhone(s.phone) : '',
    address: s.address ?? '', privacyOfficerName: s.privacyOfficerName ?? '', privacyOfficerContact: s.privacyOfficerContact ?? '',
  };
}

export default function BaseInformation() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('base-information', 'write');
  const q = useCall(shopsApi.baseInformation, { params: { shopId: shop.id } });

  if (q.isError) return <Alert type="error" showIcon title={(q.error as Error).message} />;
  if (!q.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  return <DetailsForm key={q.data.updatedAt} shop={q.data} writable={writable} />;
}

function DetailsForm({ shop, writable }: { shop: Shop; writable: boolean }) {
  const [form] = Form.useForm<FormValues>();
  const { saving, save: run } = useFormSave(form);
  const queryClient = useQueryClient();
  useDraft(form, `base-information|${shop.id}|${shop.updatedAt}`);

  async function save(values: FormValues) {
    await run(async () => {
      const params = { shopId: shop.id };
      const saved = await call(shopsApi.updateBaseInformation, { params, body: values });
      queryClient.setQueryData(apiKey(shopsApi.baseInformation, { params }), saved);
      // The header's shop selector shows the name.
      await invalidate(queryClient, [authApi.shops, authApi.session]);
      return '기본 정보를 저장했습니다. 랜딩과 처리방침에 바로 반영됩니다.';
    });
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 960 }}>
      <Card variant="borderless">
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
          <Descriptions.Item label="업체 코드">
            <Tag>{shop.shopCode}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="업체 유형">{shop.clientTypeName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="상태">
            <Tag color={shop.status === 'active' ? 'green' : 'default'}>{SHOP_STATUS_LABELS[shop.status]}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="누적 DB">{formatNumber(shop.leadCount)}건</Descriptions.Item>
        </Descriptions>
      </Card>
      <Card variant="borderless" title="업체 정보" extra={`마지막 수정 ${formatDateTime(shop.updatedAt)}`}>
        {!writable && <Alert type="info" showIcon style={{ marginBottom: 16 }} title="편집 권한이 없어 볼 수만 있습니다." />}
        <Form form={form} name="base-information" layout="vertical" requiredMark="optional" initialValues={toForm(shop)} disabled={!writable} onFinish={save}>
          <Row gutter={16}>
            <ShopDetailsItem half label="업체명" name="name" required><Input maxLength={60} /></ShopDetailsItem>
            <ShopDetailsItem half label="상호" name="companyName" extra="랜딩 하단과 처리방침에 표시됩니다."><Input maxLength={60} /></ShopDetailsItem>
            <ShopDetailsItem half label="대표자" name="representative"><Input maxLength={30} /></ShopDetailsItem>
            <ShopDetailsItem half label="사업자등록번호" name="businessNumber" extra="국세청 검증 규칙으로 확인합니다.">
              <Input placeholder="123-45-67890" maxLength={12} />
            </ShopDetailsItem>
            <ShopDetailsItem half label="대표 전화" name="phone"><Input placeholder="02-1234-5678" maxLength={20} /></ShopDetailsItem>
            <ShopDetailsItem half label="주소" name="address"><Input maxLength={200} /></ShopDetailsItem>
          </Row>
          <Divider titlePlacement="start" plain>
            개인정보 보호책임자
          </Divider>
          <Row gutter={16}>
            <ShopDetailsItem half label="이름" name="privacyOfficerName"><Input maxLength={30} /></ShopDetailsItem>
            <ShopDetailsItem half label="연락처" name="privacyOfficerContact" extra="전화 또는 이메일"><Input maxLength={60} /></ShopDetailsItem>
          </Row>
          {writable && (
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                저장
              </Button>
              <Button onClick={() => form.resetFields()}>되돌리기</Button>
            </Space>
          )}
        </Form>
      </Card>
    </Space>
  );
}
