// Versioned privacy policies of the current shop: write a draft, publish it (new submissions
// consent to it from then on), read published versions, which never change.
import { useMemo, useState } from 'react';
import { Alert, Button, Col, Descriptions, Divider, Form, Input, InputNumber, Modal, Radio, Row, Space, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  COLLECTORS, COLLECTOR_LABELS, POLICY_STATUSES, POLICY_STATUS_LABELS, privacyPoliciesApi, privacyPolicyInput, thirdParty, type PrivacyPolicy, type PrivacyPolicyInput, type ThirdParty,
} from '@contracts/privacy.ts';
import { call } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { ResourceTable } from '@/components/resource-table.tsx';
import { RowButton, saveWith } from '@/components/crud.tsx';
import { ResourceForm, useFormModal } from '@/components/resource-form.tsx';
import { ConfirmAction, DeleteAction } from '@/components/confirm-action.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const PrivacyPolicyItem = schemaItem(privacyPolicyInput);
const ThirdPartyItem = schemaItem(thirdParty);

type FormValues = Omit<PrivacyPolicyInput, 'officerName' | 'officerContact'> & { officerName?: string | null; officerContact?: string | null };

function toForm(p: PrivacyPolicy): FormValues {
  return {
    collector: p.collector, purpose: p.purpose, items: p.items, retentionDays: p.retentionDays, thirdParties: p.thirdParties.map((t) => ({ ...t })),
    officerName: p.officerName ?? '', officerContact: p.officerContact ?? '', body: p.body,
  };
}

function starter(): Partial<FormValues> {
  return {
    collector: 'operator',
    purpose: '상담 신청 접수 및 상담 진행, 서비스 안내',
    items: '이름, 연락처',
    retentionDays: 365,
    // The shop itself is named as recipient (or as collector) on the page: no row for it.
    thirdParties: [],
    officerName: '',
    officerContact: '',
    body: '',
  };
}

