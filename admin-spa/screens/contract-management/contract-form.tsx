// The contract form in a drawer: the period in Seoul days, the quantity and the unit price
// (VAT excluded, its VAT and the sum beside it as it is typed), the daily cap, the landings and
// media that count, the return window and rate, automatic closing. Checked inline with the
// contract's schema; the server's field errors land on their fields, and a refusal that belongs
// to no field (the period overlaps another contract) shows above the form.
import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, DatePicker, Form, Input, InputNumber, Row, Select, Space, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form/index.js';
import { contractInput, shopContractsApi, type ContractInput, type ContractItem } from '@contracts/shop-contracts.ts';
import { landingsApi } from '@contracts/landings.ts';
import { vatOf, won0 } from '@contracts/money.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useCodeOptions } from '@/lib/options.ts';
import { useDraft } from '@/lib/use-draft.ts';
import { useTrackChanges } from '@/lib/close-guard.ts';
import { formatNumber } from '@/lib/format.ts';
import { CONTRACT_VIEWS } from '@/components/contracts/contract-views.ts';
import { DrawerForm, useDrawerFormSubmit, type DrawerFormBody } from '@/components/drawer-form.tsx';
import { schemaItem } from '@/components/schema-item.tsx';

const ContractField = schemaItem(contractInput);

const DAY = 'YYYY-MM-DD';

interface Values {
  name: string;
  period: [Dayjs | null, Dayjs | null] | null;
  quantity: number | null;
  unitPrice: number | null;
  dailyCap: number | null;
  landingIds: number[];
  mediaTypeIds: number[];
  returnWindowDays: number | null;
  maxReturnRate: number | null;
  autoClose: boolean;
  memo: string | null;
}

function toValues(c: ContractItem | null): Partial<Values> {
  if (!c) return { landingIds: [], mediaTypeIds: [], returnWindowDays: 7, maxReturnRate: 10, autoClose: false, dailyCap: null };
  return {
    name: c.name, period: [dayjs(c.startsOn), dayjs(c.endsOn)], quantity: c.quantity, unitPrice: c.unitPrice, dailyCap: c.dailyCap,
    landingIds: c.landingIds, mediaTypeIds: c.mediaTypeIds, returnWindowDays: c.returnWindowDays, maxReturnRate: c.maxReturnRate,
    autoClose: c.autoClose, memo: c.memo,
  };
}

function toInput(v: Values): ContractInput {
  return {
    name: v.name, startsOn: v.period?.[0]?.format(DAY) ?? '', endsOn: v.period?.[1]?.format(DAY) ?? '',
    quantity: v.quantity as number, unitPrice: v.unitPrice as number, dailyCap: v.dailyCap ?? null,
    landingIds: v.landingIds ?? [], mediaTypeIds: v.mediaTypeIds ?? [],
    returnWindowDays: v.returnWindowDays as number, maxReturnRate: v.maxReturnRate as number, autoClose: !!v.autoClose, memo: v.memo ?? null,
  };
}

/** The period's two ends, each checked with its own field's schema. */
const { startsOn, endsOn } = contractInput.shape;
const periodRule: Rule = {
  validator: async (_rule, value: Values['period']) => {
    for (const [schema, day] of [[startsOn, value?.[0]], [endsOn, value?.[1]]] as const) {
      const result = schema.safeParse(day?.format(DAY));
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? '기간을 입력하세요.');
    }
  },
};

/** Server field names → the form's (the period is one picker). */
function onForm(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, m] of Object.entries(fields)) {
    const name = k === 'startsOn' || k === 'endsOn' ? 'period' : k.replace(/\.\d+$/, '');
    out[name] ??= m;
  }
  return out;
}

/** Thousands separators while typing (12,000). */
const thousands = {
  formatter: (v: number | string | undefined) => (v === undefined || v === '' ? '' : `${v}`.replace(/\B(?=(\d{3})+(?!\d))/g, ',')),
  parser: (v: string | undefined) => (v ? v.replace(/[^\d]/g, '') : '') as unknown as number,
};

export function ContractForm({ shopId, open, editing, onClose }: { shopId: number; open: boolean; editing: ContractItem | null; onClose: () => void }) {
  return (
    <DrawerForm name="contract" open={open} size={640} title={editing ? `계약 수정 · ${editing.name}` : '계약 등록'} okText={editing ? '저장' : '등록'} onClose={onClose}>
      {(body) => <FormBody key={editing?.id ?? 'new'} {...body} shopId={shopId} editing={editing} onClose={onClose} />}
    </DrawerForm>
  );
}

