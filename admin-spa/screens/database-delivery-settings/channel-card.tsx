// One delivery channel as a card: where it sends, when and what, whether it is on (and why the
// system stopped it), its last delivery and what waits or failed; with write permission the
// 사용 switch, 테스트 전송 with the receiver's answer underneath, 수정, 비밀키 재발급 and 삭제.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, App, Button, Card, Descriptions, Popconfirm, Space, Switch, Tag, Tooltip, Typography, type DescriptionsProps } from 'antd';
import { ApiOutlined, MailOutlined, MessageOutlined, SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { DELIVERY_FIELD_LABELS, DELIVERY_KIND_LABELS, JOB_STATUS_LABELS, type DeliveryKind } from '@contracts/delivery.ts';
import { deliveryChannelsApi, type DeliveryChannel, type DeliveryTestResult } from '@contracts/delivery-channels.ts';
import { call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ConfirmAction, DeleteAction } from '@/components/confirm-action.tsx';
import { CHANNEL_VIEWS } from './views.ts';
import type { ShownSecret } from './secret-modal.tsx';

const api = deliveryChannelsApi;

const KIND_ICONS: Record<DeliveryKind, typeof ApiOutlined> = { webhook: ApiOutlined, email: MailOutlined, sms: MessageOutlined };

function StateTag({ c }: { c: DeliveryChannel }) {
  if (c.enabled) return <Tag color="green">사용 중</Tag>;
  if (c.disabledReason) return <Tag color="red">자동 중지</Tag>;
  return <Tag>중지</Tag>;
}

/** "전체" or the first names, the rest in a tooltip. */
function names(list: string[], all: string) {
  if (list.length === 0) return <Typography.Text type="secondary">{all}</Typography.Text>;
  const text = list.length <= 2 ? list.join(', ') : `${list.slice(0, 2).join(', ')} 외 ${list.length - 2}`;
  return list.length > 2 ? <Tooltip title={list.join(', ')}>{text}</Tooltip> : <span>{text}</span>;
}

/** The receiver's answer to a test send. */
function TestResultPanel({ result, onClose }: { result: DeliveryTestResult; onClose: () => void }) {
  const head = [
    result.ok ? '테스트 전송 성공' : '테스트 전송 실패',
    result.status !== null ? `응답 ${result.status}` : '응답 없음',
    `${formatNumber(result.durationMs)}ms`,
  ].join(' · ');
  return (
    <Alert
      type={result.ok ? 'success' : 'error'}
      showIcon
      closable={{ onClose }}
      title={head}
      description={
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          {result.error && <Typography.Text>{result.error}</Typography.Text>}
          {result.excerpt ? (
            <>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>받는 쪽 응답 (앞부분)</Typography.Text>
              <pre style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 160, overflow: 'auto', background: 'rgba(0,0,0,0.03)', padding: 8, borderRadius: 4 }}>
                {result.excerpt}
              </pre>
            </>
          ) : (
            !result.error && <Typography.Text type="secondary">응답 본문이 비어 있습니다.</Typography.Text>
          )}
        </Space>
      }
    />
  );
}

/** What the card says of a channel: where and when it sends, which leads and fields, its last delivery and its waiting and failed jobs. */
function channelDetails(c: DeliveryChannel, landingTitles: Map<number, string>, canHistory: boolean): DescriptionsProps['items'] {
  const landings = c.landingIds.map((id) => landingTitles.get(id) ?? `#${id}`);
  const history = (query: string) => (canHistory ? `/shop-data-deliver-history?channelId=${c.id}${query}` : null);
  const count = (n: number, label: string, to: string | null, type?: 'warning' | 'danger') => {
    const text = <Typography.Text type={n > 0 ? type : 'secondary'}>{`${label} ${formatNumber(n)}건`}</Typography.Text>;
    return to && n > 0 ? <Link to={to}>{text}</Link> : text;
  };

  return [
    { key: 'target', label: '받는 곳', children: <Typography.Text ellipsis={{ tooltip: c.target }}>{c.target}</Typography.Text> },
    {
      key: 'mode', label: '시점',
      children: c.mode === 'digest' ? `매일 ${c.digestAt ?? '-'} 모아서` : '접수 즉시',
    },
    {
      key: 'filter', label: '보낼 DB',
      children: (
        <Space size={4} wrap>
          <span>상태</span>{names(c.statuses, '전체')}
          <Typography.Text type="secondary">·</Typography.Text>
          <span>랜딩</span>{names(landings, '전체')}
          {c.includeDuplicates && <Tag style={{ marginInlineStart: 4 }}>중복 포함</Tag>}
        </Space>
      ),
    },
    ...(c.kind !== 'sms' ? [{
      key: 'fields', label: '항목',
      children: names(c.fields.map((f) => DELIVERY_FIELD_LABELS[f]), '없음'),
    }] : []),
    ...(c.kind !== 'webhook' ? [{
      key: 'phone', label: '연락처', children: c.config.fullPhone ? <Tag color="orange">전체 번호</Tag> : <span>가려서 (010-****-5678)</span>,
    }] : [{
      key: 'secret', label: '서명 비밀키',
      children: (
        <Space size={4} wrap>
          <Typography.Text code>{c.secretPrefix ? `${c.secretPrefix}…` : '없음'}</Typography.Text>
          {c.previousSecretUntil && <Typography.Text type="secondary" style={{ fontSize: 12 }}>이전 키 {formatDateTime(c.previousSecretUntil)}까지 유효</Typography.Text>}
        </Space>
      ),
    }]),
    {
      key: 'last', label: '마지막 전송',
      children: c.lastDelivery ? (
        <Space size={6} wrap>
          <span>{formatDateTime(c.lastDelivery.at)}</span>
          <Tag color={c.lastDelivery.status === 'succeeded' ? 'green' : 'red'}>{JOB_STATUS_LABELS[c.lastDelivery.status]}</Tag>
          {c.lastDelivery.responseCode !== null && <Typography.Text type="secondary">응답 {c.lastDelivery.responseCode}</Typography.Text>}
        </Space>
      ) : (
        <Typography.Text type="secondary">아직 없음</Typography.Text>
      ),
    },
    {
      key: 'jobs', label: '대기 · 실패',
      children: (
        <Space size={12}>
          {count(c.pendingJobs, '대기', history('&status=pending,sending'), 'warning')}
          {count(c.failedJobs, '실패', history('&status=failed'), 'danger')}
        </Space>
      ),
    },
  ];
}

