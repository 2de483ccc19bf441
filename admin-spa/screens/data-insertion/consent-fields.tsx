// The basis on which the people entered gave their data, and its note — asked alike by 직접
// 입력 and 파일 가져오기 (placed inside the form's Row). 'other' needs the note.
import { Col, Form, Input, Select } from 'antd';
import { CONSENT_BASES, CONSENT_NOTE_REQUIRED } from '@contracts/data-insertion.ts';
import { zodRule } from '@/lib/zod-rule.ts';

const consentOptions = CONSENT_BASES.map((b) => ({ value: b.value, label: b.label }));

type AnySchema = Parameters<typeof zodRule>[0];

export function ConsentFields({ schema, label, placeholder, noteHint }: { schema: AnySchema; label: string; placeholder: string; noteHint: string }) {
  const basis = Form.useWatch('consentBasis');
  return (
    <>
      <Col xs={24} md={12}>
        <Form.Item label={label} name="consentBasis" required rules={[zodRule(schema, 'consentBasis')]}>
          <Select placeholder={placeholder} options={consentOptions} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          label="근거 비고"
          name="consentNote"
          dependencies={['consentBasis']}
          extra={noteHint}
          rules={[
            zodRule(schema, 'consentNote'),
            { validator: async (_r, v: string | undefined) => { if (basis === 'other' && !v?.trim()) throw new Error(CONSENT_NOTE_REQUIRED); } },
          ]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Col>
    </>
  );
}
