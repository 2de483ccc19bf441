// The editable grid of 광고 현황: one row per day × medium (× landing) of the period — every
// entry, and every day × medium that had leads without one — with 노출, 클릭 and 광고비 as
// number cells (Tab moves along a row and on to the next; Enter and the arrow keys move up and
// down a column). Changed rows are highlighted and saved together; a refused row keeps what was
// typed and shows each reason on its cell. The ratios follow the typed figures as they change.
// Accounts that may only read see the same table without inputs.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { App, Button, Card, DatePicker, InputNumber, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  AD_FIGURE_MAX, AD_METRIC_HELP, WHOLE_MEDIUM, WHOLE_MEDIUM_LABEL, adSpendApi, adSpendRowInput, type AdRow, type AdSpendFigures,
} from '@contracts/ad-spend.ts';
import { adMetrics } from '@contracts/money.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { ERROR } from '@/lib/theme.ts';
import { useScrollRegion } from '@/lib/scroll-region.ts';
import { useAuth } from '@/lib/auth.tsx';
import { registerDraft, takeDraft } from '@/lib/drafts.ts';
import { Help } from './summary.tsx';
import { dayWithWeekday, formatCount, formatPercent, formatWon } from './format.ts';

const FIGS = ['impressions', 'clicks', 'spend'] as const;
type Fig = (typeof FIGS)[number];
type Values = Record<Fig, number | null>;

interface NewRow extends Values {
  id: string;
  day: string | null;
  mediaTypeId: number | null;
  landingId: number;
}

/** What the person has typed: changed figures of existing rows (by row key) and rows added. */
interface GridEdits {
  edits: Record<string, Partial<Values>>;
  added: NewRow[];
}
const NO_EDITS: GridEdits = { edits: {}, added: [] };

interface GridRow {
  key: string;
  isNew: boolean;
  server: AdRow | null;
  day: string | null;
  mediaTypeId: number | null;
  mediaTypeName: string;
  landingId: number;
  landingTitle: string;
  values: Values;
  leads: number;
  validLeads: number;
  dirty: boolean;
  /** Why the row cannot be edited here. */
  lock: string | null;
}

type RowErrors = Record<string, Partial<Record<'day' | 'mediaTypeId' | 'landingId' | Fig, string>>>;

const keyOf = (r: { day: string | null; mediaTypeId: number | null; landingId: number }) => `${r.day}|${r.mediaTypeId}|${r.landingId}`;
const FIG_LABELS: Record<Fig, string> = { impressions: '노출', clicks: '클릭', spend: '광고비' };
const thousands = (v: string | number | undefined) => (v === undefined || v === '' ? '' : String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ','));
const digits = (v: string | undefined) => (v ?? '').replace(/[^\d]/g, '');

/** Moves to the same figure of the row above or below. */
function moveInColumn(e: KeyboardEvent<HTMLInputElement>, row: number, col: number) {
  const down = (e.key === 'Enter' && !e.shiftKey) || e.key === 'ArrowDown';
  const up = (e.key === 'Enter' && e.shiftKey) || e.key === 'ArrowUp';
  if (!down && !up) return;
  const next = document.getElementById(`ad-cell-${row + (down ? 1 : -1)}-${col}`) as HTMLInputElement | null;
  if (!next) return;
  e.preventDefault();
  next.focus();
  next.select();
}

/** A cell with its error: red and explained on hover or focus. */
function withError(error: string | undefined, node: ReactNode) {
  return error ? (
    <Tooltip title={error} color={ERROR} trigger={['hover', 'focus']} placement="topLeft">
      <span style={{ display: 'block' }}>{node}</span>
    </Tooltip>
  ) : (
    node
  );
}

/** Drafts taken back, until the grid has mounted with them (a strict-mode second render finds them here). */
const restoredDrafts = new Map<string, GridEdits>();

function restoreDraft(key: string, who: number): GridEdits | undefined {
  const draft = takeDraft(key, who) as Partial<GridEdits> | undefined;
  if (draft && (Object.keys(draft.edits ?? {}).length || draft.added?.length)) restoredDrafts.set(key, { edits: draft.edits ?? {}, added: draft.added ?? [] });
  return restoredDrafts.get(key);
}

