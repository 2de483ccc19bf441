// The channel form in a drawer: the kind (fixed once created) and its own settings — a
// webhook's URL and timeout, an e-mail's recipients, an SMS gateway's preset, key, numbers and
// template — then when it sends (at once, or a daily digest at HH:mm), which leads (statuses,
// landings, duplicates) and which fields. Checked inline with the contract's schemas; the
// server's field errors land on their fields, a refusal that belongs to none shows on top.
import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert, App, Checkbox, Col, Collapse, Divider, Form, Input, InputNumber, Radio, Row, Select, Switch, TimePicker, Typography,
} from 'antd';
import type { FormInstance, Rule } from 'antd/es/form/index.js';
import { CS_STATUSES } from '@contracts/leads.ts';
import {
  DEFAULT_DELIVERY_FIELDS, DELIVERY_FIELD_LABELS, DELIVERY_FIELDS, DELIVERY_KIND_LABELS, DELIVERY_KINDS, DELIVERY_MODE_LABELS,
  type DeliveryField, type DeliveryKind, type DeliveryMode,
} from '@contracts/delivery.ts';
import {
  ALIGO_ALIMTALK_URL, DEFAULT_SMS_TEMPLATE, SMS_PRESET_LABELS, SMS_PRESET_URLS, SMS_PRESETS, deliveryChannelInput, deliveryChannelsApi,
  emailConfigInput, smsConfigInput, webhookConfigInput,
  type DeliveryChannel, type DeliveryChannelForm, type SmsPreset,
} from '@contracts/delivery-channels.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { useDraft } from '@/lib/use-draft.ts';
import { useTrackChanges } from '@/lib/close-guard.ts';
import { DrawerForm, useDrawerFormSubmit, type DrawerFormBody } from '@/components/drawer-form.tsx';
import { formatPhone } from '@contracts/rules.ts';
import { SmsTemplateInput } from './sms-template.tsx';
import { SignatureHelp, type ShownSecret } from './secret-modal.tsx';
import { CHANNEL_VIEWS } from './views.ts';
import { schemaItem } from '@/components/schema-item.tsx';

const DeliveryChannelItem = schemaItem(deliveryChannelInput);
const EmailConfigItem = schemaItem(emailConfigInput);
const SmsConfigItem = schemaItem(smsConfigInput);
const WebhookConfigItem = schemaItem(webhookConfigInput);

const HHMM = 'HH:mm';

interface Values {
  kind: DeliveryKind;
  name: string;
  enabled: boolean;
  mode: DeliveryMode;
  digestAt: Dayjs | null;
  statuses: string[];
  landingIds: number[];
  includeDuplicates: boolean;
  fields: DeliveryField[];
  url?: string;
  timeoutMs?: number;
  recipients?: string[];
  subjectPrefix?: string | null;
  fullPhone?: boolean;
  preset?: SmsPreset;
  gatewayUrl?: string;
  // Named so a kept draft never holds it (drafts drop password fields): the gateway key.
  gatewayPassword?: string;
  userId?: string | null;
  sender?: string;
  receivers?: string[];
  template?: string;
  kakaoTemplateCode?: string | null;
  kakaoSenderKey?: string | null;
}

function toValues(c: DeliveryChannel | null, kind: DeliveryKind): Partial<Values> {
  if (!c) {
    return {
      kind, enabled: true, mode: 'instant', digestAt: null, statuses: [], landingIds: [], includeDuplicates: false, fields: [...DEFAULT_DELIVERY_FIELDS],
      timeoutMs: 5000, recipients: [], fullPhone: false, preset: 'aligo', gatewayUrl: SMS_PRESET_URLS.aligo, receivers: [], template: DEFAULT_SMS_TEMPLATE,
    };
  }
  const cfg = c.config;
  return {
    kind: c.kind, name: c.name, enabled: c.enabled, mode: c.mode, digestAt: c.digestAt ? dayjs(c.digestAt, HHMM) : null,
    statuses: c.statuses, landingIds: c.landingIds, includeDuplicates: c.includeDuplicates, fields: c.fields,
    url: cfg.url, timeoutMs: cfg.timeoutMs ?? 5000, recipients: cfg.recipients ?? [], subjectPrefix: cfg.subjectPrefix ?? null, fullPhone: cfg.fullPhone ?? false,
    preset: cfg.preset, gatewayUrl: cfg.gatewayUrl, userId: cfg.userId ?? null, sender: cfg.sender ? formatPhone(cfg.sender) : undefined,
    receivers: (cfg.receivers ?? []).map(formatPhone), template: cfg.template, kakaoTemplateCode: cfg.kakaoTemplateCode ?? null,
    kakaoSenderKey: cfg.kakaoSenderKey ?? null,
  };
}

