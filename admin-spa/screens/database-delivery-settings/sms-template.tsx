// The SMS template editor: the text, buttons that insert each placeholder where the cursor is,
// and a live byte counter in EUC-KR as the carriers count — SMS up to 90 bytes, LMS up to
// 2,000, red past that (the server refuses it too). Placeholders count as a typical lead's
// values, so the counter says what a real message will weigh.
import { useRef } from 'react';
import { Button, Input, Space, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea.js';
import { LMS_MAX_BYTES, SMS_MAX_BYTES, SMS_PLACEHOLDERS } from '@contracts/delivery.ts';
import { smsTemplateBytes, smsTypeOf } from '@contracts/delivery-channels.ts';
import { formatNumber } from '@/lib/format.ts';

function SmsByteCounter({ template }: { template: string }) {
  const bytes = smsTemplateBytes(template);
  const type = smsTypeOf(bytes);
  if (type === 'SMS') {
    return <Typography.Text type="secondary">{`${formatNumber(bytes)} / ${SMS_MAX_BYTES} 바이트 (SMS)`}</Typography.Text>;
  }
  if (type === 'LMS') {
    return <Typography.Text type="warning">{`${formatNumber(bytes)} / ${formatNumber(LMS_MAX_BYTES)} 바이트 (LMS · 장문 요금)`}</Typography.Text>;
  }
  return <Typography.Text type="danger">{`${formatNumber(bytes)} / ${formatNumber(LMS_MAX_BYTES)} 바이트 — LMS 한도를 넘었습니다`}</Typography.Text>;
}

export function SmsTemplateInput({ value = '', onChange, id }: { value?: string; onChange?: (v: string) => void; id?: string }) {
  const ref = useRef<TextAreaRef>(null);

  function insert(placeholder: string) {
    const el = ref.current?.resizableTextArea?.textArea;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + placeholder + value.slice(end);
    onChange?.(next);
    // The cursor goes after what was inserted, ready for the next word.
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + placeholder.length, start + placeholder.length);
    });
  }

  return (
    <Space orientation="vertical" size={6} style={{ width: '100%' }}>
      <Space wrap size={4}>
        {SMS_PLACEHOLDERS.map((p) => (
          <Button key={p} size="small" onClick={() => insert(p)}>
            {p}
          </Button>
        ))}
      </Space>
      <Input.TextArea
        id={id}
        ref={ref}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        autoSize={{ minRows: 3, maxRows: 10 }}
        placeholder="[#{업체}] 새 DB: #{이름} #{연락처} (#{랜딩})"
      />
      <Space size={8} wrap style={{ justifyContent: 'space-between', width: '100%' }}>
        <SmsByteCounter template={value} />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          자리표시자는 예시 값(홍길동, 010-****-5678 …)으로 계산합니다.
        </Typography.Text>
      </Space>
    </Space>
  );
}
