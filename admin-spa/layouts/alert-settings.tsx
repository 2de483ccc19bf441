// An account's own alerts (from the account menu): which channels reach it — this browser's
// notifications, Web Push to its phones and computers, an SMS to its own number — and its quiet
// hours (Seoul time), with a test send. Also the header's "알림 받기": the one place, besides
// saving here, where the browser's permission prompt appears, because the account asked.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Form, Input, Modal, Space, Spin, Switch, Tooltip, Typography } from 'antd';
import { NotificationOutlined } from '@ant-design/icons';
import { alertsApi, alertSettingsInput, type AlertOutcome, type AlertSettings, type AlertSettingsInput } from '@contracts/alerts.ts';
import { call } from '@/lib/api.ts';
import { apiKey, useCall } from '@/lib/use-call.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';
import { useFormSave } from '@/components/resource-form.tsx';
import { askPermission, notificationPermission, showNotification, subscribePush, unsubscribePush, type Permission } from '@/lib/alerts.ts';

interface Values {
  enabled: boolean;
  browser: boolean;
  push: boolean;
  sms: boolean;
  quiet: boolean;
  quietStart?: string;
  quietEnd?: string;
}

const toValues = (s: AlertSettings): Values => ({
  enabled: s.enabled, browser: s.browser, push: s.push, sms: s.sms, quiet: s.quietStart !== null,
  quietStart: s.quietStart ?? '22:00', quietEnd: s.quietEnd ?? '08:00',
});
const toInput = (v: Values): AlertSettingsInput => ({
  enabled: v.enabled, browser: v.browser, push: v.push, sms: v.sms,
  quietStart: v.quiet ? (v.quietStart ?? '') : null, quietEnd: v.quiet ? (v.quietEnd ?? '') : null,
});

const CHANNEL_NAMES: Record<AlertOutcome['channel'], string> = { push: '푸시', sms: '문자' };
function outcomeText(o: AlertOutcome): string {
  if (o.status === 'sent') return o.channel === 'push' ? `${CHANNEL_NAMES.push}: 기기 ${o.delivered}대에 보냈습니다.` : `${CHANNEL_NAMES.sms}: 보냈습니다.`;
  return `${CHANNEL_NAMES[o.channel]}: ${o.error ?? '보내지 못했습니다.'}`;
}

/** The account's alert settings; `notify`: the open back office may show notifications now. */
export function useAlertSettings() {
  const q = useCall(alertsApi.settings, undefined, { staleTime: 60_000 });
  const s = q.data;
  return { settings: s, notify: !!s && s.enabled && s.browser && notificationPermission() === 'granted' };
}

/** Asks for the permission and, when given and push is wanted, subscribes this browser. */
async function allowHere(pushWanted: boolean): Promise<Permission> {
  const p = await askPermission();
  if (p === 'granted' && pushWanted) await subscribePush();
  return p;
}

function PermissionNote({ permission, onAllow }: { permission: Permission; onAllow: () => void }) {
  if (permission === 'granted') return <Alert type="success" showIcon title="이 브라우저는 Leadroom 알림을 허용했습니다." style={{ marginBottom: 16 }} />;
  if (permission === 'denied') {
    return <Alert type="warning" showIcon title="이 브라우저에서 알림이 차단되어 있습니다." description="주소창 왼쪽의 사이트 설정에서 알림을 허용으로 바꾸세요." style={{ marginBottom: 16 }} />;
  }
  if (permission === 'unsupported') return <Alert type="info" showIcon title="이 브라우저는 알림을 지원하지 않습니다. 문자 알림을 쓰세요." style={{ marginBottom: 16 }} />;
  return (
    <Alert
      type="info"
      showIcon
      title="이 브라우저에서 아직 알림을 허용하지 않았습니다."
      action={<Button size="small" type="primary" onClick={onAllow}>알림 허용</Button>}
      style={{ marginBottom: 16 }}
    />
  );
}

