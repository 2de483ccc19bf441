// A/B 실험 of one landing: create (the live landing copied into B), edit each variant's content in
// full (variant-editor.tsx) and the weights while a draft — warned of fields the privacy policy does
// not name, as publishing warns — start, read the results (per
// variant visits, leads, conversion with its 95 % interval, valid rate, probability to be best,
// the agency's spend share and CPA where the landing had spend, a chart and what it means in Korean), schedule a stop, stop and promote a variant.
import { lazy, Suspense, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Drawer, Empty, Form, Input, InputNumber, Skeleton, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { EditOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  EXPERIMENT_STATUS_LABELS, VARIANT_KEYS, experimentsApi, type Experiment, type ExperimentResults, type VariantContent, type VariantKey,
} from '@contracts/experiments.ts';
import { MIN_LEADS, MIN_VISITS, WINNER_PROBABILITY, probabilityText } from '@contracts/experiment-stats.ts';
import { landingsApi, type Landing } from '@contracts/landings.ts';
import { josa } from '@contracts/korean.ts';
import { call, ApiError } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { ConfirmAction } from '@/components/confirm-action.tsx';
import { VariantEditor } from './variant-editor.tsx';

const Chart = lazy(() => import('@/components/chart.tsx'));

const STATUS_COLORS: Record<Experiment['status'], string> = { draft: 'default', running: 'processing', stopped: 'success' };
const pct = (v: number | null | undefined, digits = 1) => (v == null ? '-' : `${(v * 100).toFixed(digits)}%`);

type Row = ExperimentResults['variants'][number];

const SPEND_TIP =
  '실험 기간(시작일~종료일) 동안 광고 현황에 이 랜딩으로 입력된 광고비를 실험안별 방문 비율로 나눈 금액입니다. 방문자는 무작위로 실험안에 배정되므로 방문 비율이 곧 광고로 산 유입의 비율입니다. 매체 전체로 입력된 광고비는 포함하지 않습니다.';
const CPA_TIP = 'CPA = 배분된 광고비 ÷ 유효 접수(중복·무효·반품 제외). 대행사에만 보이며 고객사 계정에는 표시되지 않습니다.';

function ResultsTable({ results, winner }: { results: ExperimentResults; winner: string | null }) {
  const columns: ColumnsType<Row> = [
    {
      title: '변형', dataIndex: 'key', key: 'key',
      render: (k: string) => (
        <Space size={4}>
          <strong>{k}안</strong>
          {k === 'A' && <Typography.Text type="secondary">(기존)</Typography.Text>}
          {winner === k && <Tag color="gold">채택</Tag>}
        </Space>
      ),
    },
    { title: '비중', dataIndex: 'weight', key: 'weight', align: 'right' },
    { title: '방문', dataIndex: 'visits', key: 'visits', align: 'right', render: formatNumber },
    { title: '접수', dataIndex: 'leads', key: 'leads', align: 'right', render: formatNumber },
    {
      title: '전환율 (95% 구간)', key: 'cr', align: 'right',
      render: (_: unknown, r) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <strong>{pct(r.conversionRate)}</strong>
          {r.interval && <Typography.Text type="secondary"> ({pct(r.interval.low)} ~ {pct(r.interval.high)})</Typography.Text>}
        </span>
      ),
    },
    { title: '유효 접수', dataIndex: 'validLeads', key: 'valid', align: 'right', render: formatNumber },
    { title: '유효율', dataIndex: 'validRate', key: 'validRate', align: 'right', render: (v: number | null) => pct(v) },
    {
      title: '가장 좋을 확률', dataIndex: 'probabilityToBeBest', key: 'best', align: 'right',
      render: (v: number | null) => (v == null ? '-' : <strong>{probabilityText(v)}</strong>),
    },
    // The agency's figures: the server sends them only to its side (광고 현황 read), when the landing had spend in the experiment's days.
    ...(results.variants.some((v) => v.spend != null)
      ? ([
          {
            title: (
              <Tooltip title={SPEND_TIP}>
                광고비(배분) <QuestionCircleOutlined style={{ color: '#8c8c8c' }} />
              </Tooltip>
            ),
            dataIndex: 'spend', key: 'spend', align: 'right', render: (v: number | null | undefined) => (v == null ? '-' : `${formatNumber(v)}원`),
          },
          {
            title: (
              <Tooltip title={CPA_TIP}>
                CPA <QuestionCircleOutlined style={{ color: '#8c8c8c' }} />
              </Tooltip>
            ),
            dataIndex: 'cpa', key: 'cpa', align: 'right', render: (v: number | null) => (v == null ? '-' : <strong>{formatNumber(v)}원</strong>),
          },
        ] satisfies ColumnsType<Row>)
      : []),
  ];
  return <Table<Row> rowKey="key" size="small" pagination={false} columns={columns} dataSource={results.variants} scroll={{ x: 'max-content' }} />;
}

