// The record itself: paged, filtered and sorted on the server (period, account, actions, lead in
// the URL), newest first; the filtered record downloads as CSV (the download is itself recorded).
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { App, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import {
  ACCESS_ACTION_COLORS, ACCESS_RECORD_ACTIONS, ACCESS_ACTION_LABELS, accessRecordApi, actionLabel, type AccessRecordAction, type AccessRecordItem,
} from '@contracts/access-record.ts';
import { download } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber } from '@/lib/format.ts';
import { ResourceTable, type FilterDef } from '@/components/resource-table.tsx';
import { PeriodPicker, usePeriod } from '@/components/period-picker.tsx';
import { formatDateTimeSeconds } from '@/lib/format.ts';

const FILTERS = ['accountId', 'action', 'leadId'] as const;

function ActionTag({ action }: { action: string }) {
  return <Tag color={ACCESS_ACTION_COLORS[action as AccessRecordAction] ?? 'default'}>{actionLabel(action)}</Tag>;
}

const columns: ColumnsType<AccessRecordItem> = [
  { title: '일시 (KST)', dataIndex: 'at', key: 'at', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTimeSeconds(v)}</span> },
  {
    title: '계정', key: 'account',
    render: (_: unknown, r) =>
      r.accountName ? (
        <Space orientation="vertical" size={0}>
          <span style={{ whiteSpace: 'nowrap' }}>{r.accountName}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{r.accountLoginId}</Typography.Text>
        </Space>
      ) : (
        <Typography.Text type="secondary">{r.action === 'created' ? '방문자' : '시스템'}</Typography.Text>
      ),
  },
  { title: 'IP', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v ?? <Typography.Text type="secondary">-</Typography.Text> },
  { title: '작업', dataIndex: 'action', key: 'action', render: (v: string) => <ActionTag action={v} /> },
  {
    title: 'DB', key: 'lead',
    render: (_: unknown, r) =>
      r.leadId === null ? (
        <Typography.Text type="secondary">{r.rowCount === null ? '-' : `${formatNumber(r.rowCount)}건`}</Typography.Text>
      ) : (
        <Space size={6} style={{ whiteSpace: 'nowrap' }}>
          <Typography.Text type="secondary">#{r.leadId}</Typography.Text>
          {r.leadPurged ? (
            <Tooltip title="보유 기간이 끝나거나 삭제되어 개인정보를 파기했습니다. 기록은 남습니다.">
              <Tag color="volcano">파기됨</Tag>
            </Tooltip>
          ) : (
            <>
              <span>{r.leadName}</span>
              <Typography.Text type="secondary">{r.leadPhone}</Typography.Text>
              {r.leadDeleted && <Tag color="red">삭제됨</Tag>}
            </>
          )}
        </Space>
      ),
  },
  { title: '내용', dataIndex: 'summary', key: 'summary', render: (v: string) => v || <Typography.Text type="secondary">-</Typography.Text> },
];

export function RecordTab() {
  const shop = useCurrentShop();
  const params = { shopId: shop.id };
  const { from, to, today, setPeriod } = usePeriod('month');
  const [search] = useSearchParams();
  const accounts = useCall(accessRecordApi.accounts, { params });
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState(false);

  const filters: FilterDef[] = [
    {
      name: 'accountId', label: '계정', type: 'select', width: 200,
      options: (accounts.data?.items ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.loginId})` })),
    },
    { name: 'action', label: '작업', type: 'multi', width: 260, options: ACCESS_RECORD_ACTIONS.map((a) => ({ value: a, label: ACCESS_ACTION_LABELS[a] })) },
    { name: 'leadId', label: 'DB 번호', type: 'search', width: 130 },
  ];

  async function exportCsv() {
    setExporting(true);
    try {
      const query: Record<string, string> = { from, to };
      for (const name of FILTERS) {
        const v = search.get(name);
        if (v) query[name] = v;
      }
      let rows: number | null = null;
      const name = await download(accessRecordApi.export, { params, query: query as never }, {
        onProgress: ({ headers }) => void (rows = Number(headers.get('x-row-count') ?? NaN)),
      });
      message.success(`${rows !== null && Number.isFinite(rows) ? `${formatNumber(rows)}건을 ` : ''}${name} 파일로 내보냈습니다.`);
      // The export is in the record now.
      await invalidate(queryClient, [accessRecordApi.list]);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '내보내지 못했습니다.');
    } finally {
      setExporting(false);
    }
  }

  return (
    <ResourceTable
      endpoint={accessRecordApi.list}
      params={params}
      extraQuery={{ from, to }}
      rowKey="key"
      columns={columns}
      filters={filters}
      empty="이 기간에 남은 기록이 없습니다."
      toolbar={
        <>
          <PeriodPicker label="기간" from={from} to={to} today={today} onChange={setPeriod} />
          <Tooltip title="현재 조건의 기록을 CSV로 내려받습니다. 내려받은 일도 기록에 남습니다.">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportCsv}>
              CSV 내보내기
            </Button>
          </Tooltip>
        </>
      }
    />
  );
}
