// The month per medium: target CPA (edited in place by those who may write, saved together with
// 저장; changed cells are highlighted and a wrong value is said under its cell), actual CPA,
// the variance, spend, valid leads, revenue, margin and margin rate, with the month's totals.
// 지난달 목표 복사 brings last month's targets into this one.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { App, Button, Card, InputNumber, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CopyOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import {
  addMonths, cpaApi, monthLabel, targetCpaField, type CpaFigures, type CpaMediumRow, type CpaTargets,
} from '@contracts/cpa.ts';
import { cpaVariance } from '@contracts/money.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { ERROR } from '@/lib/theme.ts';
import { HELP, Help, Variance, formatLeads, formatPercent, formatWon } from './figures.tsx';

const DIRTY_BG = '#fffbe6';
const NO_FIGURES: CpaFigures = {
  targetCpa: null, spend: 0, leads: 0, validLeads: 0, actualCpa: null, variance: null, billableLeads: 0, overCapLeads: 0, outsideLeads: 0,
  revenue: 0, margin: 0, marginRate: null,
};

interface Props {
  shopId: number;
  month: string;
  rows: CpaMediumRow[];
  totals: CpaFigures;
  /** The month's targets (every active medium); absent while loading. */
  targets: CpaTargets | undefined;
  writable: boolean;
  canAdvertising: boolean;
}

type Drafts = Record<number, number | null>;

/** The table's columns; the target is an input where the person may write. */
function cpaColumns({ writable, dirtyIds, errors, targetOf, edit }: {
  writable: boolean;
  dirtyIds: number[];
  errors: Record<number, string>;
  targetOf: (r: CpaMediumRow) => number | null;
  edit: (id: number, v: number | null) => void;
}): ColumnsType<CpaMediumRow> {
  return [
    {
      title: '매체', key: 'name', fixed: 'left', width: 150,
      render: (_: unknown, r) => (
        <Space size={4} wrap>
          {r.mediaTypeId === null ? <Typography.Text type="secondary">{r.name}</Typography.Text> : r.name}
          {!r.active && <Tag>사용 안 함</Tag>}
        </Space>
      ),
    },
    {
      title: <Help title="목표 CPA" help={HELP.target} />, key: 'target', width: writable ? 180 : 120, align: 'right',
      render: (_: unknown, r) => {
        const id = r.mediaTypeId;
        if (id === null) return <Tooltip title="매체가 없는 DB에는 목표를 정할 수 없습니다."><Typography.Text type="secondary">-</Typography.Text></Tooltip>;
        if (!writable || !r.active) return formatWon(r.targetCpa);
        const dirty = dirtyIds.includes(id);
        return (
          <div>
            <InputNumber<number>
              aria-label={`${r.name} 목표 CPA`}
              value={targetOf(r)}
              step={1000}
              precision={0}
              placeholder="목표 없음"
              suffix="원"
              status={errors[id] ? 'error' : undefined}
              formatter={(v) => (v == null ? '' : `${v}`.replace(/\B(?=(\d{3})+(?!\d))/g, ','))}
              // antd's own idiom: a string back (empty stays empty, i.e. no target), not Number('') = 0.
              parser={(v) => (v ?? '').replace(/,/g, '') as unknown as number}
              onChange={(v) => edit(id, v ?? null)}
              style={{ width: 150, background: dirty ? DIRTY_BG : undefined }}
            />
            {errors[id] && (
              <div role="alert" style={{ color: ERROR, fontSize: 12, textAlign: 'left', maxWidth: 160, whiteSpace: 'normal' }}>
                {errors[id]}
              </div>
            )}
          </div>
        );
      },
    },
    { title: <Help title="실제 CPA" help={HELP.actual} />, dataIndex: 'actualCpa', key: 'actualCpa', align: 'right', render: (v: number | null) => formatWon(v) },
    {
      title: <Help title="차이" help={HELP.variance} />, key: 'variance', align: 'right',
      render: (_: unknown, r) => <Variance variance={cpaVariance(r.actualCpa, targetOf(r))} />,
    },
    { title: <Help title="광고비" help={HELP.spend} />, dataIndex: 'spend', key: 'spend', align: 'right', render: (v: number) => formatWon(v) },
    {
      title: <Help title="유효 DB" help={HELP.validLeads} />, key: 'validLeads', align: 'right',
      render: (_: unknown, r) => (
        <Tooltip title={`접수 ${formatLeads(r.leads)} · 청구 대상 ${formatLeads(r.billableLeads)} · 한도 초과 ${formatLeads(r.overCapLeads)} · 계약 외 ${formatLeads(r.outsideLeads)}`}>
          <span>{formatLeads(r.validLeads)}</span>
        </Tooltip>
      ),
    },
    { title: <Help title="매출" help={HELP.revenue} />, dataIndex: 'revenue', key: 'revenue', align: 'right', render: (v: number) => formatWon(v) },
    {
      title: <Help title="마진" help={HELP.margin} />, dataIndex: 'margin', key: 'margin', align: 'right',
      render: (v: number) => <span style={{ color: v < 0 ? '#cf1322' : undefined }}>{formatWon(v)}</span>,
    },
    {
      title: <Help title="마진율" help={HELP.marginRate} />, dataIndex: 'marginRate', key: 'marginRate', align: 'right',
      render: (v: number | null) => <span style={{ color: v !== null && v < 0 ? '#cf1322' : undefined }}>{formatPercent(v)}</span>,
    },
  ];
}