function FormBody({ formName, shopId, editing, guard, onSaving, onClose }: DrawerFormBody & {
  shopId: number;
  editing: ContractItem | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const [initial] = useState(() => toValues(editing));
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const landings = useCall(landingsApi.options, { params: { shopId } }, { staleTime: 60_000 });
  const media = useCodeOptions('media-type');
  const tracked = useTrackChanges(guard, form);
  useDraft(form, `contract-form|${shopId}|${editing?.id ?? 'new'}|${editing?.updatedAt ?? ''}`, tracked.markChanged);

  const unitPrice = Form.useWatch('unitPrice', form) as number | null | undefined;
  const quantity = Form.useWatch('quantity', form) as number | null | undefined;
  const price = typeof unitPrice === 'number' && Number.isFinite(unitPrice) ? unitPrice : null;
  const supply = price !== null && typeof quantity === 'number' && Number.isFinite(quantity) ? price * quantity : null;

  const { submit, refusal } = useDrawerFormSubmit(form, onSaving, onForm, async (values) => {
    const body = toInput(values);
    if (editing) await call(shopContractsApi.update, { params: { shopId, id: editing.id }, body });
    else await call(shopContractsApi.create, { params: { shopId }, body });
    await invalidate(queryClient, CONTRACT_VIEWS);
    message.success(editing ? '계약을 저장했습니다.' : '계약을 등록했습니다.');
    onClose();
  });

  const landingOptions = (landings.data?.items ?? []).map((l) => ({ value: l.id, label: l.title }));
  // A landing the contract names that is gone from the options still shows by its title.
  for (const [i, id] of (editing?.landingIds ?? []).entries()) {
    if (!landingOptions.some((o) => o.value === id)) landingOptions.push({ value: id, label: editing!.landingTitles[i] ?? `#${id}` });
  }

  return (
    <Form form={form} name={formName} layout="vertical" requiredMark="optional" initialValues={initial} onFinish={submit} scrollToFirstError={{ block: 'center' }}>
      {refusal}
      <ContractField label="계약명" name="name" required>
        <Input maxLength={60} placeholder="예: 12월 임플란트 DB 500건" />
      </ContractField>
      <Form.Item label="계약 기간" name="period" required rules={[periodRule]} extra="시작일과 종료일 모두 포함합니다 (한국 시간 기준).">
        <DatePicker.RangePicker format={DAY} style={{ width: '100%' }} placeholder={['시작일', '종료일']} aria-label="계약 기간" />
      </Form.Item>
      <Row gutter={16}>
        <ContractField half label="계약 수량" name="quantity" required extra="정산 대상이 되는 유효 DB 수입니다.">
          <InputNumber min={1} max={10_000_000} precision={0} suffix="건" style={{ width: '100%' }} {...thousands} />
        </ContractField>
        <ContractField half label="단가 (VAT 별도)" name="unitPrice" required extra={price === null ? '유효 DB 1건의 공급가입니다.' : `부가세 ${won0(vatOf(price))} · 합계 ${won0(price + vatOf(price))}`}>
          <InputNumber min={0} max={100_000_000} precision={0} suffix="원" style={{ width: '100%' }} {...thousands} />
        </ContractField>
      </Row>
      {supply !== null && (
        <Alert
          type="info"
          style={{ marginBottom: 24 }}
          title={
            <Space wrap size={4}>
              <span>계약 총액</span>
              <Typography.Text strong>{won0(supply + vatOf(supply))}</Typography.Text>
              <Typography.Text type="secondary">
                (공급가 {won0(supply)} + 부가세 {won0(vatOf(supply))} · {formatNumber(quantity!)}건 × {won0(price!)})
              </Typography.Text>
            </Space>
          }
        />
      )}
      <ContractField label="일 한도" name="dailyCap" extra="하루에 정산 대상으로 집계할 최대 건수입니다. 비워 두면 한도 없이 집계합니다.">
        <InputNumber min={1} precision={0} suffix="건" placeholder="한도 없음" style={{ width: 200 }} {...thousands} />
      </ContractField>
      <ContractField label="집계 랜딩" name="landingIds" extra="비워 두면 이 업체의 모든 랜딩에서 들어온 DB를 집계합니다.">
        <Select mode="multiple" allowClear placeholder="전체 랜딩" options={landingOptions} loading={landings.isLoading} optionFilterProp="label" aria-label="집계 랜딩" />
      </ContractField>
      <ContractField label="집계 매체" name="mediaTypeIds" extra="비워 두면 모든 매체의 DB를 집계합니다.">
        <Select mode="multiple" allowClear placeholder="전체 매체" options={media.options} loading={media.isLoading} optionFilterProp="label" aria-label="집계 매체" />
      </ContractField>
      <Row gutter={16}>
        <ContractField half label="반품 기간" name="returnWindowDays" required extra="접수 후 이 기간 안에 무효 교체를 요청할 수 있습니다.">
          <InputNumber min={0} max={90} precision={0} suffix="일" style={{ width: '100%' }} />
        </ContractField>
        <ContractField half label="최대 반품률" name="maxReturnRate" required extra="공급한 DB 중 반품할 수 있는 비율입니다.">
          <InputNumber min={0} max={100} precision={0} suffix="%" style={{ width: '100%' }} />
        </ContractField>
      </Row>
      <Form.Item
        label="자동 마감"
        name="autoClose"
        valuePropName="checked"
        extra="일 한도에 닿으면 집계 랜딩을 마감했다가 자정에 다시 열고, 계약 수량을 채우면 마감합니다."
      >
        <Switch checkedChildren="사용" unCheckedChildren="안 함" />
      </Form.Item>
      <ContractField label="메모" name="memo">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} showCount />
      </ContractField>
    </Form>
  );
}
