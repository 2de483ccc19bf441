// DB 배분: unassigned leads (filtered as in DB 현황) handed to the shop's counselors — manually,
// in turn, or by weight — within each counselor's daily cap and open-lead maximum, previewed
// before it is applied; the counselors' settings; and the automatic rule for new leads.
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  Alert, App, Button, Card, Checkbox, Col, Empty, InputNumber, Popconfirm, Radio, Row, Segmented, Select, Space, Switch, Table, Tag, Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import {
  ALLOCATION_MODE_LABELS, AUTO_MODES, AUTO_MODE_LABELS, allocationApi, type AllocationInput, type AllocationMode, type AllocationPlan, type AutoMode,
  type CounselorLoad,
} from '@contracts/allocation.ts';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { landingsApi } from '@contracts/landings.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useCodeOptions } from '@/lib/options.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { SlaSettings } from './sla-settings.tsx';

/** What an allocation changes. */
const ALLOCATION_VIEWS = [allocationApi.state, allocationApi.history, leadsApi.list, leadsApi.get];

export default function DataAllocation() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('data-allocation', 'write');
  const params = { shopId: shop.id };
  const [search] = useSearchParams();
  const { from, to, today, setPeriod } = usePeriod(7);
  const state = useCall(allocationApi.state, { params });
  const landings = useCall(landingsApi.options, { params });
  const media = useCodeOptions('media-type');
  const [selected, setSelected] = useState<number[]>([]);

  const columns: ColumnsType<LeadListItem> = [
    { title: '접수', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: '이름', dataIndex: 'name', key: 'name' },
    { title: '연락처', dataIndex: 'phone', key: 'phone' },
    { title: '랜딩', dataIndex: 'landingTitle', key: 'landing', render: (v: string | null) => <Typography.Text ellipsis style={{ maxWidth: 180 }}>{v ?? '직접 등록'}</Typography.Text> },
    { title: '매체', dataIndex: 'mediaTypeName', key: 'media', render: (v: string | null) => v ?? '-' },
  ];

  // "Every one matching" means what the list shows: its period and filters.
  const filter = {
    from, to,
    ...(search.get('landingId') ? { landingId: Number(search.get('landingId')) } : {}),
    ...(search.get('mediaTypeId') ? { mediaTypeId: Number(search.get('mediaTypeId')) } : {}),
    ...(search.get('q') ? { q: search.get('q')! } : {}),
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={16}>
        <Col xs={24} xl={15}>
          <ResourceTable
            title={<Space>미배분 DB {state.data && <Tag color={state.data.unassigned ? 'red' : 'default'}>전체 {formatNumber(state.data.unassigned)}건</Tag>}</Space>}
            endpoint={leadsApi.list}
            params={params}
            extraQuery={{ from, to, assignee: 'none', duplicate: 'unique' }}
            columns={columns}
            filters={[
              { name: 'q', label: '이름 또는 전화번호', type: 'search', width: 180 },
              { name: 'landingId', label: '랜딩', type: 'select', width: 160, options: (landings.data?.items ?? []).map((l) => ({ value: String(l.id), label: l.title })) },
              { name: 'mediaTypeId', label: '매체', type: 'select', width: 120, options: media.options.map((o) => ({ value: String(o.value), label: o.label })) },
            ]}
            rowSelection={writable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
            toolbar={<PeriodPicker label="접수 기간" from={from} to={to} today={today} onChange={setPeriod} />}
            empty="이 기간에 배분할 DB가 없습니다."
          />
        </Col>
        <Col xs={24} xl={9}>
          {state.data && (
            <AllocationPanel shopId={shop.id} counselors={state.data.counselors} selected={selected} filter={filter} writable={writable} onDone={() => setSelected([])} />
          )}
        </Col>
      </Row>
      {state.data && <CounselorSettings shopId={shop.id} counselors={state.data.counselors} writable={writable} />}
      {state.data && <AutoRule shopId={shop.id} mode={state.data.autoMode} writable={writable} />}
      {/* The promise to the shop is the agency's to set; the shop's own accounts read it. */}
      <SlaSettings shopId={shop.id} writable={writable && account?.side === 'agency'} />
    </Space>
  );
}

