// 응답 SLA on 배분: the shop's promise of a first contact within N working minutes, when the
// holder is reminded, what happens at the deadline, and the working calendar the clock runs on.
// The agency sets it; a client account reads it.
import { useEffect } from 'react';
import { App, Button, Card, Checkbox, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Space, Switch, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { SLA_DEFAULTS, SLA_ON_DEADLINE, SLA_ON_DEADLINE_LABELS, leadSlaApi, leadSlaSettingsInput, type LeadSlaSettingsInput } from '@contracts/lead-sla.ts';
import { call, ApiError } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { schemaItem } from '@/components/schema-item.tsx';

const Item = schemaItem(leadSlaSettingsInput);
const WEEKDAYS = ['월', '화', '수', '목', '금', '토', '일'].map((label, i) => ({ label, value: i + 1 }));

/** The form's values: holidays as dates for the picker. */
type Values = Omit<LeadSlaSettingsInput, 'holidays'> & { holidays: Dayjs[] };

export function SlaSettings({ shopId, writable }: { shopId: number; writable: boolean }) {
  const settings = useCall(leadSlaApi.settings, { params: { shopId } });
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const enabled = Form.useWatch('enabled', form);

  useEffect(() => {
    if (!settings.data) return;
    const { updatedAt: _updated, ...s } = settings.data;
    form.setFieldsValue({ ...SLA_DEFAULTS, ...s, holidays: s.holidays.map((d) => dayjs(d)) });
  }, [settings.data, form]);

  async function save(v: Values) {
    try {
      await call(leadSlaApi.updateSettings, { params: { shopId }, body: { ...v, holidays: (v.holidays ?? []).map((d) => d.format('YYYY-MM-DD')) } });
      await invalidate(queryClient, [leadSlaApi.settings]);
      message.success(v.enabled ? `새 DB에 ${v.minutes}분 안의 첫 연락을 지킵니다.` : '응답 SLA를 껐습니다.');
    } catch (err) {
      if (err instanceof ApiError && err.fields) form.setFields(Object.entries(err.fields).map(([name, e]) => ({ name: name as keyof Values, errors: [e] })));
      else message.error((err as Error).message);
    }
  }

  return (
    <Card
      variant="borderless"
      title="응답 SLA"
      extra={<Typography.Text type="secondary">근무 시간 기준으로 첫 연락 기한을 재고, 지나면 다음 상담원에게 넘깁니다</Typography.Text>}
      loading={settings.isLoading}
    >
      <Form form={form} layout="vertical" disabled={!writable} onFinish={save} initialValues={{ ...SLA_DEFAULTS, holidays: [] }} requiredMark={false}>
        <Form.Item name="enabled" valuePropName="checked" label="사용">
          <Switch checkedChildren="켜짐" unCheckedChildren="꺼짐" />
        </Form.Item>
        <Row gutter={16}>
          <Item half name="minutes" label="첫 연락 기한 (분)" extra="배분된 순간(근무 시간 밖이면 다음 근무 시작)부터 잽니다.">
            <InputNumber min={1} max={2400} style={{ width: '100%' }} disabled={!writable || !enabled} />
          </Item>
          <Item half name="remindPercent" label="담당자 알림 시점 (기한의 %)" extra="비우면 알리지 않습니다.">
            <InputNumber min={10} max={95} style={{ width: '100%' }} disabled={!writable || !enabled} />
          </Item>
          <Item half name="onDeadline" label="기한이 지나면">
            <Radio.Group options={SLA_ON_DEADLINE.map((v) => ({ value: v, label: SLA_ON_DEADLINE_LABELS[v] }))} disabled={!writable || !enabled} />
          </Item>
          <Item half name="maxReroutes" label="재배분 최대 (회)" extra="이만큼 넘긴 뒤에도 연락이 없으면 관리자 확인(미배분)으로 돌립니다.">
            <InputNumber min={0} max={10} style={{ width: '100%' }} disabled={!writable || !enabled} />
          </Item>
          <Item half name="workDays" label="근무 요일">
            <Checkbox.Group options={WEEKDAYS} disabled={!writable || !enabled} />
          </Item>
          <Col xs={24} md={12}>
            <Space.Compact block>
              <Item name="workStart" label="근무 시작" style={{ flex: 1 }}>
                <Input placeholder="09:00" maxLength={5} disabled={!writable || !enabled} />
              </Item>
              <Item name="workEnd" label="근무 종료" style={{ flex: 1 }}>
                <Input placeholder="18:00" maxLength={5} disabled={!writable || !enabled} />
              </Item>
            </Space.Compact>
          </Col>
          <Col xs={24}>
            <Form.Item name="holidays" label="휴일" extra="이 날에는 기한 시계가 멈춥니다.">
              <DatePicker multiple maxTagCount="responsive" format="YYYY-MM-DD" placeholder="날짜를 고르세요" style={{ width: '100%' }} disabled={!writable || !enabled} />
            </Form.Item>
          </Col>
        </Row>
        {writable && (
          <Button type="primary" htmlType="submit">
            저장
          </Button>
        )}
      </Form>
    </Card>
  );
}
