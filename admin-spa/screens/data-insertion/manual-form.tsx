// 직접 입력: one lead from a call, a visit or a paper form. Checked inline with the contract's
// schema, and by the server as intake checks a landing's lead (the server's field errors land on
// the fields); the answer says whether it was stored as a duplicate and to whom it went.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, AutoComplete, Button, Card, Checkbox, Col, Form, Input, Row, Select, Space, Typography, type FormInstance, type FormListFieldData } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  MAX_ANSWERS, dataInsertionApi, manualLeadInput, type ConsentBasis, type DataInsertionOptions, type ManualLeadResult,
} from '@contracts/data-insertion.ts';
import { leadsApi } from '@contracts/leads.ts';
import { shopDashboardApi } from '@contracts/shop-dashboard.ts';
import { formatPhone } from '@contracts/rules.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useFormSave } from '@/components/resource-form.tsx';
import { ConsentFields } from './consent-fields.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const ManualLeadItem = schemaItem(manualLeadInput);

interface Values {
  name: string;
  phone: string;
  landingId?: number | null;
  mediaTypeId?: number | null;
  memo?: string;
  answers?: Array<{ label: string; value?: string | string[] }>;
  marketingConsent?: boolean;
  sensitiveConsent?: boolean;
  consentBasis?: ConsentBasis;
  consentNote?: string;
}

/** What a new lead changes on other screens. */
const LEAD_VIEWS = [leadsApi.list, shopDashboardApi.get];


/** One answer: its question (the landing's, or any label) and the answer, a choice when the question has options. */
function AnswerRow({ form, field, landing, onRemove }: {
  form: FormInstance<Values>;
  field: FormListFieldData;
  landing: DataInsertionOptions['landings'][number] | undefined;
  onRemove: () => void;
}) {
  const label = form.getFieldValue(['answers', field.name, 'label']) as string | undefined;
  const question = landing?.fields.find((f) => f.label === label);
  return (
    <Row gutter={8} align="top" wrap={false}>
      <Col flex="220px">
        <Form.Item name={[field.name, 'label']} noStyle={false} style={{ marginBottom: 0 }} rules={[{ required: true, message: '항목 이름을 입력하세요.' }]}>
          <AutoComplete
            aria-label="항목 이름"
            placeholder="항목 (예: 지역)"
            options={(landing?.fields ?? []).map((f) => ({ value: f.label }))}
            onChange={() => form.setFieldValue(['answers', field.name, 'value'], undefined)}
          />
        </Form.Item>
      </Col>
      <Col flex="auto">
        <Form.Item name={[field.name, 'value']} style={{ marginBottom: 0 }} extra={question?.sensitive ? '민감정보: 별도 동의가 필요합니다.' : undefined}>
          {question?.options.length ? (
            <Select aria-label={`${question.label} 답`} allowClear placeholder="답 선택" options={question.options.map((o) => ({ value: o, label: o }))} />
          ) : (
            <Input aria-label="답" placeholder="답" maxLength={200} />
          )}
        </Form.Item>
      </Col>
      <Col flex="32px">
        <Button type="text" icon={<DeleteOutlined />} aria-label="답변 지우기" onClick={onRemove} />
      </Col>
    </Row>
  );
}

