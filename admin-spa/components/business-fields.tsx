// A business's public details on a form: a shop's (업체 관리) and the agency's own (운영사 정보),
// validated by the schema each saves with (contracts/fields.ts businessDetails).
import { Col, Form, Input, Row } from 'antd';
import type { z } from 'zod';
import { zodRule } from '@/lib/zod-rule.ts';

const FIELDS = [
  { name: 'companyName', label: '상호', span: 12, max: 60 },
  { name: 'representative', label: '대표자', span: 12, max: 30 },
  { name: 'businessNumber', label: '사업자등록번호', span: 12, max: 12, placeholder: '123-45-67890' },
  { name: 'phone', label: '대표 전화', span: 12, max: 20, placeholder: '02-1234-5678' },
  { name: 'address', label: '주소', span: 24, max: 200 },
  { name: 'privacyOfficerName', label: '개인정보 보호책임자', span: 12, max: 30 },
  { name: 'privacyOfficerContact', label: '보호책임자 연락처', span: 12, max: 60, placeholder: '전화 또는 이메일' },
] as const;

export function BusinessFields({ schema, required = [] }: { schema: z.ZodType; required?: ReadonlyArray<(typeof FIELDS)[number]['name']> }) {
  return (
    <Row gutter={16}>
      {FIELDS.map((f) => (
        <Col span={f.span} key={f.name}>
          <Form.Item label={f.label} name={f.name} required={required.includes(f.name)} rules={[zodRule(schema, f.name)]}>
            <Input maxLength={f.max} placeholder={'placeholder' in f ? f.placeholder : undefined} />
          </Form.Item>
        </Col>
      ))}
    </Row>
  );
}