/** The grid's rows: the rows added, then every row of the figures with what was typed over it. */
function useGridRows(f: AdSpendFigures, state: GridEdits) {
  const activeMedia = useMemo(() => new Map(f.mediaTypes.map((m) => [m.id, m])), [f.mediaTypes]);
  const landingTitle = useMemo(() => new Map(f.landings.map((l) => [l.id, l.title])), [f.landings]);

  return useMemo<GridRow[]>(() => {
    const added = state.added.map((n): GridRow => ({
      key: n.id, isNew: true, server: null, day: n.day, mediaTypeId: n.mediaTypeId, landingId: n.landingId,
      mediaTypeName: n.mediaTypeId ? (activeMedia.get(n.mediaTypeId)?.name ?? '') : '',
      landingTitle: n.landingId === WHOLE_MEDIUM ? WHOLE_MEDIUM_LABEL : (landingTitle.get(n.landingId) ?? ''),
      values: { impressions: n.impressions, clicks: n.clicks, spend: n.spend }, leads: 0, validLeads: 0, dirty: true, lock: null,
    }));
    const existing = f.rows.map((r): GridRow => {
      const key = keyOf(r);
      const e = state.edits[key] ?? {};
      const values = Object.fromEntries(FIGS.map((x) => [x, x in e ? (e[x] ?? null) : r.entered ? r[x] : null])) as Values;
      const lock =
        r.split && !f.byLanding
          ? '랜딩별로 나눠 입력한 광고비가 있습니다. 랜딩별 보기에서 고치세요.'
          : !activeMedia.has(r.mediaTypeId)
            ? '사용하지 않는 매체입니다. 매체 설정에서 다시 사용하도록 해야 고칠 수 있습니다.'
            : null;
      return {
        key, isNew: false, server: r, day: r.day, mediaTypeId: r.mediaTypeId, mediaTypeName: r.mediaTypeName, landingId: r.landingId, landingTitle: r.landingTitle,
        values, leads: r.leads, validLeads: r.validLeads, lock, dirty: !lock && FIGS.some((x) => (values[x] ?? 0) !== (r.entered ? r[x] : 0)),
      };
    });
    return [...added, ...existing];
  }, [state, f, activeMedia, landingTitle]);
}

/** Keeps the unsaved edits as a draft if the session ends, and says when a draft was taken back. */
function useKeptDraft(draftKey: string, writable: boolean, restored: GridEdits | undefined, state: GridEdits, dirty: boolean) {
  const { message } = App.useApp();
  const latest = useRef({ state, dirty });
  useEffect(() => {
    latest.current = { state, dirty };
  });
  useEffect(() => {
    if (!restored) return;
    restoredDrafts.delete(draftKey);
    message.info('로그인이 만료되기 전에 입력하던 광고비를 되살렸습니다. 확인 후 저장하세요.');
  }, [restored, draftKey, message]);
  useEffect(() => {
    if (!writable) return;
    return registerDraft(draftKey, { isFieldsTouched: () => latest.current.dirty, getFieldsValue: () => latest.current.state });
  }, [draftKey, writable]);
}

