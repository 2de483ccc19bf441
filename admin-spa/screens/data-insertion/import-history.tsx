// The shop's imports, newest first: who imported which file when, how it went, and its report.
import { App, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { DownloadOutlined } from '@ant-design/icons';
import {
  IMPORT_CANCELLED, IMPORT_STATUS_LABELS, WAITING_IMPORT_STATUSES, consentBasisLabel, dataInsertionApi, type ImportItem, type ImportStatus,
} from '@contracts/data-insertion.ts';
import { ResourceTable } from '@/components/resource-table.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { CancelImportButton, cancelImport, downloadErrors } from './import-panel.tsx';

const STATUS_COLORS: Record<ImportStatus, string> = { uploaded: 'default', importing: 'processing', done: 'success', failed: 'error', cancelled: 'default' };

export function ImportHistory({ shopId, writable, onOpen }: { shopId: number; writable: boolean; onOpen: (id: number) => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const cancel = async (id: number) => {
    try {
      await cancelImport(shopId, id, queryClient);
      message.success(IMPORT_CANCELLED);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '취소하지 못했습니다.');
    }
  };
  const columns: ColumnsType<ImportItem> = [
    { title: '올린 때', dataIndex: 'createdAt', key: 'createdAt', width: 150, render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    {
      title: '파일', dataIndex: 'fileName', key: 'fileName',
      render: (v: string, row) => (writable ? <Typography.Link onClick={() => onOpen(row.id)}>{v}</Typography.Link> : v),
    },
    {
      title: '상태', dataIndex: 'status', key: 'status',
      render: (v: ImportStatus, row) => (
        <Tooltip title={row.error}>
          <Tag color={STATUS_COLORS[v]}>{IMPORT_STATUS_LABELS[v]}</Tag>
        </Tooltip>
      ),
    },
    { title: '행', dataIndex: 'totalRows', key: 'totalRows', align: 'right', render: (v: number | null) => formatNumber(v) },
    { title: '등록', dataIndex: 'imported', key: 'imported', align: 'right', render: (v: number, row) => (row.status === 'done' ? formatNumber(v) : '-') },
    { title: '중복', dataIndex: 'duplicates', key: 'duplicates', align: 'right', render: (v: number, row) => (row.status === 'done' ? formatNumber(v) : '-') },
    { title: '실패', dataIndex: 'failed', key: 'failed', align: 'right', render: (v: number, row) => (row.status === 'done' ? formatNumber(v) : '-') },
    { title: '수집 근거', dataIndex: 'consentBasis', key: 'consentBasis', render: (v: string | null) => consentBasisLabel(v) ?? '-' },
    { title: '올린 사람', dataIndex: 'accountName', key: 'accountName', render: (v: string | null) => v ?? '-' },
    ...(writable
      ? [{
          title: '', key: 'actions', width: 150,
          render: (_: unknown, row: ImportItem) => (
            <Space>
              {row.hasErrorReport && (
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  onClick={() => downloadErrors(shopId, row.id, (err) => message.error(err instanceof Error ? err.message : '내려받지 못했습니다.'))}
                >
                  오류 보고서
                </Button>
              )}
              {WAITING_IMPORT_STATUSES.includes(row.status) && (
                <CancelImportButton size="small" onConfirm={() => cancel(row.id)}>
                  취소
                </CancelImportButton>
              )}
            </Space>
          ),
        }]
      : []),
  ];
  return (
    <ResourceTable
      title="가져오기 기록"
      endpoint={dataInsertionApi.list}
      params={{ shopId }}
      columns={columns}
      urlPrefix="h."
      empty="아직 가져온 파일이 없습니다."
    />
  );
}