export default function PrivacyManagement() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('privacy-management', 'write');
  const params = { shopId: shop.id };
  const api = privacyPoliciesApi;
  const modal = useFormModal<PrivacyPolicy>();
  const [viewing, setViewing] = useState<PrivacyPolicy | null>(null);
  // Every page of the list names the current version and the draft: the smallest page is enough here.
  const head = useCall(api.list, { params, query: { pageSize: 1 } });
  const current = head.data?.current ?? undefined;
  const draft = head.data?.draft ?? undefined;
  const editing = modal.editing;
  // Stable while the modal is open: ResourceForm resets its fields whenever these change.
  const initialValues = useMemo(() => (editing ? toForm(editing) : current ? toForm(current) : starter()), [editing, current]);

  const columns: ColumnsType<PrivacyPolicy> = [
    {
      title: '버전', dataIndex: 'version', key: 'version',
      render: (v: number, row) => (
        <Space>
          <Typography.Text strong>{v}판</Typography.Text>
          {row.current && <Tag color="green">현재 적용</Tag>}
        </Space>
      ),
    },
    {
      title: '상태', dataIndex: 'status', key: 'status',
      render: (v: PrivacyPolicy['status']) => <Tag color={v === 'draft' ? 'gold' : 'blue'}>{POLICY_STATUS_LABELS[v]}</Tag>,
    },
    { title: '보유 기간', dataIndex: 'retentionDays', key: 'retentionDays', align: 'right', render: (v: number) => `${v.toLocaleString('ko-KR')}일` },
    {
      title: '제3자 제공', dataIndex: 'thirdParties', key: 'thirdParties',
      render: (v: ThirdParty[]) => (v.length ? v.map((t) => t.recipient).join(', ') : <Typography.Text type="secondary">없음</Typography.Text>),
    },
    { title: '게시일', dataIndex: 'publishedAt', key: 'publishedAt', render: formatDateTime },
    { title: '수정일', dataIndex: 'updatedAt', key: 'updatedAt', render: formatDateTime },
    {
      title: '관리', key: 'actions',
      render: (_: unknown, row) =>
        row.status === 'published' ? (
          <RowButton onClick={() => setViewing(row)}>보기</RowButton>
        ) : (
          <Space size={0}>
            <RowButton onClick={() => (writable ? modal.edit(row) : setViewing(row))}>{writable ? '수정' : '보기'}</RowButton>
            {writable && (
              <>
                <ConfirmAction
                  label="게시"
                  confirm={`${row.version}판을 게시할까요? 이후 새로 접수되는 신청부터 이 버전에 동의한 것으로 기록되며, 게시한 내용은 바꿀 수 없습니다.`}
                  run={() => call(api.publish, { params: { ...params, id: row.id } })}
                  invalidates={[api.list, api.options]}
                  success="처리방침을 게시했습니다. 새 신청부터 적용됩니다."
                />
                <DeleteAction endpoint={api.remove} input={{ params: { ...params, id: row.id } }} invalidates={[api.list]} confirm="이 초안을 삭제할까요?" success="초안을 삭제했습니다." />
              </>
            )}
          </Space>
        ),
    },
  ];

  return (
    <>
      {head.data && !current && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="게시된 개인정보 처리방침이 없습니다."
          description="처리방침을 게시해야 랜딩을 게시하고 신청을 받을 수 있습니다."
        />
      )}
      <ResourceTable
        endpoint={api.list}
        params={params}
        columns={columns}
        filters={[{ name: 'status', label: '상태', type: 'select', options: POLICY_STATUSES.map((s) => ({ value: s, label: POLICY_STATUS_LABELS[s] })) }]}
        empty="아직 처리방침이 없습니다. 새 버전을 작성해 게시하세요."
        toolbar={
          writable && (
            <Button type="primary" icon={<PlusOutlined />} disabled={!!draft} title={draft ? '작성 중인 초안을 먼저 게시하거나 삭제하세요.' : undefined} onClick={modal.create}>
              새 버전 작성
            </Button>
          )
        }
      />
      <ResourceForm<FormValues>
        open={modal.open}
        width={820}
        title={editing ? `${editing.version}판 초안 수정` : '새 버전 작성'}
        initialValues={initialValues}
        submit={saveWith(api, editing, params)}
        onClose={modal.close}
        invalidates={[api.list]}
        successMessage="초안을 저장했습니다. 게시하기 전까지는 적용되지 않습니다."
      >
        {!editing && current && (
          <Alert type="info" showIcon style={{ marginBottom: 16 }} title={`현재 적용 중인 ${current.version}판의 내용으로 시작합니다.`} />
        )}
        <PolicyFields />
      </ResourceForm>
      <PolicyView policy={viewing} onClose={() => setViewing(null)} />
    </>
  );
}

