// DB 전송: the current shop's leads filtered as in DB 현황; chosen rows, or every lead the list's
// period and filters find, sent now to one of the shop's channels with a reason, after a
// confirmation that says how many and where. The send's progress follows below the picker
// until every lead was tried once; then what came of it, with the way into DB 전송 이력.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Card, Checkbox, Empty, Form, Select, Space, Tooltip, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { DELIVERY_KIND_LABELS } from '@contracts/delivery.ts';
import { josa } from '@contracts/korean.ts';
import { SEND_MATCHING_MAX, deliveryApi, deliverySendInput, type DeliveryChannelOption, type DeliverySendResult } from '@contracts/delivery-history.ts';
import { call } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber } from '@/lib/format.ts';
import { usePeriod } from '@/components/period-picker.tsx';
import { LeadPeriodTable } from '@/components/leads/lead-period-table.tsx';
import { readOnlyLeadColumns, tagsColumn } from '@/components/leads/lead-columns.tsx';
import { useLeadFilterValues, useLeadFilters } from '@/components/lead-filters.tsx';
import { ReasonModal } from '@/components/reason-modal.tsx';
import { KindTag } from '@/components/delivery/delivery-tags.tsx';
import { SendProgress, type SentBatch } from './send-progress.tsx';

type Target = { kind: 'chosen'; ids: number[] } | { kind: 'matching'; count: number };

const SETTINGS = '/database-delivery-settings';
/** Sends of this visit whose progress stays on screen. */
const RECENT_SENDS = 3;

/** A channel in the picker: its kind and name; one that is off, greyed with why. */
function channelLabel(c: DeliveryChannelOption) {
  return (
    <Space size={6}>
      <KindTag kind={c.kind} />
      <span>{c.name}</span>
      {c.mode === 'digest' && c.enabled && <Typography.Text type="secondary">(모아 보내기 채널 · 지금 바로 보냅니다)</Typography.Text>}
      {!c.enabled && <Typography.Text type="secondary">— 사용 중지{c.disabledReason ? `: ${c.disabledReason}` : ''}</Typography.Text>}
    </Space>
  );
}