function toInput(v: Values): DeliveryChannelForm {
  return {
    name: v.name, kind: v.kind, enabled: v.enabled, mode: v.mode, digestAt: v.mode === 'digest' ? (v.digestAt?.format(HHMM) ?? null) : null,
    statuses: (v.statuses ?? []) as DeliveryChannelForm['statuses'], landingIds: v.landingIds ?? [], includeDuplicates: !!v.includeDuplicates,
    fields: v.kind === 'sms' ? [...DEFAULT_DELIVERY_FIELDS] : v.fields,
    url: v.url, timeoutMs: v.timeoutMs, recipients: v.recipients, subjectPrefix: v.subjectPrefix, fullPhone: !!v.fullPhone,
    preset: v.preset, gatewayUrl: v.gatewayUrl, apiKey: v.gatewayPassword || null, userId: v.userId, sender: v.sender, receivers: v.receivers,
    template: v.template, kakaoTemplateCode: v.kakaoTemplateCode, kakaoSenderKey: v.kakaoSenderKey,
  };
}

/** Server field names → the form's ("recipients.1" is the recipients field; the key field has its own name). */
function onForm(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, m] of Object.entries(fields)) {
    const name = k === 'apiKey' ? 'gatewayPassword' : k.replace(/\.\d+$/, '');
    out[name] ??= m;
  }
  return out;
}

const KIND_HELP: Record<DeliveryKind, string> = {
  webhook: '업체의 CRM·서버로 JSON을 POST합니다. 서명과 재시도 키가 붙습니다.',
  email: '담당자 메일로 DB를 보냅니다. 연락처는 기본으로 가려서 보냅니다.',
  sms: '문자·알림톡 게이트웨이로 담당자 휴대폰에 알립니다.',
};

export function ChannelForm({ shopId, open, editing, kind, onClose, onSecret }: {
  shopId: number;
  open: boolean;
  editing: DeliveryChannel | null;
  /** The kind a new channel starts as. */
  kind: DeliveryKind;
  onClose: () => void;
  /** A new webhook's secret, to show once. */
  onSecret: (s: ShownSecret) => void;
}) {
  return (
    <DrawerForm name="channel" open={open} size={680} title={editing ? `채널 수정 · ${editing.name}` : '전송 채널 추가'} okText={editing ? '저장' : '추가'} onClose={onClose}>
      {(body) => <FormBody key={editing?.id ?? `new-${kind}`} {...body} shopId={shopId} editing={editing} kind={kind} onClose={onClose} onSecret={onSecret} />}
    </DrawerForm>
  );
}

/** A webhook's address, timeout and signing secret. */
function WebhookFields({ editing }: { editing: DeliveryChannel | null }) {
  return (
    <>
      <WebhookConfigItem label="받을 주소 (URL)" name="url" required extra="https:// 주소를 쓰세요 (내부망 주소와 http://는 운영자가 허용한 곳만 됩니다). 연락처는 전체 번호로 보냅니다 (업체 시스템으로 암호화해 보내므로).">
        <Input placeholder="https://crm.example.com/leadroom/webhook" inputMode="url" />
      </WebhookConfigItem>
      <WebhookConfigItem label="응답 대기 시간" name="timeoutMs" extra="이 시간 안에 2xx로 답하지 않으면 실패로 보고 나중에 다시 보냅니다.">
        <InputNumber min={1000} max={30000} step={1000} precision={0} suffix="ms" style={{ width: 200 }} />
      </WebhookConfigItem>
      {editing ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={`서명 비밀키: ${editing.secretPrefix ?? '없음'}…`}
          description="비밀키는 만들 때 한 번만 보여 드립니다. 잃어버렸다면 목록의 '비밀키 재발급'을 누르세요."
        />
      ) : (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title="저장하면 서명 비밀키를 만들어 한 번만 보여 드립니다." />
      )}
      <Collapse
        size="small"
        style={{ marginBottom: 16 }}
        items={[{ key: 'verify', label: '본문과 서명 검증', children: <SignatureHelp /> }]}
      />
    </>
  );
}

