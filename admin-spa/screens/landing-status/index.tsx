// Landings of the current shop: status, schedule, visits, submissions and conversion rate
// for a chosen period (kept in the URL) — split by variant (실험안별) where an experiment ran —, preview,
// publish, close, the editor, and A/B experiments.
import { Alert, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { ExportOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { LANDING_STATUSES, LANDING_STATUS_LABELS, LANDING_STATE_LABELS, landingsApi, type LandingListItem } from '@contracts/landings.ts';
import { josa, quoted } from '@contracts/korean.ts';
import { call, urlOf } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { useSearchPatch } from '@/lib/search-state.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { ConfirmAction } from '@/components/confirm-action.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { RowButton } from '@/components/crud.tsx';
import { LandingEditor } from './landing-editor.tsx';
import { ExperimentsDrawer } from './experiments-drawer.tsx';
import { VariantSplit } from './variant-split.tsx';
import { STATE_COLORS } from './state.ts';

function Schedule({ row }: { row: LandingListItem }) {
  if (!row.openAt && !row.closeAt) return <Typography.Text type="secondary">상시</Typography.Text>;
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {row.openAt ? formatDateTime(row.openAt) : '게시 즉시'} ~ {row.closeAt ? formatDateTime(row.closeAt) : '종료 시까지'}
    </span>
  );
}

export default function LandingStatus() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const writable = can('landing-status', 'write');
  // A/B experiments are the agency's to decide (the server refuses clients' accounts too); a client reads the results.
  const agency = account?.side === 'agency';
  const params = { shopId: shop.id };
  const [search, patchSearch] = useSearchPatch();

  const { from, to, today, setPeriod } = usePeriod(30);
  const edit = search.get('edit');
  const target = edit === 'new' ? 'new' : Number(edit) > 0 ? Number(edit) : null;
  const experimentOf = Number(search.get('experiment')) > 0 ? Number(search.get('experiment')) : null;

  const openEditor = (id: number | 'new') => patchSearch({ edit: String(id) });

  const columns: ColumnsType<LandingListItem> = [
    {
      title: '랜딩', dataIndex: 'title', key: 'title', fixed: 'left',
      render: (v: string, row) => (
        <Space orientation="vertical" size={0}>
          <Typography.Link onClick={() => openEditor(row.id)}>{v}</Typography.Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.landingCode}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: '상태', dataIndex: 'state', key: 'status',
      render: (v: LandingListItem['state']) => <Tag color={STATE_COLORS[v]}>{LANDING_STATE_LABELS[v]}</Tag>,
    },
    { title: '게시 일정', key: 'openAt', render: (_: unknown, row) => <Schedule row={row} /> },
    {
      title: '매체 · 이벤트', key: 'media',
      render: (_: unknown, row) => [row.mediaTypeName, row.eventTypeName].filter(Boolean).join(' · ') || '-',
    },
    { title: '방문', dataIndex: 'visits', key: 'visits', align: 'right', render: formatNumber },
    { title: '접수', dataIndex: 'submissions', key: 'submissions', align: 'right', render: formatNumber },
    {
      title: (
        <Tooltip title="기간 내 접수 ÷ 방문">
          전환율 <QuestionCircleOutlined style={{ color: '#8c8c8c' }} />
        </Tooltip>
      ),
      dataIndex: 'conversionRate', key: 'conversionRate', align: 'right',
      render: (v: number | null) => (v === null ? '-' : `${v.toFixed(1)}%`),
    },
    {
      title: '공개 주소', dataIndex: 'url', key: 'url',
      render: (v: string, row) =>
        row.status === 'draft' ? (
          <Typography.Text type="secondary">게시 전</Typography.Text>
        ) : (
          <Typography.Link href={v} target="_blank" rel="noopener" style={{ whiteSpace: 'nowrap' }}>
            {v} <ExportOutlined />
          </Typography.Link>
        ),
    },
    {
      title: '관리', key: 'actions', fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <RowButton onClick={() => openEditor(row.id)}>{writable ? '편집' : '보기'}</RowButton>
          {row.status !== 'draft' && <RowButton onClick={() => patchSearch({ experiment: String(row.id) })}>A/B 실험</RowButton>}
          <Button type="link" size="small" href={urlOf(landingsApi.preview, { params: { ...params, id: row.id } })} target="_blank" style={{ paddingInline: 4 }}>
            미리보기
          </Button>
          {writable && row.status !== 'open' && (
            <ConfirmAction
              label={row.status === 'closed' ? '다시 게시' : '게시'}
              confirm={`${quoted(row.title, '을/를')} 게시할까요?`}
              description={
                <>
                  공개 주소로 누구나 보고 신청할 수 있습니다.
                  {row.uncoveredFields.length > 0 && (
                    <Alert
                      type="warning"
                      showIcon
                      style={{ marginTop: 8 }}
                      title={`${row.uncoveredFields.map((l) => `'${l}'`).join(', ')}${josa(row.uncoveredFields.at(-1)!, '이/가')} 개인정보 처리방침의 수집 항목에 없습니다. 동의 문구와 처리방침 페이지에는 이 랜딩이 받는 항목을 그대로 표시하니, 처리방침의 수집 항목에도 넣어 주세요.`}
                    />
                  )}
                </>
              }
              run={() => call(landingsApi.publish, { params: { ...params, id: row.id } })}
              invalidates={[landingsApi.list, landingsApi.get]}
              success="랜딩을 게시했습니다."
            />
          )}
          {writable && row.status === 'open' && (
            <ConfirmAction
              label="종료"
              danger
              confirm={`${quoted(row.title, '을/를')} 종료할까요?`}
              description="더 이상 신청을 받지 않습니다."
              run={() => call(landingsApi.close, { params: { ...params, id: row.id } })}
              invalidates={[landingsApi.list, landingsApi.get]}
              success="랜딩을 종료했습니다."
            />
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ResourceTable
        endpoint={landingsApi.list}
        params={params}
        columns={columns}
        extraQuery={{ from, to }}
        expandable={{
          rowExpandable: (row) => row.variants.length > 0,
          expandedRowRender: (row) => <VariantSplit rows={row.variants} />,
          columnTitle: <Tooltip title="A/B 실험이 있었던 랜딩은 펼쳐서 실험안별 방문·접수·전환율을 봅니다"><span style={{ whiteSpace: 'nowrap' }}>실험안별</span></Tooltip>,
        }}
        empty={
          writable
            ? '아직 랜딩이 없습니다. 오른쪽 위의 ‘랜딩 만들기’로 첫 랜딩을 만들어 게시하세요.'
            : '아직 이 업체의 랜딩이 없습니다. 랜딩은 대행사 담당 마케터가 만들어 게시하며, 게시되면 여기에서 랜딩별 방문 수·신청 수·전환율과 공개 주소를 볼 수 있습니다.'
        }
        filters={[
          { name: 'q', label: '랜딩 이름 또는 코드', type: 'search' },
          { name: 'status', label: '상태', type: 'select', options: LANDING_STATUSES.map((s) => ({ value: s, label: LANDING_STATUS_LABELS[s] })) },
        ]}
        toolbar={
          <>
            <PeriodPicker label="통계 기간" from={from} to={to} today={today} onChange={setPeriod} />
            {writable && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor('new')}>
                랜딩 만들기
              </Button>
            )}
          </>
        }
      />
      {experimentOf !== null && (
        <ExperimentsDrawer shopId={shop.id} landingId={experimentOf} writable={writable && agency} onClose={() => patchSearch({ experiment: null })} />
      )}
      {target !== null && (
        <LandingEditor
          shop={shop}
          target={target}
          writable={writable}
          onClose={() => patchSearch({ edit: null })}
          onCreated={(id) => patchSearch({ edit: String(id) })}
        />
      )}
    </>
  );
}