function AllocationPanel({ shopId, counselors, selected, filter, writable, onDone }: {
  shopId: number;
  counselors: CounselorLoad[];
  selected: number[];
  filter: NonNullable<AllocationInput['filter']>;
  writable: boolean;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [target, setTarget] = useState<'selected' | 'filter'>('selected');
  const [mode, setMode] = useState<AllocationMode>('round-robin');
  const available = counselors.filter((c) => c.available);
  const [chosen, setChosen] = useState<number[]>(() => available.map((c) => c.id));
  const [one, setOne] = useState<number | null>(null);
  const [planned, setPlanned] = useState<AllocationPlan | null>(null);
  const [busy, setBusy] = useState(false);
  const effectiveTarget = selected.length ? target : 'filter';

  const body = useMemo<AllocationInput>(
    () => ({
      mode,
      counselorIds: mode === 'manual' ? (one ? [one] : []) : chosen,
      ...(effectiveTarget === 'selected' ? { leadIds: selected } : { filter }),
    }),
    [mode, one, chosen, effectiveTarget, selected, filter],
  );
  const ready = body.counselorIds.length > 0;

  const run = async (apply: boolean) => {
    setBusy(true);
    try {
      const result = await call(apply ? allocationApi.apply : allocationApi.preview, { params: { shopId }, body });
      if (apply) {
        await invalidate(queryClient, ALLOCATION_VIEWS);
        const given = result.total - result.unplaced;
        message.success(`${formatNumber(given)}건을 배분했습니다.${result.unplaced ? ` ${formatNumber(result.unplaced)}건은 받을 수 있는 상담원이 없어 남았습니다.` : ''}`);
        setPlanned(null);
        onDone();
      } else setPlanned(result);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!counselors.length) {
    return (
      <Card variant="borderless" title="배분">
        <Empty description="이 업체에 배분받을 상담원이 없습니다. 관리자가 상담원 계정에 이 업체의 접근 권한을 주면 여기에 나타납니다." />
      </Card>
    );
  }

  return (
    <Card variant="borderless" title="배분">
      <Space orientation="vertical" size={14} style={{ width: '100%' }}>
        <div>
          <Typography.Text type="secondary">대상</Typography.Text>
          <Radio.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 4 }}
            value={effectiveTarget}
            onChange={(e) => { setTarget(e.target.value as 'selected' | 'filter'); setPlanned(null); }}
            options={[
              { value: 'selected', label: `선택한 DB ${selected.length}건`, disabled: !selected.length },
              { value: 'filter', label: '조건에 맞는 미배분 전체 (왼쪽 목록의 기간·조건, 오래된 순)' },
            ]}
          />
        </div>
        <div>
          <Typography.Text type="secondary">방식</Typography.Text>
          <div style={{ marginTop: 4 }}>
            <Segmented<AllocationMode>
              value={mode}
              onChange={(m) => { setMode(m); setPlanned(null); }}
              options={(['round-robin', 'weighted', 'manual'] as const).map((m) => ({ value: m, label: ALLOCATION_MODE_LABELS[m] }))}
            />
          </div>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '6px 0 0' }}>
            {mode === 'round-robin' && '고른 상담원에게 차례로 한 건씩 돌아가며 나눕니다. 휴무이거나 상한에 닿은 상담원은 건너뜁니다.'}
            {mode === 'weighted' && '가중치 비율대로 나눕니다. 오늘 이미 받은 건수도 셈에 넣어 하루 전체가 비율에 맞도록 합니다.'}
            {mode === 'manual' && '고른 상담원 한 명에게 모두 배분합니다. 상한을 넘으면 미리보기에서 알려 드립니다.'}
          </Typography.Paragraph>
        </div>
        <div>
          <Typography.Text type="secondary">상담원</Typography.Text>
          <div style={{ marginTop: 4 }}>
            {mode === 'manual' ? (
              <Select
                aria-label="배분받을 상담원"
                placeholder="상담원을 고르세요"
                style={{ width: '100%' }}
                value={one ?? undefined}
                onChange={(v: number) => { setOne(v); setPlanned(null); }}
                options={counselors.map((c) => ({ value: c.id, label: `${c.name}${c.available ? '' : ' (휴무)'}`, disabled: !c.available }))}
              />
            ) : (
              <Checkbox.Group
                value={chosen}
                onChange={(v) => { setChosen(v as number[]); setPlanned(null); }}
                options={counselors.map((c) => ({ value: c.id, label: `${c.name}${c.available ? '' : ' (휴무)'}`, disabled: !c.available }))}
              />
            )}
          </div>
        </div>
        <Space>
          <Button onClick={() => run(false)} loading={busy && !planned} disabled={!ready}>
            미리보기
          </Button>
          {writable && (
            <Popconfirm title={planned ? confirmTitle(planned) : ''} okText="배분" cancelText="취소" onConfirm={() => run(true)} disabled={!planned || !planned.total}>
              <Button type="primary" disabled={!planned || !planned.total} loading={busy && !!planned}>
                배분 적용
              </Button>
            </Popconfirm>
          )}
        </Space>
        {planned && <PlanView plan={planned} />}
      </Space>
    </Card>
  );
}