/** An e-mail's recipients and subject; a warning when the server has no mail server. */
function EmailFields({ smtpMissing }: { smtpMissing: boolean }) {
  return (
    <>
      {smtpMissing && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="메일 서버가 설정되지 않음"
          description="서버에 SMTP_URL이 설정되어 있지 않아 지금은 메일을 보낼 수 없습니다. 채널은 저장되며, 관리자에게 SMTP_URL 설정을 요청하세요."
        />
      )}
      <EmailConfigItem label="받는 사람" name="recipients" required extra="이메일을 입력하고 Enter를 누르세요. 10명까지 받을 수 있습니다.">
        <Select mode="tags" tokenSeparators={[',', ' ', ';']} open={false} suffixIcon={null} placeholder="desk@example.com" aria-label="받는 사람" />
      </EmailConfigItem>
      <EmailConfigItem label="제목 머리말" name="subjectPrefix" extra="비워 두면 [Leadroom] 으로 시작합니다.">
        <Input maxLength={30} placeholder="[Leadroom]" style={{ width: 260 }} />
      </EmailConfigItem>
    </>
  );
}

/** An SMS gateway: its preset and address, key, numbers and template, and the optional KakaoTalk template. */
function SmsFields({ form, editing, initial, preset, templateCode }: {
  form: FormInstance<Values>;
  editing: DeliveryChannel | null;
  initial: Partial<Values>;
  preset: SmsPreset | undefined;
  templateCode: string | undefined;
}) {

  /** A preset fills in its gateway URL unless one of the shop's own was typed. */
  function onPreset(next: SmsPreset) {
    const url = form.getFieldValue('gatewayUrl') as string | undefined;
    const defaults = [...Object.values(SMS_PRESET_URLS), ALIGO_ALIMTALK_URL, ''];
    if (!url || defaults.includes(url)) form.setFieldValue('gatewayUrl', SMS_PRESET_URLS[next]);
  }

  const keyRule: Rule = {
    validator: async (_r, value: string | undefined) => {
      if (!editing && !value?.trim()) throw new Error('게이트웨이 API 키를 입력하세요.');
    },
  };
  const userIdRule: Rule = {
    validator: async (_r, value: string | undefined) => {
      if (form.getFieldValue('preset') === 'aligo' && !value?.trim()) throw new Error('알리고 아이디(user_id)를 입력하세요.');
    },
  };
  const senderKeyRule: Rule = {
    validator: async (_r, value: string | undefined) => {
      if (form.getFieldValue('preset') === 'aligo' && form.getFieldValue('kakaoTemplateCode') && !value?.trim()) throw new Error('알림톡 발신 프로필 키를 입력하세요.');
    },
  };

  return (
    <>
      <Row gutter={16}>
        <Col span={10}>
          <SmsConfigItem label="게이트웨이" name="preset" required>
            <Select options={SMS_PRESETS.map((p) => ({ value: p, label: SMS_PRESET_LABELS[p] }))} onChange={onPreset} aria-label="게이트웨이" />
          </SmsConfigItem>
        </Col>
        <Col span={14}>
          <SmsConfigItem label="게이트웨이 주소" name="gatewayUrl" required>
            <Input inputMode="url" />
          </SmsConfigItem>
        </Col>
      </Row>
      {preset === 'generic' && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: -8 }}>
          받는 번호마다 <Typography.Text code>{'{ to, from, text, type }'}</Typography.Text> JSON을 POST하고{' '}
          <Typography.Text code>Authorization: Bearer 키</Typography.Text> 헤더를 붙입니다. 2xx 응답을 성공으로 봅니다.
        </Typography.Paragraph>
      )}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="API 키"
            name="gatewayPassword"
            required={!editing}
            rules={[keyRule]}
            extra={editing ? '저장된 키가 있습니다. 바꿀 때만 입력하세요.' : '저장한 뒤에는 다시 보여 드리지 않습니다.'}
          >
            <Input.Password autoComplete="new-password" placeholder={editing ? '변경 시에만 입력' : ''} />
          </Form.Item>
        </Col>
        {preset === 'aligo' && (
          <Col span={12}>
            <Form.Item label="알리고 아이디 (user_id)" name="userId" required rules={[userIdRule, zodRule(smsConfigInput, 'userId')]}>
              <Input maxLength={60} autoComplete="off" />
            </Form.Item>
          </Col>
        )}
      </Row>
      <SmsConfigItem label="발신번호" name="sender" required extra="게이트웨이에 등록된 발신번호여야 합니다.">
        <Input placeholder="02-1234-5678" inputMode="tel" style={{ width: 220 }} />
      </SmsConfigItem>
      <SmsConfigItem label="받을 전화번호" name="receivers" required extra="DB가 들어오면 알릴 담당자 휴대폰입니다. 번호를 입력하고 Enter를 누르세요 (5개까지).">
        <Select mode="tags" tokenSeparators={[',', ' ', ';']} open={false} suffixIcon={null} placeholder="010-1234-5678" aria-label="받을 전화번호" />
      </SmsConfigItem>
      <SmsConfigItem label="문자 내용" name="template" required>
        <SmsTemplateInput />
      </SmsConfigItem>
      <Collapse
        size="small"
        style={{ marginBottom: 16 }}
        defaultActiveKey={initial.kakaoTemplateCode ? ['kakao'] : []}
        items={[{
          key: 'kakao',
          label: '카카오 알림톡으로 보내기 (선택)',
          children: (
            <>
              <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                승인된 알림톡 템플릿의 코드를 넣으면 알림톡으로 보내고, 받지 못하면 같은 내용을 문자로 보냅니다. 문자 내용은 승인된 템플릿과 같아야 합니다.
                {preset === 'aligo' && <> 알리고는 알림톡 주소({ALIGO_ALIMTALK_URL})로 게이트웨이 주소를 바꾸세요.</>}
              </Typography.Paragraph>
              <Row gutter={16}>
                <SmsConfigItem half label="템플릿 코드" name="kakaoTemplateCode">
                  <Input maxLength={40} placeholder="예: TM_1234" />
                </SmsConfigItem>
                {preset === 'aligo' && (
                  <Col span={12}>
                    <Form.Item label="발신 프로필 키" name="kakaoSenderKey" required={!!templateCode} rules={[senderKeyRule, zodRule(smsConfigInput, 'kakaoSenderKey')]}>
                      <Input maxLength={80} autoComplete="off" />
                    </Form.Item>
                  </Col>
                )}
              </Row>
            </>
          ),
        }]}
      />
    </>
  );
}