/** The month's totals under the table (a row of its summary). */
function TotalsRow({ totals }: { totals: CpaFigures }) {
  return (
    <Table.Summary.Row style={{ fontWeight: 600, background: '#fafafa' }}>
      <Table.Summary.Cell index={0}>합계</Table.Summary.Cell>
      <Table.Summary.Cell index={1} align="right">
        <Tooltip title={HELP.totalTarget}>
          <span>{formatWon(totals.targetCpa)}</span>
        </Tooltip>
      </Table.Summary.Cell>
      <Table.Summary.Cell index={2} align="right">{formatWon(totals.actualCpa)}</Table.Summary.Cell>
      <Table.Summary.Cell index={3} align="right"><Variance variance={totals.variance} /></Table.Summary.Cell>
      <Table.Summary.Cell index={4} align="right">{formatWon(totals.spend)}</Table.Summary.Cell>
      <Table.Summary.Cell index={5} align="right">{formatLeads(totals.validLeads)}</Table.Summary.Cell>
      <Table.Summary.Cell index={6} align="right">{formatWon(totals.revenue)}</Table.Summary.Cell>
      <Table.Summary.Cell index={7} align="right">
        <span style={{ color: totals.margin < 0 ? '#cf1322' : undefined }}>{formatWon(totals.margin)}</span>
      </Table.Summary.Cell>
      <Table.Summary.Cell index={8} align="right">{formatPercent(totals.marginRate)}</Table.Summary.Cell>
    </Table.Summary.Row>
  );
}

