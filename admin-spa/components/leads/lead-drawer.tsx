// One lead: what the visitor sent (answers, consent, where they came from), its duplicate
// chain, the call workflow (status, appointment, memo) and its access record. Opening it is
// itself recorded.
import { useRef, useState } from 'react';
import { Alert, Button, Descriptions, Divider, Drawer, Empty, Input, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { CALL_ATTEMPT_ACTION, CALL_ATTEMPT_LABEL, leadsApi, type LeadDetail, type LeadEventItem } from '@contracts/leads.ts';
import { useQuery } from '@tanstack/react-query';
import { apiKey } from '@/lib/use-call.ts';
import type { BackgroundMeta } from '@/lib/query-client.ts';
import { call } from '@/lib/api.ts';
import { formatDateTime } from '@/lib/format.ts';
import { PhoneCell, ReservationCell, StatusSelect, duration, useLeadSave } from './lead-edits.tsx';
import { StatusTag } from '@/components/status-tag.tsx';
import { ReturnRequest } from './return-request.tsx';
import { CallPanel } from './call-panel.tsx';
import { SlaCountdown } from './sla-countdown.tsx';
import { variantTag } from './lead-columns.tsx';
import { usePhone } from '@/lib/use-phone.ts';
import { SLA_ACTIONS, SLA_ACTION_LABELS, describeSlaStep, type SlaAction } from '@contracts/lead-sla.ts';
import { DELIVERY_KIND_LABELS, JOB_TRIGGER_LABELS, type DeliveryKind, type JobTrigger } from '@contracts/delivery.ts';

const ACTIONS: Record<string, string> = {
  created: '접수', view: '열람', unmask: '전화번호 보기', [CALL_ATTEMPT_ACTION]: CALL_ATTEMPT_LABEL, status: '상태 변경', memo: '메모', assign: '배분', export: '내보내기',
  delete: '삭제', restore: '복원', purge: '파기', deliver: '전송',
  'return-request': '무효 교체 요청', 'return-approve': '무효 교체 승인', 'return-reject': '무효 교체 반려',
  ...SLA_ACTION_LABELS,
};

function describe(e: LeadEventItem): string {
  const a = e.after ?? {};
  const b = e.before ?? {};
  if (e.action === 'status') {
    const parts = [];
    if (a.csStatus && a.csStatus !== b.csStatus) parts.push(`${String(b.csStatus ?? '-')} → ${String(a.csStatus)}`);
    if ('reservedAt' in a && a.reservedAt !== b.reservedAt) parts.push(`예약 ${a.reservedAt ? formatDateTime(String(a.reservedAt)) : '없음'}`);
    if (a.reason) parts.push(`사유: ${String(a.reason)}`);
    return parts.join(' · ');
  }
  if (e.action === 'memo') return a.memo ? `“${String(a.memo).slice(0, 80)}”` : '메모 지움';
  if (e.action === 'assign') return a.assigneeName ? `담당 ${String(a.assigneeName)}` : '미배분으로';
  if (e.action === 'created') return a.duplicateOf ? `중복 (#${String(a.duplicateOf)})` : '';
  if (e.action === 'return-request') return [a.reason, a.note].filter(Boolean).map(String).join(' · ');
  if (e.action === 'return-approve' || e.action === 'return-reject') return a.note ? String(a.note) : '';
  if ((SLA_ACTIONS as readonly string[]).includes(e.action)) return describeSlaStep(e.action as SlaAction, b, a);
  if (e.action === 'deliver') {
    const kind = DELIVERY_KIND_LABELS[a.kind as DeliveryKind];
    return [a.channelName ? `${kind ? `${kind} ` : ''}'${String(a.channelName)}'` : kind, a.trigger ? JOB_TRIGGER_LABELS[a.trigger as JobTrigger] : null].filter(Boolean).join(' · ');
  }
  return '';
}

export function LeadDrawer({ shopId, id, writable, canUnmask, slaOn = false, onOpen, onClose }: {
  shopId: number;
  id: number | null;
  writable: boolean;
  canUnmask: boolean;
  /** The shop keeps a first-contact SLA: the lead's countdown shows. */
  slaOn?: boolean;
  /** Opens another lead (the duplicate chain). */
  onOpen: (id: number) => void;
  onClose: () => void;
}) {
  // One view per opening: the first reading records it and answers its id; refetches (after our
  // own changes, or react-query's) name it, and the server records no more (it checks the id).
  // The key stays the endpoint's, so every invalidation of leadsApi.get still reaches it.
  const openingRef = useRef<{ leadId: number; id: number } | null>(null);
  const params = { shopId, id: id ?? 0 };
  const read = async (background: boolean) => {
    const known = openingRef.current?.leadId === params.id ? openingRef.current.id : undefined;
    const res = await call(leadsApi.get, { params, ...(known ? { query: { opening: known } } : {}) }, { background });
    if (res.openingId !== null) openingRef.current = { leadId: res.id, id: res.openingId };
    return res;
  };
  const q = useQuery<LeadDetail>({
    queryKey: apiKey(leadsApi.get, { params }),
    queryFn: () => read(false),
    // A change announced live (the lead stream) refreshes it naming its opening too.
    meta: { background: () => read(true) } satisfies BackgroundMeta,
    enabled: id !== null,
    staleTime: 0,
  });
  const d = q.data;
  const phone = usePhone();
  const close = () => {
    // The next opening of this lead is a new view.
    openingRef.current = null;
    onClose();
  };
  return (
    <Drawer
      open={id !== null}
      // On a phone the drawer is the screen.
      size={phone ? '100%' : 640}
      onClose={close}
      destroyOnHidden
      title={d ? <Space>{d.name}<StatusTag status={d.csStatus} />{d.duplicateOf && <Tag color="magenta">중복</Tag>}</Space> : 'DB 상세'}
    >
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} />}
      {!d && !q.isError && <Skeleton active paragraph={{ rows: 12 }} />}
      {d && <Body key={d.id} shopId={shopId} d={d} writable={writable} canUnmask={canUnmask} slaOn={slaOn} phone={phone} onOpen={onOpen} />}
    </Drawer>
  );
}