/** Saving the changed rows: checked here first by the server's rules, then sent together; refusals go to their cells. */
function useSaveRows(
  shopId: number, rows: GridRow[], dirtyRows: GridRow[], setState: (s: GridEdits) => void, setErrors: (e: RowErrors) => void,
) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const save = useCallback(async () => {
    const found: RowErrors = {};
    const flag = (key: string, field: keyof RowErrors[string], msg: string) => ((found[key] ??= {})[field] ??= msg);
    const keys = new Map<string, string>();
    for (const r of rows) if (!r.isNew) keys.set(keyOf(r), r.key);
    const body = dirtyRows.map((r) => {
      if (r.isNew) {
        if (!r.day) flag(r.key, 'day', '날짜를 고르세요.');
        if (!r.mediaTypeId) flag(r.key, 'mediaTypeId', '매체를 고르세요.');
        const k = keyOf(r);
        if (r.day && r.mediaTypeId) {
          if (keys.has(k)) flag(r.key, 'mediaTypeId', '이 날짜·매체의 행이 이미 표에 있습니다. 그 행에서 고치세요.');
          keys.set(k, r.key);
        }
      }
      const row = {
        day: r.day ?? '', mediaTypeId: r.mediaTypeId ?? 0, landingId: r.landingId,
        impressions: r.values.impressions ?? 0, clicks: r.values.clicks ?? 0, spend: r.values.spend ?? 0,
      };
      // The same rules the server applies, before asking it.
      const parsed = adSpendRowInput.safeParse(row);
      if (!parsed.success) for (const issue of parsed.error.issues) if (r.day && r.mediaTypeId) flag(r.key, issue.path[0] as Fig, issue.message);
      return row;
    });
    if (Object.keys(found).length) {
      setErrors(found);
      message.error(`${Object.keys(found).length}개 행을 저장할 수 없습니다. 빨간 칸에 마우스를 올려 이유를 확인하세요.`);
      return;
    }
    setSaving(true);
    try {
      const res = await call(adSpendApi.save, { params: { shopId }, body: { rows: body } });
      // The figures first, then the edits go: the grid never shows the old values in between.
      await invalidate(queryClient, [adSpendApi.figures]);
      setState(NO_EDITS);
      setErrors({});
      message.success(`광고비를 저장했습니다. ${formatCount(res.saved)}건 저장${res.deleted ? `, ${formatCount(res.deleted)}건 삭제 (모두 0)` : ''}.`);
    } catch (err) {
      // Nothing was written; what was typed stays, and each refusal goes to its cell.
      if (err instanceof ApiError && err.fields) {
        const byRow: RowErrors = {};
        for (const [path, msg] of Object.entries(err.fields)) {
          const m = /^rows\.(\d+)\.(\w+)$/.exec(path);
          const row = m ? dirtyRows[Number(m[1])] : undefined;
          if (row) (byRow[row.key] ??= {})[m![2] as Fig] ??= msg;
        }
        setErrors(byRow);
      }
      message.error(err instanceof Error ? err.message : '저장하지 못했습니다.');
    } finally {
      setSaving(false);
    }
  }, [rows, dirtyRows, shopId, queryClient, message, setState, setErrors]);
  return { save, saving };
}

const metricsOf = (r: GridRow) =>
  adMetrics({ impressions: r.values.impressions ?? 0, clicks: r.values.clicks ?? 0, spend: r.values.spend ?? 0, leads: r.leads, validLeads: r.validLeads });

/** A lead's cost; a row whose spend was never entered has none to show (not 0원). */
const costOf = (r: GridRow, k: 'cpl' | 'cpa') =>
  FIGS.every((x) => r.values[x] === null) ? (
    <Tooltip title="광고비를 입력하지 않았습니다.">
      <Typography.Text type="secondary">-</Typography.Text>
    </Tooltip>
  ) : (
    formatWon(metricsOf(r)[k])
  );

interface ColumnArgs {
  f: AdSpendFigures;
  rows: GridRow[];
  errors: RowErrors;
  writable: boolean;
  setNew: (id: string, patch: Partial<NewRow>) => void;
  setFigure: (row: GridRow, fig: Fig, value: number | null) => void;
  removeNew: (id: string) => void;
}

