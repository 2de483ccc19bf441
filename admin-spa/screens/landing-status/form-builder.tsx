// The landing's form: name and phone are always there; up to ten extra fields
// (short text, select, radio, checkbox) with label, key, required flag and options, in order.
import { Button, Card, Checkbox, Col, Form, Input, Row, Select, Space, Tag, Tooltip, Typography, type FormInstance } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, LockOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { FIELD_TYPES, FIELD_TYPE_LABELS, type FieldType } from '@contracts/landings.ts';
import { landingRule, type EditorField, type EditorValues } from './landing-form.ts';

const MAX_FIELDS = 10;
const typeOptions = FIELD_TYPES.map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] }));

function FixedField({ label, hint }: { label: string; hint: string }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '8px 12px', background: '#fafafa', border: '1px solid #f0f0f0', borderRadius: 8 }}>
      <LockOutlined style={{ color: '#8c8c8c' }} />
      <Typography.Text strong>{label}</Typography.Text>
      <Tag color="blue">필수</Tag>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {hint}
      </Typography.Text>
    </div>
  );
}

/** The next unused key like field1, field2 … */
function nextKey(fields: EditorField[]): string {
  const used = new Set(fields.map((f) => f.key));
  let n = fields.length + 1;
  while (used.has(`field${n}`)) n += 1;
  return `field${n}`;
}

export function FormBuilder({ form, disabled }: { form: FormInstance<EditorValues>; disabled: boolean }) {
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <FixedField label="이름" hint="기본 항목 · 삭제할 수 없습니다" />
      <FixedField label="연락처" hint="기본 항목 · 휴대전화·유선 번호를 확인합니다" />
      <Form.List name="formFields">
        {(fields, { add, remove, move }) => (
          <>
            {fields.map(({ key, name }, index) => (
              <FieldCard key={key} form={form} name={name} index={index} count={fields.length} disabled={disabled} remove={remove} move={move} />
            ))}
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              disabled={disabled || fields.length >= MAX_FIELDS}
              onClick={() => add({ key: nextKey(form.getFieldValue('formFields') ?? []), label: '', type: 'short-text', options: [], required: false, sensitive: false })}
            >
              항목 추가 ({fields.length}/{MAX_FIELDS})
            </Button>
          </>
        )}
      </Form.List>
    </Space>
  );
}

interface FieldCardProps {
  form: FormInstance<EditorValues>;
  name: number;
  index: number;
  count: number;
  disabled: boolean;
  remove: (i: number) => void;
  move: (from: number, to: number) => void;
}

function FieldCard({ form, name, index, count, disabled, remove, move }: FieldCardProps) {
  const type = Form.useWatch(['formFields', name, 'type'], form) as FieldType | undefined;
  const label = Form.useWatch(['formFields', name, 'label'], form) as string | undefined;
  const choice = type !== undefined && type !== 'short-text';
  return (
    <Card
      size="small"
      title={
        <Space>
          <Typography.Text type="secondary">추가 항목 {index + 1}</Typography.Text>
          <span>{label || '(이름 없음)'}</span>
        </Space>
      }
      extra={
        <Space size={0}>
          <Tooltip title="위로">
            <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={`추가 항목 ${index + 1} 위로`} disabled={disabled || index === 0} onClick={() => move(index, index - 1)} />
          </Tooltip>
          <Tooltip title="아래로">
            <Button
              type="text"
              size="small"
              icon={<ArrowDownOutlined />}
              aria-label={`추가 항목 ${index + 1} 아래로`}
              disabled={disabled || index === count - 1}
              onClick={() => move(index, index + 1)}
            />
          </Tooltip>
          <Tooltip title="삭제">
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`추가 항목 ${index + 1} 삭제`} disabled={disabled} onClick={() => remove(index)} />
          </Tooltip>
        </Space>
      }
    >
      <Row gutter={12}>
        <Col xs={24} md={9}>
          <Form.Item label="항목 이름" name={[name, 'label']} required rules={[landingRule(form, ['formFields', name, 'label'])]}>
            <Input maxLength={40} placeholder="예: 희망 지점" />
          </Form.Item>
        </Col>
        <Col xs={12} md={7}>
          <Form.Item
            label="키"
            name={[name, 'key']}
            required
            tooltip="접수 데이터와 연동에 쓰는 영문 식별자"
            rules={[landingRule(form, ['formFields', name, 'key'])]}
          >
            <Input maxLength={30} placeholder="branch" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item label="유형" name={[name, 'type']} required>
            <Select options={typeOptions} />
          </Form.Item>
        </Col>
        <Col span={24} style={{ marginBottom: 16 }}>
          <Space size={24} wrap>
            <Form.Item name={[name, 'required']} valuePropName="checked" noStyle>
              <Checkbox aria-label={`추가 항목 ${index + 1} 필수`} style={{ whiteSpace: 'nowrap' }}>
                필수 입력
              </Checkbox>
            </Form.Item>
            <Space size={4}>
              <Form.Item name={[name, 'sensitive']} valuePropName="checked" noStyle>
                <Checkbox aria-label={`추가 항목 ${index + 1} 민감정보`} style={{ whiteSpace: 'nowrap' }}>
                  민감정보 (건강 상태·병력 등)
                </Checkbox>
              </Form.Item>
              <Tooltip title="민감정보 항목은 신청서에서 별도의 민감정보 처리 동의를 함께 받습니다 (개인정보 보호법 제23조).">
                <QuestionCircleOutlined style={{ color: '#8c8c8c' }} aria-label="민감정보 안내" />
              </Tooltip>
            </Space>
          </Space>
        </Col>
        {choice && (
          <Col span={24}>
            <Form.Item
              label="선택지"
              name={[name, 'options']}
              required
              extra="입력하고 Enter를 누르면 추가됩니다."
              dependencies={[['formFields', name, 'type']]}
              rules={[landingRule(form, ['formFields', name, 'options'])]}
            >
              <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} placeholder="예: 강남점, 잠실점" />
            </Form.Item>
          </Col>
        )}
      </Row>
    </Card>
  );
}