/** Conversion rate per variant beside its 95 % interval (a bar floating on an invisible base from low to high). */
function ResultsChart({ results }: { results: ExperimentResults }) {
  const option = useMemo(() => {
    const keys = results.variants.map((v) => `${v.key}안`);
    const low = results.variants.map((v) => (v.interval ? +(v.interval.low * 100).toFixed(2) : 0));
    const span = results.variants.map((v) => (v.interval ? +((v.interval.high - v.interval.low) * 100).toFixed(2) : 0));
    const rate = results.variants.map((v) => (v.conversionRate == null ? 0 : +(v.conversionRate * 100).toFixed(2)));
    return {
      // Drawn at once: figures, not a show (and a screenshot of the drawer is the figures).
      animation: false,
      grid: { left: 48, right: 16, top: 32, bottom: 28 },
      legend: { top: 0, data: ['전환율', '95% 구간'] },
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v}%` },
      xAxis: { type: 'category', data: keys },
      yAxis: { type: 'value', axisLabel: { formatter: '{value}%' } },
      series: [
        { name: '전환율', type: 'bar', data: rate, barMaxWidth: 36, itemStyle: { color: '#1263dc' } },
        { name: '구간 시작', type: 'bar', stack: 'ci', data: low, itemStyle: { color: 'transparent' }, tooltip: { show: false }, barMaxWidth: 12 },
        { name: '95% 구간', type: 'bar', stack: 'ci', data: span, itemStyle: { color: 'rgba(18, 99, 220, 0.25)', borderColor: '#1263dc' }, barMaxWidth: 12 },
      ],
    };
  }, [results]);
  return (
    <Suspense fallback={<div style={{ height: 220 }} />}>
      <Chart option={option} height={220} label={`변형별 전환율: ${results.variants.map((v) => `${v.key}안 ${pct(v.conversionRate)}`).join(', ')}`} />
    </Suspense>
  );
}

function Results({ e }: { e: Experiment }) {
  const r = e.results;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {!r.enoughData && (
        <Alert
          type="info"
          showIcon
          title="아직 데이터가 부족합니다"
          description={`변형마다 방문 ${MIN_VISITS}회 이상, 실험 전체 접수 ${MIN_LEADS}건 이상이 모이면 결과를 판단할 수 있습니다. 그 전의 차이는 우연일 수 있으니 결정을 미루세요.`}
        />
      )}
      {r.srm.warning && <Alert type="error" showIcon title="배분 이상 경고" description={r.summary.at(-1)} />}
      {r.enoughData && (
        <Alert
          type={r.winner ? 'success' : 'warning'}
          showIcon
          title={r.winner ? `${r.winner}안이 이겼습니다` : `아직 ${pct(WINNER_PROBABILITY, 0)} 확신에 이른 변형이 없습니다`}
          description={r.summary[0]}
        />
      )}
      <ResultsTable results={r} winner={e.winner} />
      <ResultsChart results={r} />
      <ul style={{ margin: 0, paddingInlineStart: 20, color: 'rgba(0, 0, 0, 0.65)', fontSize: 13 }}>
        {r.summary.slice(1).filter((s) => !s.startsWith('배분 이상')).map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
    </Space>
  );
}

interface VariantDraft {
  key: VariantKey;
  weight: number;
  content: VariantContent | null;
}

/** What a variant shows, in a line or two: its headline, button, colours and the form's fields. */
function VariantSummary({ content, landing }: { content: VariantContent; landing: Landing }) {
  const fields = ['이름', '연락처', ...(content.formFields ?? landing.formFields).map((f) => f.label)];
  return (
    <Space orientation="vertical" size={2} style={{ minWidth: 0 }}>
      <Typography.Text strong>{content.headline}</Typography.Text>
      <Space size={6} wrap>
        <span
          aria-hidden
          style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, border: '1px solid #d9d9d9', background: content.colors.primary, verticalAlign: 'middle' }}
        />
        <Typography.Text type="secondary">버튼: {content.ctaLabel}</Typography.Text>
        <Typography.Text type="secondary">· 대표 이미지 {content.hero ? '있음' : '없음'}</Typography.Text>
      </Space>
      <Typography.Text type="secondary">신청 항목: {fields.join(', ')}</Typography.Text>
    </Space>
  );
}

/** The warning publishing gives: form fields the landing's privacy policy does not name. */
const coverageText = (labels: string[]) =>
  `${labels.map((l) => `'${l}'`).join(', ')}${josa(labels.at(-1)!, '이/가')} 개인정보 처리방침의 수집 항목에 없습니다. 동의 문구와 처리방침 페이지에는 이 변형이 받는 항목을 그대로 표시하니, 처리방침의 수집 항목에도 넣어 주세요.`;

/** A draft's variants: B, C … copy the landing (content and form); each is edited in full in the variant editor. */
function DraftEditor({ e, landing, params, writable, onSaved }: { e: Experiment; landing: Landing; params: { shopId: number; id: number }; writable: boolean; onSaved: () => Promise<void> }) {
  const { message } = App.useApp();
  const [name, setName] = useState(e.name);
  const [variants, setVariants] = useState<VariantDraft[]>(e.variants.map(({ key, weight, content }) => ({ key, weight, content })));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const patch = (i: number, p: Partial<VariantDraft>) => setVariants((vs) => vs.map((v, j) => (j === i ? { ...v, ...p } : v)));

  /** Saves name, weights and contents; answers the server's refusal (its field errors kept for the cards), or null. */
  async function persist(next: VariantDraft[]): Promise<ApiError | null> {
    try {
      await call(experimentsApi.update, { params: { ...params, experimentId: e.id }, body: { name, stopAt: e.stopAt, variants: next } });
      setErrors({});
      await onSaved();
      return null;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setErrors(err.fields ?? {});
      return err;
    }
  }

  async function save(): Promise<boolean> {
    setBusy(true);
    try {
      const refused = await persist(variants);
      if (refused) message.error(refused.message);
      return !refused;
    } finally {
      setBusy(false);
    }
  }

  const err = (path: string) => errors[path];
  /** Errors in a variant's content, shown on its card (the editor places them on their fields). */
  const contentErrors = (i: number) => Object.entries(errors).filter(([k]) => k.startsWith(`variants.${i}.content`)).map(([, m]) => m);
  const edited = editing === null ? null : variants[editing];
  return (
    <Form layout="vertical" disabled={!writable}>
      <Form.Item label="실험 이름" validateStatus={err('name') ? 'error' : undefined} help={err('name')}>
        <Input value={name} onChange={(ev) => setName(ev.target.value)} maxLength={60} />
      </Form.Item>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {variants.map((v, i) => {
          const uncovered = e.variants.find((x) => x.key === v.key)?.uncoveredFields ?? [];
          const problems = contentErrors(i);
          return (
            <Card key={v.key} size="small" title={v.key === 'A' ? 'A안 (현재 랜딩 내용)' : `${v.key}안`}
              extra={
                <Space>
                  <label htmlFor={`weight-${v.key}`}>비중</label>
                  <InputNumber id={`weight-${v.key}`} min={1} max={100} value={v.weight} onChange={(w) => patch(i, { weight: w ?? 1 })} style={{ width: 80 }} />
                  {v.key !== 'A' && v.key !== 'B' && i === variants.length - 1 && (
                    <Button size="small" onClick={() => setVariants((vs) => vs.slice(0, -1))}>
                      삭제
                    </Button>
                  )}
                </Space>
              }
            >
              <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', justifyContent: 'space-between', flexWrap: 'wrap' }}>
                <VariantSummary content={v.content ?? { ...landing.content, formFields: landing.formFields }} landing={landing} />
                {v.content === null ? (
                  <Typography.Text type="secondary">랜딩 편집에서 바꿉니다.</Typography.Text>
                ) : (
                  // Enabled for readers too: they see the content, read-only.
                  <Button disabled={false} icon={<EditOutlined />} aria-label={`${v.key}안 내용 편집`} onClick={() => setEditing(i)}>
                    {writable ? '내용 편집' : '내용 보기'}
                  </Button>
                )}
              </div>
              {uncovered.length > 0 && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={coverageText(uncovered)} />}
              {problems.length > 0 && (
                <Alert type="error" showIcon style={{ marginTop: 8 }} title={`${v.key}안의 내용을 고치세요: ${problems.join(' ')}`} />
              )}
            </Card>
          );
        })}
      </Space>
      {writable && (
        <Space style={{ marginTop: 12 }} wrap>
          {variants.length < VARIANT_KEYS.length && (
            <Button
              icon={<PlusOutlined />}
              onClick={() => setVariants((vs) => [...vs, { key: VARIANT_KEYS[vs.length]!, weight: 50, content: { ...landing.content, formFields: landing.formFields } }])}
            >
              변형 추가
            </Button>
          )}
          <Button loading={busy} onClick={() => void save().then((ok) => ok && message.success('저장했습니다.'))}>
            저장
          </Button>
          <Button
            type="primary"
            loading={busy}
            onClick={async () => {
              if (!(await save())) return;
              try {
                await call(experimentsApi.start, { params: { ...params, experimentId: e.id } });
                await onSaved();
                message.success('실험을 시작했습니다. 방문자마다 비중에 따라 한 변형을 보고, 다시 와도 같은 변형을 봅니다.');
              } catch (x) {
                if (!(x instanceof ApiError)) throw x;
                setErrors(x.fields ?? {});
                message.error(x.message);
              }
            }}
          >
            저장하고 시작
          </Button>
        </Space>
      )}
      {edited?.content && editing !== null && (
        <VariantEditor
          shopId={params.shopId}
          landing={landing}
          variantKey={edited.key}
          index={editing}
          content={edited.content}
          writable={writable}
          onClose={() => setEditing(null)}
          onSave={async (content) => {
            const next = variants.map((v, j) => (j === editing ? { ...v, content } : v));
            const refused = await persist(next);
            if (!refused) setVariants(next);
            return refused;
          }}
        />
      )}
    </Form>
  );
}

function StopSchedule({ e, params, onSaved }: { e: Experiment; params: { shopId: number; id: number }; onSaved: () => Promise<void> }) {
  const { message } = App.useApp();
  return (
    <Space wrap>
      <label htmlFor={`stop-at-${e.id}`}>종료 예약</label>
      <DatePicker
        id={`stop-at-${e.id}`}
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={e.stopAt ? dayjs(e.stopAt) : null}
        disabledDate={(d) => d.isBefore(dayjs(), 'day')}
        onChange={async (d) => {
          try {
            await call(experimentsApi.update, {
              params: { ...params, experimentId: e.id },
              body: { name: e.name, stopAt: d ? d.toISOString() : null, variants: e.variants },
            });
            await onSaved();
            message.success(d ? '종료를 예약했습니다. 그때 채택 없이 종료되며 결과는 보관됩니다. 시스템 예약에서도 바꾸거나 취소할 수 있습니다.' : '종료 예약을 취소했습니다.');
          } catch (x) {
            if (x instanceof ApiError) message.error(x.message);
            else throw x;
          }
        }}
      />
    </Space>
  );
}

function ExperimentCard({ e, landing, params, writable }: { e: Experiment; landing: Landing; params: { shopId: number; id: number }; writable: boolean }) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await invalidate(queryClient, [experimentsApi.list, landingsApi.get, landingsApi.list]);
  };
  const stopParams = { ...params, experimentId: e.id };
  return (
    <Card
      title={
        <Space wrap>
          <span>{e.name}</span>
          <Tag color={STATUS_COLORS[e.status]}>{EXPERIMENT_STATUS_LABELS[e.status]}</Tag>
          {e.startedAt && (
            <Typography.Text type="secondary" style={{ fontSize: 13, fontWeight: 'normal' }}>
              {formatDateTime(e.startedAt)} ~ {e.stoppedAt ? formatDateTime(e.stoppedAt) : e.stopAt ? `${formatDateTime(e.stopAt)} 종료 예정` : '진행 중'}
            </Typography.Text>
          )}
        </Space>
      }
    >
      {e.status === 'draft' ? (
        <DraftEditor e={e} landing={landing} params={params} writable={writable} onSaved={refresh} />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Results e={e} />
          {e.status === 'running' && writable && (
            <Space wrap>
              <StopSchedule e={e} params={params} onSaved={refresh} />
              {e.variants.map((v) => (
                <ConfirmAction
                  key={v.key}
                  label={`${v.key}안 채택하고 종료`}
                  confirm={`${v.key}안을 채택하고 실험을 종료할까요?`}
                  description={
                    v.key === 'A'
                      ? '랜딩은 지금 내용 그대로 유지됩니다. 결과는 보관됩니다.'
                      : `${v.key}안의 내용이 랜딩의 내용이 됩니다. 공개 주소와 접수 이력은 그대로이며, 결과는 보관됩니다.`
                  }
                  run={() => call(experimentsApi.stop, { params: stopParams, body: { promote: v.key } })}
                  invalidates={[experimentsApi.list, landingsApi.get, landingsApi.list]}
                  success={`${v.key}안을 채택했습니다.`}
                />
              ))}
              <ConfirmAction
                label="채택 없이 종료"
                danger
                confirm="채택 없이 실험을 종료할까요?"
                description="랜딩은 A안(지금 내용) 그대로입니다. 결과는 보관됩니다."
                run={() => call(experimentsApi.stop, { params: stopParams, body: { promote: null } })}
                invalidates={[experimentsApi.list]}
                success="실험을 종료했습니다."
              />
            </Space>
          )}
        </Space>
      )}
    </Card>
  );
}

export function ExperimentsDrawer({ shopId, landingId, writable, onClose }: { shopId: number; landingId: number; writable: boolean; onClose: () => void }) {
  const params = { shopId, id: landingId };
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const landing = useCall(landingsApi.get, { params });
  const list = useCall(experimentsApi.list, { params });
  const [name, setName] = useState('');
  const open = list.data?.items.find((e) => e.status !== 'stopped');

  let body: React.ReactNode;
  if (list.isError || landing.isError) body = <Alert type="error" showIcon title={((list.error ?? landing.error) as Error).message} />;
  else if (!list.data || !landing.data) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          방문자를 비중에 따라 여러 변형에 나눠 보여 주고, 접수가 더 많은 변형을 랜딩의 내용으로 채택합니다. 방문자는 다시 와도 같은 변형을 보며,
          검색엔진과 링크 미리보기는 언제나 랜딩의 원래 주소와 내용을 봅니다.
        </Typography.Paragraph>
        {writable && !open && landing.data.status === 'open' && (
          <Space.Compact style={{ maxWidth: 480 }}>
            <Input placeholder="실험 이름 (예: 대표 문구 실험)" value={name} onChange={(ev) => setName(ev.target.value)} maxLength={60} aria-label="새 실험 이름" />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={async () => {
                try {
                  await call(experimentsApi.create, { params, body: { name: name.trim() || '새 실험' } });
                  setName('');
                  await invalidate(queryClient, [experimentsApi.list]);
                  message.success('B안을 만들었습니다. 내용과 비중을 정한 뒤 시작하세요.');
                } catch (x) {
                  if (x instanceof ApiError) message.error(x.message);
                  else throw x;
                }
              }}
            >
              실험 만들기
            </Button>
          </Space.Compact>
        )}
        {landing.data.status !== 'open' && !list.data.items.length && <Alert type="info" showIcon title="게시 중인 랜딩에서만 실험을 만들 수 있습니다." />}
        {list.data.items.length === 0 ? (
          <Empty description="아직 실험이 없습니다." />
        ) : (
          list.data.items.map((e) => <ExperimentCard key={e.id} e={e} landing={landing.data!} params={params} writable={writable} />)
        )}
      </Space>
    );

  return (
    <Drawer open size="min(1040px, 100vw)" destroyOnHidden onClose={onClose} title={landing.data ? `A/B 실험 · ${landing.data.title}` : 'A/B 실험'}>
      {body}
    </Drawer>
  );
}