/** Whether an e-mail or a text carries the whole phone number, with what that means. */
function FullPhoneField({ kind: currentKind, fullPhone }: { kind: DeliveryKind; fullPhone: boolean | undefined }) {
  return (
    <>
      <Form.Item
        label="연락처 전체 번호로 보내기"
        name="fullPhone"
        valuePropName="checked"
        extra="기본은 010-****-5678처럼 가려서 보냅니다. 켜고 끈 기록은 감사 로그에 남습니다."
        style={{ marginBottom: fullPhone ? 8 : undefined }}
      >
        <Switch checkedChildren="전체" unCheckedChildren="가림" />
      </Form.Item>
      {fullPhone && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={currentKind === 'email' ? '메일은 전달·보관되기 쉽습니다.' : '문자는 휴대폰에 그대로 남습니다.'}
          description="전체 번호를 보내면 받는 사람의 기기와 계정에 개인정보가 남습니다. 꼭 필요한 담당자에게만 보내세요."
        />
      )}
    </>
  );
}

/** When it sends: at once, or a daily digest at a time of day. */
function WhenFields({ form, kind: currentKind, initialMode }: { form: FormInstance<Values>; kind: DeliveryKind; initialMode: DeliveryMode | undefined }) {
  const mode = (Form.useWatch('mode', form) as DeliveryMode | undefined) ?? initialMode;
  const digestRule: Rule = {
    validator: async (_r, value: Dayjs | null) => {
      if (form.getFieldValue('mode') === 'digest' && !value) throw new Error('모아 보낼 시각을 입력하세요.');
    },
  };

  return (
    <>
      <Divider titlePlacement="start" plain>보내는 시점</Divider>
      <Row gutter={16} align="bottom">
        <Col>
          <Form.Item label="시점" name="mode">
            <Radio.Group
              options={(['instant', 'digest'] as const).map((m) => ({ value: m, label: DELIVERY_MODE_LABELS[m] }))}
              onChange={() => form.validateFields(['digestAt']).catch(() => {})}
            />
          </Form.Item>
        </Col>
        {mode === 'digest' && (
          <Col>
            <Form.Item label="모아 보낼 시각 (한국 시간)" name="digestAt" required rules={[digestRule]}>
              <TimePicker format={HHMM} minuteStep={5} needConfirm={false} placeholder="09:00" style={{ width: 140 }} />
            </Form.Item>
          </Col>
        )}
      </Row>
      {mode === 'digest' && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: -8 }}>
          하루 동안 들어온 DB를 이 시각에 한 번에 보냅니다 ({currentKind === 'sms' ? '문자는 처음 5건의 이름과 건수를 LMS 한 통으로' : '한 통에 모아서'}).
        </Typography.Paragraph>
      )}
    </>
  );
}

