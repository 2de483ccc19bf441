// DB 현황: the current shop's leads for a period, filtered and sorted on the server with the
// view kept in the URL. Status, appointment and memo change in place; chosen rows change
// status together; a lead's name opens its detail. Counselors see only their own leads.
import { useEffect, useMemo, useState } from 'react';
import { App, Button, Form, InputNumber, Popover, Select, Tooltip, Typography } from 'antd';
import { ClockCircleOutlined, SettingOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import { SETTABLE_STATUSES, leadSettingsInput, leadsApi, type CsStatus, type LeadListItem } from '@contracts/leads.ts';
import { landingsApi } from '@contracts/landings.ts';
import { leadSlaApi } from '@contracts/lead-sla.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useCodeOptions } from '@/lib/options.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { useSearchId } from '@/lib/search-state.ts';
import { usePhone } from '@/lib/use-phone.ts';
import { SLA_REFRESH_MS, SlaCountdown } from '@/components/leads/sla-countdown.tsx';
import { LeadCards } from './lead-cards.tsx';
import { usePeriod } from '@/components/period-picker.tsx';
import { LeadPeriodTable } from '@/components/leads/lead-period-table.tsx';
import { LeadDrawer } from '@/components/leads/lead-drawer.tsx';
import { ExportButton } from './export-modal.tsx';
import { MemoCell, PhoneCell, ReservationCell, StatusDialogModal, StatusSelect, duration, statusOptions } from '@/components/leads/lead-edits.tsx';
import { StatusTag } from '@/components/status-tag.tsx';
import { assigneeColumn, landingColumn, nameColumn, phoneColumn, receivedColumn, statusColumn, tagsColumn } from '@/components/leads/lead-columns.tsx';
import './database-status.css';

export default function DatabaseStatus() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('database-status', 'write');
  const mine = account!.dataScope === 'assigned';
  const params = { shopId: shop.id };
  const period = usePeriod(1);
  const { from, to } = period;
  const [openId, openLead] = useSearchId('lead');

  const landings = useCall(landingsApi.options, { params });
  const media = useCodeOptions('media-type');
  const counselors = useCall(leadsApi.counselors, { params }, { enabled: !mine });
  const settings = useCall(leadsApi.settings, { params });
  const [selected, setSelected] = useState<number[]>([]);
  const now = useNow(60_000);
  const phone = usePhone();
  const sla = useCall(leadSlaApi.settings, { params });
  const slaOn = !!sla.data?.enabled;

  const loadMemo = async (id: number) => (await call(leadsApi.get, { params: { ...params, id } })).memo;

  const columns = useMemo<ColumnsType<LeadListItem>>(
    () => [
      receivedColumn({ width: 150 }),
      nameColumn(openLead),
      phoneColumn({ render: (v: string, row) => <PhoneCell key={row.id} shopId={shop.id} id={row.id} masked={v} canUnmask={account!.canUnmask} /> }),
      statusColumn({ render: (v: CsStatus, row) => <StatusSelect shopId={shop.id} id={row.id} status={v} reservedAt={row.reservedAt} disabled={!writable} /> }),
      {
        title: '첫 연락', key: 'firstContactAt',
        render: (_: unknown, row) =>
          row.firstContactAt ? (
            duration(Date.parse(row.firstContactAt) - Date.parse(row.createdAt))
          ) : row.csStatus === '미처리' ? (
            <Tooltip title="접수 후 아직 연락하지 않았습니다">
              <Typography.Text type={row.overdue ? 'danger' : 'secondary'} strong={row.overdue} style={{ whiteSpace: 'nowrap' }}>
                <ClockCircleOutlined /> {duration(now - Date.parse(row.createdAt))} 대기
              </Typography.Text>
            </Tooltip>
          ) : (
            '-'
          ),
      },
      ...(slaOn
        ? [{
            title: <Tooltip title="첫 연락 기한까지 남은 근무 시간">응답 SLA</Tooltip>, key: 'sla',
            render: (_: unknown, row: LeadListItem) => <SlaCountdown row={row} slaOn />,
          }]
        : []),
      {
        title: '예약', dataIndex: 'reservedAt', key: 'reservedAt',
        render: (v: string | null, row) => <ReservationCell shopId={shop.id} id={row.id} reservedAt={v} writable={writable} />,
      },
      ...(mine ? [] : [assigneeColumn<LeadListItem>()]),
      {
        title: '메모', dataIndex: 'memo', key: 'memo',
        render: (v: string | null, row) => <MemoCell shopId={shop.id} id={row.id} excerpt={v} writable={writable} load={() => loadMemo(row.id)} />,
      },
      landingColumn(),
      tagsColumn(),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the row handlers read the URL at click time
    [shop.id, writable, mine, account, now, slaOn],
  );

  const filters = [
    { name: 'q', label: '이름 또는 전화번호', type: 'search' as const, width: 200 },
    { name: 'status', label: '상태', type: 'multi' as const, options: statusOptions },
    ...(mine
      ? []
      : [{
          name: 'assignee', label: '담당', type: 'select' as const,
          options: [{ value: 'none', label: '미배분' }, ...(counselors.data?.items ?? []).map((c) => ({ value: String(c.id), label: c.name }))],
        }]),
    { name: 'landingId', label: '랜딩', type: 'select' as const, width: 180, options: (landings.data?.items ?? []).map((l) => ({ value: String(l.id), label: l.title })) },
    { name: 'mediaTypeId', advanced: true, label: '매체', type: 'select' as const, options: media.options.map((o) => ({ value: String(o.value), label: o.label })) },
    { name: 'utmSource', advanced: true, label: 'utm_source', type: 'search' as const, width: 140 },
    { name: 'utmCampaign', advanced: true, label: 'utm_campaign', type: 'search' as const, width: 150 },
    { name: 'duplicate', advanced: true, label: '중복', type: 'select' as const, options: [{ value: 'unique', label: '중복 아님' }, { value: 'duplicate', label: '중복만' }] },
    { name: 'validity', advanced: true, label: '유효성', type: 'select' as const, options: [{ value: 'valid', label: '유효' }, { value: 'invalid', label: '무효·반품' }] },
  ];

  const empty = mine
    ? '이 기간에 배분받은 DB가 없습니다. 관리자가 DB를 배분하면 여기에 나타납니다.'
    : '이 기간에 접수된 DB가 없습니다. 랜딩에서 신청이 들어오면 바로 여기에 나타납니다.';
  const drawer = (
    <LeadDrawer shopId={shop.id} id={openId} writable={writable} canUnmask={account!.canUnmask} slaOn={slaOn} onOpen={openLead} onClose={() => openLead(null)} />
  );

  if (phone) {
    return (
      <>
        <LeadCards shopId={shop.id} period={period} onOpen={openLead} empty={empty} />
        {drawer}
      </>
    );
  }

  return (
    <>
      <LeadPeriodTable
        shopId={shop.id}
        period={period}
        columns={columns}
        filters={filters}
        rowClassName={(row) => (row.overdue ? 'lr-overdue' : '')}
        selection={writable ? { selected, onChange: setSelected } : undefined}
        empty={empty}
        refetchInterval={slaOn ? SLA_REFRESH_MS : false}
        actions={
          <>
            {writable && selected.length > 0 && <BulkStatus shopId={shop.id} ids={selected} onDone={() => setSelected([])} />}
            {writable && !mine && settings.data && <OverdueSetting shopId={shop.id} minutes={settings.data.overdueMinutes} />}
            <ExportButton shopId={shop.id} from={from} to={to} filterNames={filters.map((f) => f.name)} />
          </>
        }
      />
      {drawer}
    </>
  );
}

/** The time, updated every `ms` (waits shown in minutes move on their own). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** One status for the chosen rows. */
function BulkStatus({ shopId, ids, onDone }: { shopId: number; ids: number[]; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [dialog, setDialog] = useState<Parameters<typeof StatusDialogModal>[0]['dialog']>(null);
  const apply = async (csStatus: CsStatus, extra: { reservedAt?: string; reason?: string } = {}) => {
    try {
      const { updated } = await call(leadsApi.bulkStatus, { params: { shopId }, body: { ids, csStatus, ...extra } });
      await invalidate(queryClient, [leadsApi.list, leadsApi.get]);
      message.success(`${updated.toLocaleString('ko-KR')}건을 ${csStatus} 상태로 바꿨습니다.`);
      onDone();
      return true;
    } catch (err) {
      message.error((err as Error).message);
      return false;
    }
  };
  return (
    <>
      <Select<CsStatus>
        placeholder={`선택한 ${ids.length}건 상태 변경`}
        aria-label="선택한 DB 상태 변경"
        style={{ width: 200 }}
        value={null}
        options={SETTABLE_STATUSES.map((s) => ({ value: s, label: <StatusTag status={s} /> }))}
        onChange={(s) => {
          if (s === '상담예약' || s === '무효') setDialog({ status: s, apply: (extra) => apply(s, extra) });
          else void apply(s);
        }}
      />
      <StatusDialogModal dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}

/** When 미처리 turns red: the shop's threshold. */
function OverdueSetting({ shopId, minutes }: { shopId: number; minutes: number }) {
  const [form] = Form.useForm<{ overdueMinutes: number }>();
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title="미처리 경고"
      content={
        <Form
          form={form}
          layout="vertical"
          initialValues={{ overdueMinutes: minutes }}
          onFinish={async (v) => {
            try {
              await call(leadsApi.updateSettings, { params: { shopId }, body: v });
              await invalidate(queryClient, [leadsApi.settings, leadsApi.list]);
              message.success('저장했습니다.');
              setOpen(false);
            } catch (err) {
              message.error((err as Error).message);
            }
          }}
        >
          <Form.Item label="접수 후 연락 없이 지나면 빨갛게 표시" name="overdueMinutes" rules={[zodRule(leadSettingsInput, 'overdueMinutes')]}>
            <InputNumber min={5} max={1440} suffix="분" style={{ width: 160 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" block>
            저장
          </Button>
        </Form>
      }
    >
      <Button icon={<SettingOutlined />} title="접수 후 이 시간이 지나도록 미처리면 빨갛게 표시합니다">
        미처리 경고 {minutes}분
      </Button>
    </Popover>
  );
}