/** The confirmation restates what is about to happen: how many leads to how many counselors. */
function confirmTitle(plan: AllocationPlan): string {
  const given = plan.total - plan.unplaced;
  const to = plan.rows.filter((r) => r.count > 0).length;
  return `미배분 DB ${formatNumber(given)}건을 상담원 ${formatNumber(to)}명에게 배분할까요?${plan.unplaced ? ` (${formatNumber(plan.unplaced)}건은 남습니다)` : ''}`;
}

function PlanView({ plan }: { plan: AllocationPlan }) {
  if (!plan.total) return <Alert type="info" showIcon title="배분할 미배분 DB가 없습니다." />;
  const left = (v: number | null) => (v === null ? <Typography.Text type="secondary">제한 없음</Typography.Text> : v < 0 ? <Typography.Text type="danger">{v}</Typography.Text> : v);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Table
        size="small"
        rowKey="counselorId"
        pagination={false}
        dataSource={plan.rows}
        columns={[
          { title: '상담원', dataIndex: 'name', render: (v: string, r) => <Space>{v}{r.overCap && <Tag color="red">상한 초과</Tag>}</Space> },
          { title: '배분', dataIndex: 'count', align: 'right', render: (v: number) => <Typography.Text strong>{formatNumber(v)}건</Typography.Text> },
          { title: '오늘 남는 여유', dataIndex: 'dailyLeft', align: 'right', render: left },
          { title: '진행 중 여유', dataIndex: 'openLeft', align: 'right', render: left },
        ]}
      />
      {plan.unplaced > 0 && (
        <Alert type="warning" showIcon title={`${formatNumber(plan.unplaced)}건은 받을 수 있는 상담원이 없어 미배분으로 남습니다.`} description="상담원의 상한을 늘리거나 휴무를 풀면 더 배분할 수 있습니다." />
      )}
    </Space>
  );
}