/** The columns that say which row it is: the day, the medium and (by landing) the landing; pickers on a new row. */
function rowColumns({ f, rows, errors, writable, setNew }: ColumnArgs): ColumnsType<GridRow> {
  const mediumOptions = f.mediaTypes.map((m) => ({ value: m.id, label: m.name }));
  const landingOptions = [{ value: WHOLE_MEDIUM, label: WHOLE_MEDIUM_LABEL }, ...f.landings.map((l) => ({ value: l.id, label: l.title }))];
  return [
    {
      title: '날짜', key: 'day', width: 120, fixed: 'left',
      render: (_: unknown, r, index) => {
        const err = errors[r.key]?.day;
        if (r.isNew && writable) {
          return withError(
            err,
            <DatePicker
              aria-label="날짜"
              size="small"
              allowClear={false}
              status={err ? 'error' : undefined}
              value={r.day ? dayjs(r.day) : null}
              disabledDate={(d) => {
                // Days of the period up to today: a row saved outside the period would leave the table.
                const x = d.format('YYYY-MM-DD');
                return x < f.period.from || x > f.period.to || x > f.today;
              }}
              onChange={(d) => setNew(r.key, { day: d ? d.format('YYYY-MM-DD') : null })}
              style={{ width: '100%' }}
            />,
          );
        }
        // The day once per day: its other media's rows show it faintly.
        const repeat = index > 0 && !rows[index - 1]!.isNew && rows[index - 1]!.day === r.day;
        return withError(err, <Typography.Text type={err ? 'danger' : repeat ? 'secondary' : undefined}>{r.day ? dayWithWeekday(r.day) : '-'}</Typography.Text>);
      },
    },
    {
      title: '매체', key: 'medium', width: 140,
      render: (_: unknown, r) => {
        const err = errors[r.key]?.mediaTypeId;
        if (r.isNew && writable) {
          return withError(
            err,
            <Select
              aria-label="매체"
              size="small"
              status={err ? 'error' : undefined}
              value={r.mediaTypeId ?? undefined}
              placeholder="매체"
              options={mediumOptions}
              onChange={(v: number) => setNew(r.key, { mediaTypeId: v })}
              style={{ width: '100%' }}
            />,
          );
        }
        return withError(
          err,
          <Space size={4}>
            <Typography.Text type={err ? 'danger' : undefined}>{r.mediaTypeName}</Typography.Text>
            {r.server?.source === 'csv' && (
              <Tooltip title="CSV로 가져온 값입니다.">
                <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                  CSV
                </Typography.Text>
              </Tooltip>
            )}
            {r.isNew && <Tag color="blue">새 행</Tag>}
          </Space>,
        );
      },
    },
    ...(f.byLanding
      ? [
          {
            title: '랜딩', key: 'landing', width: 180, ellipsis: true,
            render: (_: unknown, r: GridRow) => {
              const err = errors[r.key]?.landingId;
              if (r.isNew && writable) {
                return withError(
                  err,
                  <Select
                    aria-label="랜딩"
                    size="small"
                    status={err ? 'error' : undefined}
                    value={r.landingId}
                    options={landingOptions}
                    showSearch={{ optionFilterProp: 'label' }}
                    onChange={(v: number) => setNew(r.key, { landingId: v })}
                    style={{ width: '100%' }}
                  />,
                );
              }
              return withError(err, <Typography.Text type={r.landingId === WHOLE_MEDIUM ? 'secondary' : undefined}>{r.landingTitle}</Typography.Text>);
            },
          },
        ]
      : []),
  ];
}