function FormBody({ formName, shopId, editing, kind, guard, onSaving, onClose, onSecret }: DrawerFormBody & {
  shopId: number;
  editing: DeliveryChannel | null;
  kind: DeliveryKind;
  onClose: () => void;
  onSecret: (s: ShownSecret) => void;
}) {
  const [form] = Form.useForm<Values>();
  const [initial] = useState(() => toValues(editing, kind));
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const params = { shopId };
  const landings = useCall(deliveryChannelsApi.landings, { params }, { staleTime: 60_000 });
  const smtp = useCall(deliveryChannelsApi.smtpStatus, { params }, { staleTime: 60_000 });
  const tracked = useTrackChanges(guard, form);
  useDraft(form, `channel-form|${shopId}|${editing?.id ?? 'new'}|${editing?.updatedAt ?? ''}`, tracked.markChanged);

  const currentKind = (Form.useWatch('kind', form) as DeliveryKind | undefined) ?? initial.kind!;
  const preset = (Form.useWatch('preset', form) as SmsPreset | undefined) ?? initial.preset;
  const fullPhone = Form.useWatch('fullPhone', form) as boolean | undefined;
  const templateCode = Form.useWatch('kakaoTemplateCode', form) as string | undefined;

  const { submit, refusal } = useDrawerFormSubmit(form, onSaving, onForm, async (values) => {
    const body = toInput(values);
    if (editing) {
      await call(deliveryChannelsApi.update, { params: { shopId, id: editing.id }, body });
    } else {
      const created = await call(deliveryChannelsApi.create, { params, body });
      if (created.newSecret) onSecret({ channelName: created.name, secret: created.newSecret });
    }
    await invalidate(queryClient, CHANNEL_VIEWS);
    message.success(editing ? '채널을 저장했습니다.' : '채널을 추가했습니다.');
    onClose();
  });

  const landingOptions = (landings.data ?? []).map((l) => ({ value: l.id, label: l.title }));

  return (
    <Form form={form} name={formName} layout="vertical" requiredMark="optional" initialValues={initial} onFinish={submit} scrollToFirstError={{ block: 'center' }}>
      {refusal}
      <Form.Item label="종류" name="kind" required extra={editing ? '종류는 바꿀 수 없습니다. 다른 종류는 새 채널로 추가하세요.' : KIND_HELP[currentKind]}>
        <Radio.Group
          disabled={!!editing}
          optionType="button"
          buttonStyle="solid"
          options={DELIVERY_KINDS.map((k) => ({ value: k, label: DELIVERY_KIND_LABELS[k] }))}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col flex="auto">
          <DeliveryChannelItem label="채널 이름" name="name" required>
            <Input maxLength={60} placeholder={currentKind === 'webhook' ? '예: 우리 병원 CRM' : currentKind === 'email' ? '예: 상담실 메일' : '예: 원장님 문자'} />
          </DeliveryChannelItem>
        </Col>
        <Col>
          <Form.Item label="사용" name="enabled" valuePropName="checked">
            <Switch checkedChildren="사용" unCheckedChildren="중지" />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start" plain>받는 곳</Divider>
      {currentKind === 'webhook' && <WebhookFields editing={editing} />}
      {currentKind === 'email' && <EmailFields smtpMissing={!!smtp.data && !smtp.data.configured} />}
      {currentKind === 'sms' && <SmsFields form={form} editing={editing} initial={initial} preset={preset} templateCode={templateCode} />}
      {currentKind !== 'webhook' && <FullPhoneField kind={currentKind} fullPhone={fullPhone} />}

      <WhenFields form={form} kind={currentKind} initialMode={initial.mode} />

      <Divider titlePlacement="start" plain>보낼 DB</Divider>
      <Form.Item label="상담 상태" name="statuses" extra="접수될 때의 상태 기준입니다. 비워 두면 모든 상태를 보냅니다.">
        <Select mode="multiple" allowClear placeholder="전체 상태" options={CS_STATUSES.map((s) => ({ value: s, label: s }))} aria-label="상담 상태" />
      </Form.Item>
      <Form.Item label="랜딩" name="landingIds" extra="비워 두면 이 업체의 모든 랜딩에서 들어온 DB를 보냅니다.">
        <Select mode="multiple" allowClear placeholder="전체 랜딩" options={landingOptions} loading={landings.isLoading} optionFilterProp="label" aria-label="랜딩" />
      </Form.Item>
      <Form.Item name="includeDuplicates" valuePropName="checked">
        <Checkbox>중복 DB도 보내기</Checkbox>
      </Form.Item>

      {currentKind !== 'sms' && (
        <>
          <Divider titlePlacement="start" plain>보낼 항목</Divider>
          <DeliveryChannelItem name="fields">
            <Checkbox.Group options={DELIVERY_FIELDS.map((f) => ({ value: f, label: DELIVERY_FIELD_LABELS[f] }))} />
          </DeliveryChannelItem>
        </>
      )}
    </Form>
  );
}