export default function ShopDataDelivery() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('shop-data-delivery', 'write');
  const canSettings = can('database-delivery-settings');
  const params = { shopId: shop.id };
  const period = usePeriod(7);
  const { from, to } = period;
  const filters = useLeadFilters(shop.id, { counselors: account!.dataScope !== 'assigned' });
  const filter = useLeadFilterValues(from, to);
  const channels = useCall(deliveryApi.channels, { params });
  // Every lead the list's period and filters find (the "send all" button says how many).
  const matching = useCall(leadsApi.list, { params, query: { ...filter, page: 1, pageSize: 1 } }, { keepPrevious: true });
  const [picked, setPicked] = useState<number | null>(null);
  const [includeDuplicates, setIncludeDuplicates] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [target, setTarget] = useState<Target | null>(null);
  // The sends of this visit, newest first (each follows its own progress).
  const [sent, setSent] = useState<SentBatch[]>([]);

  const all = channels.data?.items ?? [];
  const usable = all.filter((c) => c.enabled);
  // One channel on: it is the one.
  const channelId = picked ?? (usable.length === 1 ? usable[0]!.id : null);
  const channel = all.find((c) => c.id === channelId && c.enabled) ?? null;
  const total = matching.data?.total ?? 0;
  const count = target ? (target.kind === 'chosen' ? target.ids.length : target.count) : 0;

  if (channels.isLoading) return <Card variant="borderless" loading />;
  if (channels.isError) return <Alert type="error" showIcon title={(channels.error as Error).message} />;
  if (!all.length) {
    return (
      <Card variant="borderless">
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <Space orientation="vertical" size={4}>
              <Typography.Text strong>아직 전송 채널이 없습니다.</Typography.Text>
              <Typography.Text type="secondary">웹훅·이메일·문자 채널을 등록하면 여기서 DB를 골라 바로 보낼 수 있습니다.</Typography.Text>
            </Space>
          }
        >
          {canSettings ? (
            <Link to={SETTINGS}><Button type="primary">DB 전송 설정에서 채널 등록</Button></Link>
          ) : (
            <Typography.Text type="secondary">채널 등록은 DB 전송 설정 권한이 있는 관리자에게 요청하세요.</Typography.Text>
          )}
        </Empty>
      </Card>
    );
  }

  const columns: ColumnsType<LeadListItem> = [
    ...readOnlyLeadColumns(),
    tagsColumn({ duplicateTip: includeDuplicates ? '중복 DB도 보냅니다.' : '중복 DB는 보내지 않습니다. 보내려면 위에서 "중복 DB도 보내기"를 켜세요.' }),
  ];

  const tooMany = total > SEND_MATCHING_MAX;
  const sendHint = !channel ? '보낼 채널을 먼저 고르세요.' : undefined;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" title="보낼 채널">
        <Form layout="inline" style={{ rowGap: 8 }}>
          <Form.Item label="채널" required>
            <Select
              aria-label="보낼 채널"
              placeholder="채널 선택"
              style={{ width: 420, maxWidth: '100%' }}
              value={channelId ?? undefined}
              onChange={(v: number) => setPicked(v)}
              options={all.map((c) => ({ value: c.id, label: channelLabel(c), disabled: !c.enabled, title: `${DELIVERY_KIND_LABELS[c.kind]} ${c.name}` }))}
            />
          </Form.Item>
          <Form.Item>
            <Checkbox checked={includeDuplicates} onChange={(e) => setIncludeDuplicates(e.target.checked)}>중복 DB도 보내기</Checkbox>
          </Form.Item>
        </Form>
        <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
          채널에 정해 둔 상태·랜딩 조건과 상관없이 고른 DB를 지금 보냅니다. 이미 보낸 DB도 다시 보내며, 삭제된 DB는 보내지 않습니다.
          {!usable.length && ' 지금은 켜져 있는 채널이 없습니다.'}
          {canSettings && <> 채널은 <Link to={SETTINGS}>DB 전송 설정</Link>에서 관리합니다.</>}
        </Typography.Paragraph>
      </Card>

      {sent.map((b) => (
        <SendProgress key={b.jobIds[0]} shopId={shop.id} batch={b} onClose={() => setSent((all) => all.filter((x) => x !== b))} />
      ))}

      <LeadPeriodTable
        shopId={shop.id}
        period={period}
        columns={columns}
        filters={filters}
        selection={writable ? { selected, onChange: setSelected } : undefined}
        actions={writable && (
          <>
            <Tooltip title={sendHint}>
              <Button type="primary" icon={<SendOutlined />} disabled={!channel || !selected.length} onClick={() => setTarget({ kind: 'chosen', ids: selected })}>
                선택한 {formatNumber(selected.length)}건 전송
              </Button>
            </Tooltip>
            <Tooltip title={sendHint ?? (tooMany ? `한 번에 ${formatNumber(SEND_MATCHING_MAX)}건까지 보낼 수 있습니다. 기간이나 조건을 좁히세요.` : undefined)}>
              <Button disabled={!channel || !total || tooMany} loading={matching.isFetching && !matching.data} onClick={() => setTarget({ kind: 'matching', count: total })}>
                조건에 맞는 전체 ({formatNumber(total)}건) 전송
              </Button>
            </Tooltip>
          </>
        )}
      />

      <ReasonModal
        open={!!target && !!channel}
        title="DB 전송"
        okText={`${formatNumber(count)}건 전송`}
        schema={deliverySendInput}
        placeholder="예: 업체 CRM 장애로 누락된 DB 재전송"
        description={
          channel && (
            <Alert
              type="info"
              showIcon
              title={
                <>
                  {target?.kind === 'matching' ? `접수 기간 ${from} ~ ${to}, 지금 목록의 조건에 맞는 DB ${formatNumber(count)}건을` : `선택한 DB ${formatNumber(count)}건을`}{' '}
                  <KindTag kind={channel.kind} /> <Typography.Text strong>{channel.name}</Typography.Text>{josa(channel.name, '으로/로')} 지금 보냅니다.
                </>
              }
              description={
                includeDuplicates
                  ? '중복 DB도 함께 보냅니다. 삭제된 DB는 보내지 않습니다. 보낸 기록은 각 DB의 개인정보 접근 기록에 남습니다.'
                  : '중복 DB와 삭제된 DB는 빼고 보냅니다. 보낸 기록은 각 DB의 개인정보 접근 기록에 남습니다.'
              }
            />
          )
        }
        submit={async (reason) => {
          const body = target?.kind === 'chosen'
            ? { channelId: channel!.id, leadIds: target.ids, includeDuplicates, reason }
            : { channelId: channel!.id, filter, includeDuplicates, reason };
          const result: DeliverySendResult = await call(deliveryApi.send, { params, body });
          setSent((all) => [{ ...result, channelName: channel!.name, channelKind: channel!.kind }, ...all].slice(0, RECENT_SENDS));
          const left = result.skipped.deleted + result.skipped.duplicates;
          return `${formatNumber(result.queued)}건을 보내기 시작했습니다.${left ? ` (${formatNumber(left)}건 제외)` : ''}`;
        }}
        onClose={(done) => {
          setTarget(null);
          if (done) setSelected([]);
        }}
      />
    </Space>
  );
}