function PolicyFields() {
  return (
    <>
      <PrivacyPolicyItem label="개인정보를 수집하는 자" name="collector" required extra="운영사가 수집하면 처리방침에 운영사를 수집자로, 이 업체를 제공받는 자로 적습니다. 업체가 직접 수집하면 업체를 수집자로, 운영사를 처리를 위탁받은 자로 적습니다.">
        <Radio.Group options={COLLECTORS.map((c) => ({ value: c, label: COLLECTOR_LABELS[c] }))} />
      </PrivacyPolicyItem>
      <PrivacyPolicyItem label="수집·이용 목적" name="purpose" required>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
      </PrivacyPolicyItem>
      <Row gutter={16}>
        <Col xs={24} md={16}>
          <PrivacyPolicyItem label="수집 항목" name="items" required extra="이 업체의 모든 랜딩이 받는 항목을 쓰세요(예: 관심 진료). 랜딩의 동의 문구와 처리방침 페이지에는 그 랜딩이 받는 항목만 표시하고, 빠진 항목은 게시할 때 알려 드립니다.">
            <Input maxLength={500} placeholder="이름, 연락처" />
          </PrivacyPolicyItem>
        </Col>
        <Col xs={24} md={8}>
          <PrivacyPolicyItem label="보유 기간" name="retentionDays" required extra="지나면 DB를 자동 파기합니다.">
            <InputNumber min={1} max={3650} suffix="일" style={{ width: '100%' }} />
          </PrivacyPolicyItem>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain>
        제3자 제공
      </Divider>
      <Typography.Paragraph type="secondary">운영사가 수집하는 경우 이 업체는 제공받는 자로 자동 표시되므로 따로 적지 않아도 됩니다. 그 밖의 제공처만 적으세요.</Typography.Paragraph>
      <Form.List name="thirdParties">
        {(fields, { add, remove }) => (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            {fields.map(({ key, name }, i) => (
              <div key={key} style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: '12px 12px 0' }}>
                <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 8 }}>
                  <Typography.Text type="secondary">제공처 {i + 1}</Typography.Text>
                  <Button type="text" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(name)}>
                    삭제
                  </Button>
                </div>
                <Row gutter={12}>
                  <ThirdPartyItem half label="제공받는 자" name={[name, 'recipient']} required>
                    <Input maxLength={60} />
                  </ThirdPartyItem>
                  <ThirdPartyItem half label="보유·이용 기간" name={[name, 'period']} required>
                    <Input maxLength={100} placeholder="상담 완료 후 1년" />
                  </ThirdPartyItem>
                  <ThirdPartyItem half label="제공 목적" name={[name, 'purpose']} required>
                    <Input maxLength={200} />
                  </ThirdPartyItem>
                  <ThirdPartyItem half label="제공 항목" name={[name, 'items']} required>
                    <Input maxLength={200} />
                  </ThirdPartyItem>
                </Row>
              </div>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} disabled={fields.length >= 10} onClick={() => add({ recipient: '', purpose: '', items: '', period: '' })}>
              제공처 추가
            </Button>
          </Space>
        )}
      </Form.List>
      <Divider titlePlacement="start" plain>
        개인정보 보호책임자
      </Divider>
      <Row gutter={16}>
        <PrivacyPolicyItem half label="이름" name="officerName" extra="비우면 수집하는 자(운영사 또는 이 업체)의 보호책임자를 표시합니다.">
          <Input maxLength={30} />
        </PrivacyPolicyItem>
        <PrivacyPolicyItem half label="연락처" name="officerContact">
          <Input maxLength={60} placeholder="전화 또는 이메일" />
        </PrivacyPolicyItem>
      </Row>
      <PrivacyPolicyItem label="추가 내용" name="body" extra="위 항목 아래에 표시됩니다. 빈 줄로 문단을 나눕니다.">
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={20000} />
      </PrivacyPolicyItem>
    </>
  );
}

function PolicyView({ policy, onClose }: { policy: PrivacyPolicy | null; onClose: () => void }) {
  return (
    <Modal
      open={!!policy}
      width={820}
      title={policy && `개인정보 처리방침 ${policy.version}판`}
      onCancel={onClose}
      footer={<Button onClick={onClose}>닫기</Button>}
      destroyOnHidden
    >
      {policy && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          {policy.status === 'published' && (
            <Alert type="info" showIcon title={`${formatDateTime(policy.publishedAt)}에 게시된 버전입니다. 게시한 버전은 바꿀 수 없습니다.`} />
          )}
          <Descriptions bordered size="small" column={1} styles={{ label: { width: 140 } }}>
            <Descriptions.Item label="수집하는 자">{COLLECTOR_LABELS[policy.collector]}</Descriptions.Item>
            <Descriptions.Item label="수집·이용 목적">
              <span style={{ whiteSpace: 'pre-wrap' }}>{policy.purpose}</span>
            </Descriptions.Item>
            <Descriptions.Item label="수집 항목">{policy.items}</Descriptions.Item>
            <Descriptions.Item label="보유 기간">{policy.retentionDays.toLocaleString('ko-KR')}일</Descriptions.Item>
            <Descriptions.Item label="보호책임자">
              {[policy.officerName, policy.officerContact].filter(Boolean).join(' · ') || '수집하는 자의 보호책임자'}
            </Descriptions.Item>
          </Descriptions>
          <Table<ThirdParty>
            size="small"
            rowKey={(_, i) => String(i)}
            pagination={false}
            dataSource={policy.thirdParties}
            locale={{ emptyText: policy.collector === 'operator' ? '이 업체 외에는 제공하지 않습니다.' : '제3자에게 제공하지 않습니다.' }}
            columns={[
              { title: '제공받는 자', dataIndex: 'recipient' },
              { title: '제공 목적', dataIndex: 'purpose' },
              { title: '제공 항목', dataIndex: 'items' },
              { title: '보유·이용 기간', dataIndex: 'period' },
            ]}
          />
          {policy.body && (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{policy.body}</Typography.Paragraph>
          )}
        </Space>
      )}
    </Modal>
  );
}