/** Mounted while open (the layout does so), so the browser's permission is read afresh at each opening. */
export function AlertSettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { saving, save } = useFormSave(form);
  const { message, notification } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useCall(alertsApi.settings, undefined, { enabled: open });
  const [permission, setPermission] = useState<Permission>(notificationPermission);
  const [testing, setTesting] = useState(false);
  const guard = useCloseGuard(() => {
    form.resetFields();
    onClose();
  });
  const data = settings.data;
  useTrackChanges(guard, form, open && !!data, data);
  const enabled = Form.useWatch('enabled', form);
  const quiet = Form.useWatch('quiet', form);

  async function submit() {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const ok = await save(async () => {
      const saved = await call(alertsApi.updateSettings, { body: toInput(values) });
      // Saving is the account's own act: the moment to ask the browser, if it has not been asked.
      if (saved.enabled && (saved.browser || saved.push)) setPermission(await allowHere(saved.push));
      if (!saved.enabled || !saved.push) await unsubscribePush();
      queryClient.setQueryData(apiKey(alertsApi.settings), await call(alertsApi.settings));
      return '알림 설정을 저장했습니다.';
    });
    if (ok) onClose();
  }

  async function test() {
    setTesting(true);
    try {
      const { outcomes } = await call(alertsApi.test);
      const here = data?.browser && notificationPermission() === 'granted';
      if (here) showNotification('테스트 알림', '이 브라우저에서 Leadroom 알림을 받을 수 있습니다.', 'leadroom-test', () => {});
      const lines = [...(here ? ['브라우저: 알림을 띄웠습니다.'] : []), ...outcomes.map(outcomeText)];
      notification.info({ key: 'alert-test', title: '테스트 알림 결과', description: lines.length ? lines.join('\n') : '켜 둔 알림 채널이 없습니다.', placement: 'bottomRight', style: { whiteSpace: 'pre-line' } });
    } catch (err) {
      message.error(err instanceof Error ? err.message : '테스트 알림을 보내지 못했습니다.');
    } finally {
      setTesting(false);
    }
  }

  return (
    <Modal
      open={open}
      title="알림 설정"
      onCancel={guard.requestClose}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space wrap>
          <Button onClick={test} loading={testing} disabled={!data}>
            테스트 알림 보내기
          </Button>
          <Button onClick={guard.requestClose}>취소</Button>
          <Button type="primary" onClick={submit} loading={saving}>
            저장
          </Button>
        </Space>
      }
    >
      {!data ? (
        <Spin style={{ display: 'block', margin: 24 }} />
      ) : (
        <div style={{ wordBreak: 'keep-all' }}>
          <Typography.Paragraph type="secondary" style={{ wordBreak: 'keep-all' }}>
            나에게 DB가 배분되거나 재배분될 때, 첫 연락 기한이 다가올 때 알려 드립니다. 이 설정은 내 계정에만 적용됩니다.
          </Typography.Paragraph>
          <PermissionNote permission={permission} onAllow={() => void allowHere(!!form.getFieldValue('push')).then(setPermission)} />
          <Form form={form} name="alert-settings" layout="vertical" initialValues={toValues(data)} onFinish={submit}>
            <Form.Item label="알림 받기" name="enabled" valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item label="받을 방법" required={false} style={{ marginBottom: 8 }}>
              <Space orientation="vertical" size={4}>
                <Form.Item name="browser" valuePropName="checked" noStyle>
                  <Checkbox disabled={!enabled}>브라우저 알림 (Leadroom 창이 열려 있을 때, 다른 탭에 있어도)</Checkbox>
                </Form.Item>
                <Form.Item name="push" valuePropName="checked" noStyle>
                  <Checkbox disabled={!enabled}>푸시 알림 (창을 닫아도 이 기기로, 기기 {data.subscriptions}대 등록됨)</Checkbox>
                </Form.Item>
                <Form.Item name="sms" valuePropName="checked" noStyle>
                  <Checkbox disabled={!enabled || !data.phone}>{data.phone ? `문자 (내 번호 ${data.phone}, 업체 문자 채널로)` : '문자'}</Checkbox>
                </Form.Item>
                {!data.phone && (
                  <Typography.Text type="secondary" style={{ display: 'block', paddingInlineStart: 24, wordBreak: 'keep-all' }}>
                    계정에 휴대폰 번호가 없어 문자로는 받을 수 없습니다. 관리자에게 번호 등록을 요청하세요.
                  </Typography.Text>
                )}
              </Space>
            </Form.Item>
            <Form.Item label="방해 금지 시간 (서울 시각, 푸시·문자를 보내지 않음)" name="quiet" valuePropName="checked">
              <Switch disabled={!enabled} />
            </Form.Item>
            {quiet && (
              <Space align="start" wrap>
                <Form.Item label="시작" name="quietStart" rules={[{ required: true, message: '방해 금지 시작 시각을 입력하세요.' }, zodRule(alertSettingsInput, 'quietStart')]}>
                  <Input placeholder="22:00" maxLength={5} style={{ width: 110 }} disabled={!enabled} inputMode="numeric" />
                </Form.Item>
                <Form.Item
                  label="종료"
                  name="quietEnd"
                  dependencies={['quietStart']}
                  rules={[
                    { required: true, message: '방해 금지 종료 시각을 입력하세요.' },
                    zodRule(alertSettingsInput, 'quietEnd'),
                    ({ getFieldValue }) => ({
                      validator: async (_r, v) => {
                        if (v && v === getFieldValue('quietStart')) throw new Error('시작과 종료 시각이 같을 수 없습니다.');
                      },
                    }),
                  ]}
                >
                  <Input placeholder="08:00" maxLength={5} style={{ width: 110 }} disabled={!enabled} inputMode="numeric" />
                </Form.Item>
              </Space>
            )}
            <button type="submit" hidden />
          </Form>
        </div>
      )}
    </Modal>
  );
}

/**
 * The header's "알림 받기" beside the tone's bell: shown while this browser has not been asked yet
 * and the account wants notifications; a click is the account asking, so the prompt appears then.
 */
export function AllowAlertsButton({ pushWanted }: { pushWanted: boolean }) {
  const [permission, setPermission] = useState<Permission>(notificationPermission);
  const { message } = App.useApp();
  if (permission !== 'default') return null;
  return (
    <Tooltip title="새로 배분된 DB를 브라우저 알림으로 받습니다">
      <Button
        size="small"
        icon={<NotificationOutlined />}
        onClick={async () => {
          const p = await allowHere(pushWanted);
          setPermission(p);
          if (p === 'granted') message.success('이 브라우저에서 알림을 받습니다.');
          else if (p === 'denied') message.warning('알림이 차단되었습니다. 사이트 설정에서 허용할 수 있습니다.');
        }}
      >
        알림 받기
      </Button>
    </Tooltip>
  );
}