/** Each counselor's availability, weight and caps, saved as they change. */
function CounselorSettings({ shopId, counselors, writable }: { shopId: number; counselors: CounselorLoad[]; writable: boolean }) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const save = async (c: CounselorLoad, patch: Partial<CounselorLoad>) => {
    const next = { ...c, ...patch };
    try {
      await call(allocationApi.updateCounselor, {
        params: { shopId, accountId: c.id },
        body: { weight: next.weight, dailyCap: next.dailyCap, maxOpen: next.maxOpen, available: next.available },
      });
      await invalidate(queryClient, [allocationApi.state]);
      message.success(`${c.name} 상담원 설정을 저장했습니다.`);
    } catch (err) {
      message.error((err as Error).message);
    }
  };
  const cap = (c: CounselorLoad, field: 'dailyCap' | 'maxOpen', label: string) => (
    <InputNumber
      key={`${c.id}-${field}-${c[field]}`}
      aria-label={`${c.name} ${label}`}
      min={1}
      max={10000}
      placeholder="제한 없음"
      defaultValue={c[field] ?? undefined}
      disabled={!writable}
      style={{ width: 110 }}
      onBlur={(e) => {
        const v = e.target.value.trim() === '' ? null : Number(e.target.value.replace(/,/g, ''));
        if (v !== c[field]) void save(c, { [field]: v });
      }}
    />
  );
  return (
    <Card variant="borderless" title="상담원 설정" extra={<Typography.Text type="secondary">휴무인 상담원과 상한에 닿은 상담원은 배분에서 빠집니다</Typography.Text>}>
      <Table
        size="middle"
        rowKey="id"
        pagination={false}
        dataSource={counselors}
        locale={{ emptyText: '이 업체에 상담원이 없습니다.' }}
        columns={[
          { title: '상담원', dataIndex: 'name', render: (v: string, c) => <Space>{v}<Typography.Text type="secondary">{c.loginId}</Typography.Text></Space> },
          {
            title: '근무', dataIndex: 'available',
            render: (v: boolean, c) => <Switch checked={v} disabled={!writable} checkedChildren="근무" unCheckedChildren="휴무" aria-label={`${c.name} 근무`} onChange={(on) => save(c, { available: on })} />,
          },
          {
            title: '가중치', dataIndex: 'weight',
            render: (v: number, c) => (
              <InputNumber key={`${c.id}-w-${v}`} aria-label={`${c.name} 가중치`} min={1} max={100} defaultValue={v} disabled={!writable} style={{ width: 80 }}
                onBlur={(e) => { const n = Number(e.target.value); if (n && n !== v) void save(c, { weight: n }); }} />
            ),
          },
          { title: '하루 상한', key: 'dailyCap', render: (_: unknown, c) => cap(c, 'dailyCap', '하루 상한') },
          { title: '진행 중 상한', key: 'maxOpen', render: (_: unknown, c) => cap(c, 'maxOpen', '진행 중 상한') },
          { title: '오늘 배분', dataIndex: 'today', align: 'right', render: (v: number, c) => `${formatNumber(v)}${c.dailyCap ? ` / ${formatNumber(c.dailyCap)}` : ''}` },
          { title: '진행 중 (미처리·부재·상담예약)', dataIndex: 'open', align: 'right', render: (v: number, c) => `${formatNumber(v)}${c.maxOpen ? ` / ${formatNumber(c.maxOpen)}` : ''}` },
        ]}
      />
    </Card>
  );
}

function AutoRule({ shopId, mode, writable }: { shopId: number; mode: AutoMode; writable: boolean }) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return (
    <Card variant="borderless" title="자동 배분">
      <Space orientation="vertical">
        <Segmented<AutoMode>
          value={mode}
          disabled={!writable}
          options={AUTO_MODES.map((m) => ({ value: m, label: AUTO_MODE_LABELS[m] }))}
          onChange={async (next) => {
            try {
              await call(allocationApi.updateRule, { params: { shopId }, body: { autoMode: next } });
              await invalidate(queryClient, [allocationApi.state]);
              message.success(next === 'off' ? '자동 배분을 껐습니다.' : `새 DB를 ${AUTO_MODE_LABELS[next]} 방식으로 바로 배분합니다.`);
            } catch (err) {
              message.error((err as Error).message);
            }
          }}
        />
        <Typography.Text type="secondary">
          켜면 랜딩으로 들어온 새 DB(중복 제외)를 접수하는 순간 근무 중인 상담원에게 상한 안에서 배분합니다. 받을 수 있는 상담원이 없으면 미배분으로 남습니다.
        </Typography.Text>
      </Space>
    </Card>
  );
}