/** The figures (inputs where the row may be edited), the ratios they give, and a new row's remove button. */
function figureColumns({ errors, writable, setFigure, removeNew }: ColumnArgs): ColumnsType<GridRow> {
  const editable = (r: GridRow) => writable && !r.lock;
  return [
    ...FIGS.map((fig, col) => ({
      title: fig === 'spend' ? '광고비 (원)' : FIG_LABELS[fig],
      key: fig,
      width: fig === 'spend' ? 130 : fig === 'clicks' ? 95 : 110,
      align: 'right' as const,
      render: (_: unknown, r: GridRow, index: number) => {
        const v = r.values[fig];
        if (!editable(r)) {
          const text = v === null ? <Typography.Text type="secondary">-</Typography.Text> : fig === 'spend' ? formatWon(v) : formatCount(v);
          return r.lock && writable ? <Tooltip title={r.lock}>{text}</Tooltip> : text;
        }
        const err = errors[r.key]?.[fig];
        return withError(
          err,
          <InputNumber<number>
            id={`ad-cell-${index}-${col}`}
            aria-label={`${r.day ?? ''} ${r.mediaTypeName} ${FIG_LABELS[fig]}`}
            size="small"
            min={0}
            max={AD_FIGURE_MAX}
            precision={0}
            controls={false}
            keyboard={false}
            placeholder="0"
            status={err ? 'error' : undefined}
            value={v}
            formatter={thousands}
            parser={(s) => Number(digits(s)) as unknown as number}
            onChange={(x) => setFigure(r, fig, x === null || x === undefined || Number.isNaN(x) ? null : x)}
            onKeyDown={(e) => moveInColumn(e, index, col)}
            onFocus={(e) => e.target.select()}
            style={{ width: '100%', textAlign: 'right' }}
          />,
        );
      },
    })),
    { title: <Help title="CTR" help={AD_METRIC_HELP.ctr} />, key: 'ctr', width: 72, align: 'right', render: (_: unknown, r) => formatPercent(metricsOf(r).ctr) },
    { title: '접수', dataIndex: 'leads', key: 'leads', width: 60, align: 'right', render: formatCount },
    { title: '유효', dataIndex: 'validLeads', key: 'validLeads', width: 60, align: 'right', render: formatCount },
    { title: <Help title="CVR" help={AD_METRIC_HELP.cvr} />, key: 'cvr', width: 72, align: 'right', render: (_: unknown, r) => formatPercent(metricsOf(r).cvr) },
    { title: <Help title="CPL" help={AD_METRIC_HELP.cpl} />, key: 'cpl', width: 100, align: 'right', render: (_: unknown, r) => costOf(r, 'cpl') },
    { title: <Help title="CPA" help={AD_METRIC_HELP.cpa} />, key: 'cpa', width: 100, align: 'right', render: (_: unknown, r) => <strong>{costOf(r, 'cpa')}</strong> },
    ...(writable
      ? [
          {
            title: '', key: 'actions', width: 40,
            render: (_: unknown, r: GridRow) =>
              r.isNew ? (
                <Button
                  type="text"
                  size="small"
                  aria-label="새 행 빼기"
                  tabIndex={-1}
                  icon={<DeleteOutlined />}
                  onClick={() => removeNew(r.key)}
                />
              ) : null,
          },
        ]
      : []),
  ];
}

interface Props {
  shopId: number;
  figures: AdSpendFigures;
  writable: boolean;
  /** Names the grid's unsaved edits (shop, period, per landing), kept if the session ends. */
  draftKey: string;
  onDirtyChange: (dirty: boolean) => void;
}