function Body({ shopId, d, writable, canUnmask, slaOn, phone, onOpen }: {
  shopId: number;
  d: LeadDetail;
  writable: boolean;
  canUnmask: boolean;
  slaOn: boolean;
  /** A phone's screen: one column, and the call and its outcome first. */
  phone: boolean;
  onOpen: (id: number) => void;
}) {
  const columns = phone ? 1 : 2;
  const wait = d.firstContactAt ? duration(Date.parse(d.firstContactAt) - Date.parse(d.createdAt)) : null;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {d.duplicateOfLead && (
        <Alert
          type="warning"
          showIcon
          title={
            <span>
              {formatDateTime(d.duplicateOfLead.createdAt)}에 접수된 <Typography.Link onClick={() => onOpen(d.duplicateOfLead!.id)}>{d.duplicateOfLead.name} (#{d.duplicateOfLead.id})</Typography.Link>의 중복입니다.
            </span>
          }
        />
      )}
      {phone && writable && <CallPanel shopId={shopId} d={d} canCall={canUnmask} slaOn={slaOn} />}
      {phone && writable && <MemoEditor key={`m${d.memo ?? ''}`} shopId={shopId} id={d.id} memo={d.memo} writable={writable} />}
      <Descriptions size="small" column={columns} bordered>
        <Descriptions.Item label="연락처" span={columns}>
          <PhoneCell shopId={shopId} id={d.id} masked={d.phone} canUnmask={canUnmask} />
        </Descriptions.Item>
        <Descriptions.Item label="접수">{formatDateTime(d.createdAt)}</Descriptions.Item>
        <Descriptions.Item label="첫 연락">
          {wait ? `${wait} 만에` : d.slaDueAt && slaOn ? <SlaCountdown row={d} slaOn /> : <Typography.Text type={d.overdue ? 'danger' : 'secondary'}>아직 없음</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label="랜딩">{d.landingTitle ?? (d.source === 'landing' ? '-' : '직접 등록')}{variantTag(d.variant)}</Descriptions.Item>
        <Descriptions.Item label="매체">{d.mediaTypeName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="담당">{d.assigneeName ?? <Typography.Text type="secondary">미배분</Typography.Text>}</Descriptions.Item>
        <Descriptions.Item label="유효성">
          {d.validity === 'valid' ? '유효' : <Tag>{d.validity === 'invalid' ? '무효' : '반품'}{d.invalidReason ? ` · ${d.invalidReason}` : ''}</Tag>}
        </Descriptions.Item>
      </Descriptions>
      <ReturnRequest shopId={shopId} leadId={d.id} />

      <div>
        <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
          상담
        </Divider>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <span>상태</span>
            <StatusSelect shopId={shopId} id={d.id} status={d.csStatus} reservedAt={d.reservedAt} disabled={!writable} />
            <span style={{ marginLeft: 12 }}>예약</span>
            <ReservationCell shopId={shopId} id={d.id} reservedAt={d.reservedAt} writable={writable} />
          </Space>
          {!(phone && writable) && <MemoEditor key={d.memo ?? ''} shopId={shopId} id={d.id} memo={d.memo} writable={writable} />}
        </Space>
      </div>

      <div>
        <Divider titlePlacement="start" plain>
          신청 내용
        </Divider>
        <Descriptions size="small" column={1} bordered>
          <Descriptions.Item label="이름">{d.name}</Descriptions.Item>
          {d.answers.map((a) => (
            <Descriptions.Item key={a.label} label={a.label}>
              {a.value || '-'}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label="동의">
            <Space size={4} wrap>
              <Tag color={d.privacyConsent ? 'green' : 'default'}>개인정보 수집·이용{d.policyVersion ? ` (처리방침 ${d.policyVersion}판)` : ''}</Tag>
              {d.marketingConsent && <Tag color="green">마케팅 수신</Tag>}
              {d.sensitiveConsent && <Tag color="green">민감정보</Tag>}
            </Space>
          </Descriptions.Item>
        </Descriptions>
      </div>

      <div>
        <Divider titlePlacement="start" plain>
          유입
        </Divider>
        <Descriptions size="small" column={columns} bordered>
          <Descriptions.Item label="utm_source">{d.utmSource ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="utm_medium">{d.utmMedium ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="utm_campaign">{d.utmCampaign ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="utm_content">{d.utmContent ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="utm_term">{d.utmTerm ?? '-'}</Descriptions.Item>
          <Descriptions.Item label="유입 경로">
            <Typography.Text ellipsis style={{ maxWidth: 200 }} title={d.referrer ?? undefined}>
              {d.referrer || '직접 방문'}
            </Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </div>

      {d.duplicates.length > 0 && (
        <div>
          <Divider titlePlacement="start" plain>
            이 DB의 중복 ({d.duplicates.length}건)
          </Divider>
          <Space orientation="vertical" size={4}>
            {d.duplicates.map((x) => (
              <Typography.Link key={x.id} onClick={() => onOpen(x.id)}>
                {formatDateTime(x.createdAt)} · {x.name} (#{x.id})
              </Typography.Link>
            ))}
          </Space>
        </div>
      )}

      <div>
        <Divider titlePlacement="start" plain>
          {/* The drawer's times are Seoul's, which a staff member abroad would not assume. */}
          처리 기록 <Typography.Text type="secondary" style={{ fontSize: 12 }}>(한국 시간)</Typography.Text>
        </Divider>
        {d.history.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <Timeline
            items={d.history.map((e) => ({
              key: e.id,
              color: e.action === 'created' ? 'green' : e.action === 'view' || e.action === 'unmask' ? 'gray' : 'blue',
              content: (
                <Space orientation="vertical" size={0}>
                  <Typography.Text>
                    {ACTIONS[e.action] ?? e.action} {describe(e) && <Typography.Text type="secondary">{describe(e)}</Typography.Text>}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(e.at)} · {e.accountName ?? (e.action === 'created' ? '방문자' : '시스템')}
                    {e.ip ? ` · ${e.ip}` : ''}
                  </Typography.Text>
                </Space>
              ),
            }))}
          />
        )}
      </div>
    </Space>
  );
}

/** The whole memo; saved memos come back as the lead's, which resets the editor. */
function MemoEditor({ shopId, id, memo, writable }: { shopId: number; id: number; memo: string | null; writable: boolean }) {
  const save = useLeadSave(shopId);
  const [value, setValue] = useState(memo ?? '');
  return (
    <>
      <Input.TextArea
        aria-label="메모"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoSize={{ minRows: 3, maxRows: 10 }}
        maxLength={2000}
        disabled={!writable}
        placeholder="통화 내용, 다음 연락 약속 …"
      />
      {writable && (
        <Button type="primary" disabled={value === (memo ?? '')} onClick={() => save(id, { memo: value }, '메모를 저장했습니다.')}>
          메모 저장
        </Button>
      )}
    </>
  );
}