export function CpaTable({ shopId, month, rows, totals, targets, writable, canAdvertising }: Props) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  const [copying, setCopying] = useState(false);

  // A writer sees every active medium, so a target can be set before its first spend or lead.
  const data = useMemo(() => {
    if (!writable || !targets) return rows;
    const shown = new Set(rows.map((r) => r.mediaTypeId));
    const more = targets.items
      .filter((i) => i.active && !shown.has(i.mediaTypeId))
      .map((i): CpaMediumRow => ({ ...NO_FIGURES, mediaTypeId: i.mediaTypeId, name: i.name, active: i.active, targetCpa: i.targetCpa }));
    // 매체 미지정 stays last.
    const known = rows.filter((r) => r.mediaTypeId !== null);
    const none = rows.filter((r) => r.mediaTypeId === null);
    const order = new Map(targets.items.map((i, n) => [i.mediaTypeId, n]));
    return [...known, ...more].sort((a, b) => (order.get(a.mediaTypeId!) ?? 1e9) - (order.get(b.mediaTypeId!) ?? 1e9)).concat(none);
  }, [rows, targets, writable]);

  const original = (id: number) => data.find((r) => r.mediaTypeId === id)?.targetCpa ?? null;
  const dirtyIds = Object.keys(drafts).map(Number).filter((id) => drafts[id] !== original(id));
  const targetOf = (r: CpaMediumRow) => (r.mediaTypeId !== null && r.mediaTypeId in drafts ? drafts[r.mediaTypeId]! : r.targetCpa);

  const edit = (id: number, v: number | null) => {
    setDrafts((d) => ({ ...d, [id]: v }));
    setErrors((e) => {
      const rest = { ...e };
      delete rest[id];
      return rest;
    });
  };
  const reset = () => {
    setDrafts({});
    setErrors({});
  };

  const refresh = () => invalidate(queryClient, [cpaApi.overview, cpaApi.targets]);

  async function save() {
    const changes = dirtyIds.map((mediaTypeId) => ({ mediaTypeId, targetCpa: drafts[mediaTypeId] ?? null }));
    const local: Record<number, string> = {};
    for (const c of changes) {
      const r = targetCpaField.nullable().safeParse(c.targetCpa);
      if (!r.success) local[c.mediaTypeId] = r.error.issues[0]?.message ?? '목표 CPA를 확인하세요.';
    }
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setSaving(true);
    try {
      const res = await call(cpaApi.saveTargets, { params: { shopId }, body: { month, targets: changes } });
      reset();
      await refresh();
      message.success(res.changed ? `${monthLabel(month)} 목표 ${res.changed}건을 저장했습니다.` : '바뀐 목표가 없습니다.');
    } catch (err) {
      if (err instanceof ApiError && err.fields) {
        // "targets.2.targetCpa" → the medium sent third.
        const mapped: Record<number, string> = {};
        for (const [field, text] of Object.entries(err.fields)) {
          const i = /^targets\.(\d+)\./.exec(field)?.[1];
          const c = i === undefined ? undefined : changes[Number(i)];
          if (c) mapped[c.mediaTypeId] = text;
        }
        if (Object.keys(mapped).length) setErrors(mapped);
        else message.error(err.message);
      } else message.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const previous = addMonths(month, -1);
  async function copy() {
    setCopying(true);
    try {
      const res = await call(cpaApi.copyTargets, { params: { shopId }, body: { from: previous, to: month } });
      reset();
      await refresh();
      message.success(res.changed ? `${monthLabel(previous)} 목표 ${res.changed}건을 복사했습니다.` : '지난달 목표와 이미 같습니다.');
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setCopying(false);
    }
  }

  const columns = cpaColumns({ writable, dirtyIds, errors, targetOf, edit });

  const copyDisabled = !targets || targets.previousMonthTargets === 0;
  const hasTargets = (targets?.items ?? []).some((i) => i.targetCpa !== null);
  const extra = writable ? (
    <Space wrap>
      <Popconfirm
        title="지난달 목표 복사"
        description={
          <div style={{ maxWidth: 320 }}>
            {monthLabel(previous)} 목표 {targets?.previousMonthTargets ?? 0}건을 {monthLabel(month)}로 복사합니다.
            {hasTargets && ' 이 달에 이미 정한 같은 매체의 목표는 지난달 값으로 바뀝니다.'}
            {dirtyIds.length > 0 && ' 저장하지 않은 수정은 사라집니다.'}
          </div>
        }
        okText="복사"
        cancelText="취소"
        onConfirm={copy}
        disabled={copyDisabled}
      >
        <Tooltip title={copyDisabled ? `${monthLabel(previous)}에 정한 목표가 없습니다.` : undefined}>
          <Button icon={<CopyOutlined />} loading={copying} disabled={copyDisabled}>
            지난달 목표 복사
          </Button>
        </Tooltip>
      </Popconfirm>
      <Button icon={<UndoOutlined />} onClick={reset} disabled={!dirtyIds.length || saving}>
        되돌리기
      </Button>
      <Button type="primary" icon={<SaveOutlined />} onClick={save} loading={saving} disabled={!dirtyIds.length}>
        저장{dirtyIds.length ? ` (${dirtyIds.length})` : ''}
      </Button>
    </Space>
  ) : null;

  return (
    <Card variant="borderless" title={`${monthLabel(month)} 매체별 CPA`} extra={extra}>
      <Table<CpaMediumRow>
        rowKey={(r) => String(r.mediaTypeId)}
        size="middle"
        pagination={false}
        columns={columns}
        dataSource={data}
        scroll={{ x: 'max-content' }}
        summary={() =>
          data.length > 1 ? (
            <Table.Summary fixed>
              <TotalsRow totals={totals} />
            </Table.Summary>
          ) : null
        }
      />
      <Space wrap size={16} style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">
          <Help title={`청구 대상 ${formatLeads(totals.billableLeads)} · 한도 초과 ${formatLeads(totals.overCapLeads)} · 계약 외 유효 DB ${formatLeads(totals.outsideLeads)}`} help={HELP.unbilled} />
        </Typography.Text>
        {writable && dirtyIds.length > 0 && <Typography.Text type="warning">저장하지 않은 목표가 {dirtyIds.length}건 있습니다.</Typography.Text>}
        {canAdvertising && <Link to="/advertising-status">광고비 입력 · 수정은 광고 현황에서</Link>}
      </Space>
    </Card>
  );
}
