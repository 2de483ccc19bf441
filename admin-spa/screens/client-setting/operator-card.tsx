// The agency's own details: named as the collector on every landing's privacy page (unless a
// shop collects for itself). Every administrator sees them; only a 최고관리자 changes them.
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Skeleton, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { operatorApi, operatorInput, type Operator, type OperatorInput } from '@contracts/operator.ts';
import { formatBusinessNumber, formatPhone } from '@contracts/rules.ts';
import { call } from '@/lib/api.ts';
import { apiKey, useCall } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { BusinessFields } from '@/components/business-fields.tsx';


const toForm = (o: Operator): Partial<OperatorInput> => ({
  ...o, businessNumber: o.businessNumber ? formatBusinessNumber(o.businessNumber) : '', phone: o.phone ? formatPhone(o.phone) : '',
});

export function OperatorCard() {
  const queryClient = useQueryClient();
  const q = useCall(operatorApi.get);
  const modal = useFormModal<Operator>();
  if (!q.data) return <Skeleton active paragraph={{ rows: 2 }} />;
  const { operator, editable } = q.data;

  return (
    <Card
      variant="borderless"
      style={{ marginBottom: 16 }}
      title="운영사 정보"
      extra={
        editable ? (
          <Button icon={<EditOutlined />} onClick={() => (operator ? modal.edit(operator) : modal.create())}>
            {operator ? '수정' : '등록'}
          </Button>
        ) : (
          <Typography.Text type="secondary">최고관리자만 바꿀 수 있습니다</Typography.Text>
        )
      }
    >
      {operator ? (
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label="상호">{operator.companyName}</Descriptions.Item>
          <Descriptions.Item label="대표자">{operator.representative}</Descriptions.Item>
          <Descriptions.Item label="사업자등록번호">{operator.businessNumber ? formatBusinessNumber(operator.businessNumber) : '-'}</Descriptions.Item>
          <Descriptions.Item label="주소">{operator.address}</Descriptions.Item>
          <Descriptions.Item label="대표 전화">{operator.phone ? formatPhone(operator.phone) : '-'}</Descriptions.Item>
          <Descriptions.Item label="개인정보 보호책임자">
            {operator.privacyOfficerName} · {operator.privacyOfficerContact}
          </Descriptions.Item>
        </Descriptions>
      ) : (
        <Alert
          type="warning"
          showIcon
          title="운영사 정보가 없습니다"
          description="랜딩의 개인정보 처리방침은 개인정보를 수집하는 자로 운영사를 적어야 합니다. 등록하기 전에는 운영사가 수집하는 처리방침을 쓰는 랜딩을 게시할 수 없습니다."
        />
      )}
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
        랜딩의 개인정보 처리방침에 수집하는 자로 표시됩니다 (업체가 직접 수집하는 처리방침에서는 처리를 위탁받은 자로 표시).
        {operator && ` 마지막 수정 ${formatDateTime(operator.updatedAt)}`}
      </Typography.Paragraph>
      <ResourceForm<OperatorInput>
        open={modal.open}
        title={operator ? '운영사 정보 수정' : '운영사 정보 등록'}
        width={640}
        initialValues={operator ? toForm(operator) : undefined}
        submit={async (v) => queryClient.setQueryData(apiKey(operatorApi.get), await call(operatorApi.update, { body: v }))}
        onClose={modal.close}
        successMessage="운영사 정보를 저장했습니다. 공개 중인 개인정보 처리방침에 바로 반영됩니다."
      >
        <BusinessFields
          schema={operatorInput}
          required={['companyName', 'representative', 'address', 'privacyOfficerName', 'privacyOfficerContact']}
        />
      </ResourceForm>
    </Card>
  );
}