export function ChannelCard({ channel: c, shopId, writable, canHistory, landingTitles, onEdit, onSecret }: {
  channel: DeliveryChannel;
  shopId: number;
  writable: boolean;
  canHistory: boolean;
  landingTitles: Map<number, string>;
  onEdit: () => void;
  onSecret: (s: ShownSecret) => void;
}) {
  const params = { shopId, id: c.id };
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [switching, setSwitching] = useState(false);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<DeliveryTestResult | null>(null);
  const Icon = KIND_ICONS[c.kind];

  async function setEnabled(enabled: boolean) {
    setSwitching(true);
    try {
      await call(api.setEnabled, { params, body: { enabled } });
      await invalidate(queryClient, CHANNEL_VIEWS);
      message.success(enabled ? `${c.name} 채널을 켰습니다.` : c.pendingJobs > 0 ? `${c.name} 채널을 껐습니다. 대기 중이던 ${formatNumber(c.pendingJobs)}건을 취소했습니다.` : `${c.name} 채널을 껐습니다.`);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '바꾸지 못했습니다.');
    } finally {
      setSwitching(false);
    }
  }

  async function test() {
    setTesting(true);
    setResult(null);
    try {
      setResult(await call(api.test, { params }));
      await invalidate(queryClient, CHANNEL_VIEWS);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '테스트 전송을 하지 못했습니다.');
    } finally {
      setTesting(false);
    }
  }

  const toggle = writable && (
    c.enabled && c.pendingJobs > 0 ? (
      <Popconfirm
        title={`${c.name} 채널을 끌까요?`}
        description={`보내려고 기다리던 ${formatNumber(c.pendingJobs)}건은 취소됩니다. 취소된 건은 DB 전송 이력에서 다시 보낼 수 있습니다.`}
        okText="끄기"
        cancelText="취소"
        okButtonProps={{ danger: true }}
        onConfirm={() => setEnabled(false)}
      >
        <Switch checked loading={switching} checkedChildren="사용" unCheckedChildren="중지" aria-label={`${c.name} 사용`} />
      </Popconfirm>
    ) : (
      <Switch checked={c.enabled} loading={switching} onChange={setEnabled} checkedChildren="사용" unCheckedChildren="중지" aria-label={`${c.name} 사용`} />
    )
  );

  return (
    <Card
      size="small"
      title={
        <Space size={8} style={{ minWidth: 0 }}>
          <Icon style={{ color: c.enabled ? '#1677ff' : '#bfbfbf' }} />
          <Typography.Text strong ellipsis={{ tooltip: c.name }} style={{ maxWidth: 260 }}>{c.name}</Typography.Text>
          <Tag>{DELIVERY_KIND_LABELS[c.kind]}</Tag>
          <StateTag c={c} />
        </Space>
      }
      extra={toggle}
      actions={writable ? [
        <Button key="test" type="link" size="small" icon={<SendOutlined />} loading={testing} onClick={test}>테스트 전송</Button>,
        <Button key="edit" type="link" size="small" onClick={onEdit}>수정</Button>,
        ...(c.kind === 'webhook' ? [
          <ConfirmAction
            key="rotate"
            label="비밀키 재발급"
            confirm="서명 비밀키를 새로 만들까요?"
            description="새 비밀키를 한 번만 보여 드립니다. 지금 비밀키도 24시간 동안 함께 서명하니, 그 안에 받는 시스템을 바꾸세요."
            run={async () => {
              const r = await call(api.rotateSecret, { params });
              onSecret({ channelName: c.name, secret: r.secret, previousValidUntil: r.previousValidUntil });
            }}
            invalidates={CHANNEL_VIEWS}
            success="새 비밀키를 만들었습니다."
          />,
        ] : []),
        <DeleteAction
          key="delete"
          endpoint={api.remove}
          input={{ params }}
          invalidates={CHANNEL_VIEWS}
          confirm={`'${c.name}' 채널을 삭제할까요?`}
        />,
      ] : undefined}
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {!c.enabled && c.disabledReason && (
          <Alert
            type="error"
            showIcon
            title={c.disabledReason}
            description={`${formatDateTime(c.disabledAt)}에 자동으로 중지했습니다.`}
          />
        )}
        <Descriptions
          size="small"
          column={1}
          styles={{ label: { width: 96, color: 'rgba(0,0,0,0.55)' } }}
          items={channelDetails(c, landingTitles, canHistory)}
        />
        {result && <TestResultPanel result={result} onClose={() => setResult(null)} />}
      </Space>
    </Card>
  );
}