export function SpendGrid({ shopId, figures: f, writable, draftKey, onDirtyChange }: Props) {
  const who = useAuth().account?.id;
  // Unsaved edits outlive an ended session (lib/drafts.ts): kept on the way to the login screen, taken back here.
  const [restored] = useState(() => (writable && who !== undefined ? restoreDraft(draftKey, who) : undefined));
  const [state, setState] = useState<GridEdits>(restored ?? NO_EDITS);
  const [errors, setErrors] = useState<RowErrors>({});
  const scrollRegion = useScrollRegion('광고비 표');
  const seq = useRef(Math.max(0, ...(restored?.added ?? []).map((n) => Number(n.id.replace('new-', '')) || 0)));

  const rows = useGridRows(f, state);
  const dirtyRows = rows.filter((r) => r.dirty && !r.lock);
  const dirty = dirtyRows.length > 0;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useKeptDraft(draftKey, writable, restored, state, dirty);
  const { save, saving } = useSaveRows(shopId, rows, dirtyRows, setState, setErrors);

  const clearError = (key: string, field: string) =>
    setErrors((e) => {
      if (!e[key]?.[field as Fig]) return e;
      const { [field as Fig]: _gone, ...rest } = e[key]!;
      return { ...e, [key]: rest };
    });

  const setFigure = (row: GridRow, fig: Fig, value: number | null) => {
    clearError(row.key, fig);
    setState((s) =>
      row.isNew
        ? { ...s, added: s.added.map((n) => (n.id === row.key ? { ...n, [fig]: value } : n)) }
        : { ...s, edits: { ...s.edits, [row.key]: { ...s.edits[row.key], [fig]: value } } },
    );
  };
  const setNew = (id: string, patch: Partial<NewRow>) => {
    for (const k of Object.keys(patch)) clearError(id, k);
    setState((s) => ({ ...s, added: s.added.map((n) => (n.id === id ? { ...n, ...patch } : n)) }));
  };

  const addRow = () => {
    const day = f.today < f.period.to ? f.today : f.period.to;
    // The first active medium without a row that day, so a second click gives the next medium.
    const taken = new Set(rows.filter((r) => r.day === day && r.landingId === WHOLE_MEDIUM).map((r) => r.mediaTypeId));
    const medium = f.mediaTypes.find((m) => !taken.has(m.id))?.id ?? null;
    const id = `new-${++seq.current}`;
    setState((s) => ({ ...s, added: [{ id, day, mediaTypeId: medium, landingId: WHOLE_MEDIUM, impressions: null, clicks: null, spend: null }, ...s.added] }));
    // The new row is the first: its first figure takes the focus (after the render).
    setTimeout(() => (document.getElementById('ad-cell-0-0') as HTMLInputElement | null)?.focus(), 50);
  };

  const discard = () => {
    setState(NO_EDITS);
    setErrors({});
  };

  const args: ColumnArgs = {
    f, rows, errors, writable, setNew, setFigure,
    removeNew: (id) => setState((s) => ({ ...s, added: s.added.filter((n) => n.id !== id) })),
  };
  const columns: ColumnsType<GridRow> = [...rowColumns(args), ...figureColumns(args)];

  const errorCount = Object.values(errors).filter((e) => Object.keys(e).length).length;
  return (
    <Card
      variant="borderless"
      title="일별 광고비"
      extra={
        writable && (
          <Space wrap>
            {dirty && <Typography.Text type="warning">바뀐 행 {formatCount(dirtyRows.length)}개</Typography.Text>}
            {errorCount > 0 && <Typography.Text type="danger">오류 {formatCount(errorCount)}행</Typography.Text>}
            <Button icon={<PlusOutlined />} onClick={addRow} disabled={!f.mediaTypes.length}>
              행 추가
            </Button>
            <Popconfirm title="입력한 내용을 버릴까요?" okText="버리기" cancelText="취소" onConfirm={discard} disabled={!dirty}>
              <Button icon={<UndoOutlined />} disabled={!dirty || saving}>
                되돌리기
              </Button>
            </Popconfirm>
            <Button type="primary" icon={<SaveOutlined />} onClick={save} loading={saving} disabled={!dirty}>
              저장
            </Button>
          </Space>
        )
      }
    >
      {writable && (
        <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
          Tab으로 다음 칸, Enter·↑↓로 위아래 행으로 갑니다. 바꾼 행은 노랗게 표시되고, 저장을 눌러야 반영됩니다. 세 값을 모두 0으로 저장하면 그 행의 광고비를 지웁니다.
          {!f.byLanding && ' 랜딩별 광고비는 랜딩별 보기에서 입력하세요.'}
        </Typography.Paragraph>
      )}
      <div ref={scrollRegion}>
        <Table<GridRow>
          className="ad-spend-grid"
          rowKey="key"
          size="small"
          pagination={false}
          // A month of a few media is a hundred rows: the table scrolls inside the card, its header in view.
          scroll={{ x: 'max-content', y: 560 }}
          dataSource={rows}
          columns={columns}
          rowClassName={(r) => (errors[r.key] && Object.keys(errors[r.key]!).length ? 'ad-row-error' : r.dirty ? 'ad-row-dirty' : '')}
          locale={{ emptyText: writable ? '이 기간에 입력한 광고비도 접수된 DB도 없습니다. 행 추가로 광고비를 입력하거나 CSV를 가져오세요.' : '이 기간에 입력된 광고비도 접수된 DB도 없습니다.' }}
        />
      </div>
    </Card>
  );
}