export function ManualForm({ shopId }: { shopId: number }) {
  const [form] = Form.useForm<Values>();
  const { saving, save } = useFormSave(form);
  const queryClient = useQueryClient();
  const options = useCall(dataInsertionApi.options, { params: { shopId } }, { staleTime: 60_000 });
  const [last, setLast] = useState<(ManualLeadResult & { name: string; phone: string }) | null>(null);
  const landingId = Form.useWatch('landingId', form);
  const landing = options.data?.landings.find((l) => l.id === landingId);
  const hasSensitive = !!landing?.fields.some((f) => f.sensitive);
  const mediaName = (id: number | null | undefined) => options.data?.mediaTypes.find((m) => m.id === id)?.name;

  function onLandingChange(id: number | undefined) {
    const next = options.data?.landings.find((l) => l.id === id);
    // The landing's questions become the answers to fill in (those already typed stay).
    const current = (form.getFieldValue('answers') as Values['answers']) ?? [];
    const typed = current.filter((a) => a?.label && a.value);
    const labels = new Set(typed.map((a) => a.label));
    form.setFieldValue('answers', [...typed, ...(next?.fields ?? []).filter((f) => !labels.has(f.label)).map((f) => ({ label: f.label, value: undefined }))]);
  }

  async function submit(v: Values) {
    await save(async () => {
      const answers = (v.answers ?? [])
        .filter((a) => a?.label && (Array.isArray(a.value) ? a.value.length : a.value))
        .map((a) => ({ label: a.label, value: Array.isArray(a.value) ? a.value.join(', ') : (a.value ?? '') }));
      const result = await call(dataInsertionApi.create, {
        params: { shopId },
        body: {
          name: v.name, phone: v.phone, landingId: v.landingId ?? null, mediaTypeId: v.mediaTypeId ?? null, memo: v.memo ?? '', answers,
          marketingConsent: !!v.marketingConsent, sensitiveConsent: !!v.sensitiveConsent, consentBasis: v.consentBasis as ConsentBasis, consentNote: v.consentNote ?? '',
        },
      });
      setLast({ ...result, name: v.name, phone: v.phone });
      await invalidate(queryClient, LEAD_VIEWS);
      // The next lead of the same call list keeps its landing, medium and basis.
      form.setFieldsValue({ name: '', phone: '', memo: '', marketingConsent: false, sensitiveConsent: false, answers: (landing?.fields ?? []).map((f) => ({ label: f.label, value: undefined })) });
      form.setFields([{ name: 'name', errors: [] }, { name: 'phone', errors: [] }]);
      return result.duplicateOf ? `${v.name} 님을 중복 DB로 등록했습니다.` : `${v.name} 님을 등록했습니다.`;
    });
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 960 }}>
      {last && (
        <Alert
          type={last.duplicateOf ? 'warning' : 'success'}
          showIcon
          closable
          onClose={() => setLast(null)}
          title={
            last.duplicateOf
              ? `${last.name} (${formatPhone(last.phone)}) 님은 ${formatDateTime(last.duplicateOf.createdAt)}에 접수된 ${last.duplicateOf.name} 님과 같은 번호라 중복 DB로 등록했습니다.`
              : `${last.name} (${formatPhone(last.phone)}) 님을 등록했습니다.`
          }
          description={
            <Space wrap>
              <span>담당: {last.assignee ? <Typography.Text strong>{last.assignee.name}</Typography.Text> : '미배분'}</span>
              <Link to={`/database-status?lead=${last.id}`}>DB 현황에서 보기</Link>
            </Space>
          }
        />
      )}
      {/* data-content: the form's choices have come (the first content of a screen without a list; bench:spa waits for it). */}
      <Card variant="borderless" title="DB 직접 입력" data-content={options.data ? 'ready' : undefined}>
        <Form<Values> form={form} name="manual-lead" layout="vertical" requiredMark="optional" onFinish={submit} initialValues={{ answers: [] }}>
          <Row gutter={16}>
            <ManualLeadItem half label="이름" name="name" required>
              <Input maxLength={30} autoComplete="off" />
            </ManualLeadItem>
            <ManualLeadItem half label="연락처" name="phone" required>
              <Input placeholder="010-1234-5678" maxLength={20} autoComplete="off" inputMode="tel" />
            </ManualLeadItem>
            <Col xs={24} md={12}>
              <Form.Item label="랜딩" name="landingId" extra="고르면 그 랜딩의 중복 기준·처리방침·매체를 따르고, 질문이 답변 칸에 채워집니다.">
                <Select
                  allowClear
                  placeholder="랜딩 없음"
                  loading={options.isLoading}
                  options={(options.data?.landings ?? []).map((l) => ({ value: l.id, label: l.title }))}
                  onChange={onLandingChange}
                  showSearch={{ optionFilterProp: 'label' }}
                />
              </Form.Item>
            </Col>
            <ManualLeadItem half label="매체" name="mediaTypeId">
              <Select
                allowClear
                placeholder={landing?.mediaTypeId ? `랜딩의 매체 (${mediaName(landing.mediaTypeId) ?? '-'})` : '매체 없음'}
                loading={options.isLoading}
                options={(options.data?.mediaTypes ?? []).map((m) => ({ value: m.id, label: m.name }))}
              />
            </ManualLeadItem>
            <Col xs={24}>
              <ManualLeadItem label="메모" name="memo">
                <Input.TextArea rows={3} maxLength={2000} showCount />
              </ManualLeadItem>
            </Col>
          </Row>

          <Form.Item label="답변" extra="고객이 답한 내용: 항목 이름과 답. 랜딩의 질문이면 랜딩 신청과 같은 항목으로 저장됩니다.">
            <Form.List name="answers">
              {(fields, { add, remove }) => (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {fields.map((field) => (
                    <AnswerRow key={field.key} form={form} field={field} landing={landing} onRemove={() => remove(field.name)} />
                  ))}
                  {fields.length < MAX_ANSWERS && (
                    <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ label: '', value: undefined })}>
                      답변 추가
                    </Button>
                  )}
                </Space>
              )}
            </Form.List>
          </Form.Item>

          <Row gutter={16}>
            <ConsentFields schema={manualLeadInput} label="개인정보 수집 근거" placeholder="어떻게 동의를 받았는지 고르세요" noteHint="녹취 파일, 서면 보관 위치 등" />
            <Col xs={24}>
              <Space wrap size={24}>
                <Form.Item name="marketingConsent" valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Checkbox>마케팅 정보 수신에 동의했습니다</Checkbox>
                </Form.Item>
                {hasSensitive && (
                  <Form.Item name="sensitiveConsent" valuePropName="checked" style={{ marginBottom: 8 }}>
                    <Checkbox>민감정보 처리에 별도로 동의했습니다</Checkbox>
                  </Form.Item>
                )}
              </Space>
            </Col>
          </Row>
          <Button type="primary" htmlType="submit" loading={saving}>
            등록
          </Button>
        </Form>
      </Card>
    </Space>
  );
}
