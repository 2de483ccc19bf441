// 통합 DB 검색: one phone (the last four digits or more, or the number's start) or a name's start
// across every shop the account may enter — a counselor finds only the leads assigned to them.
// The term and page are kept in the URL; each search is recorded by the server (term masked).
// A result opens DB 현황 of its shop, filtered to the lead's day and last four digits.
import { Alert, Card, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useNavigate } from 'react-router-dom';
import {
  GLOBAL_SEARCH_MAX, SEARCH_MIN_DIGITS, SEARCH_MIN_NAME, SEARCH_PREFIX_DIGITS, globalSearchApi, parseSearchTerm, type GlobalSearchItem,
} from '@contracts/global-search.ts';
import { seoulDay } from '@contracts/kst.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { CURRENT_SHOP_KEY, useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { listPagination, useListParams } from '@/components/resource-table.tsx';
import { StatusTag } from '@/components/status-tag.tsx';

const KIND_LABELS = { last4: '끝 4자리', phone: '전화번호', name: '이름' } as const;

export default function GlobalDbSearch() {
  const shop = useCurrentShop();
  const navigate = useNavigate();
  const { account, can } = useAuth();
  const { params, update } = useListParams(['q']);
  const q = params.filters.q ?? '';
  const term = q ? parseSearchTerm(q) : null;
  const valid = !!term && !('error' in term);
  // Each request is a recorded search: no refetch on its own, a repeated view is served from the cache.
  const result = useCall(
    globalSearchApi.search,
    { query: { q, page: params.page, pageSize: params.pageSize } },
    { enabled: valid, keepPrevious: true, staleTime: 5 * 60_000, refetchOnWindowFocus: false, retry: false },
  );
  const data = valid ? result.data : undefined;
  const opens = can('database-status');

  /** DB 현황 of the lead's shop, on its day, by its last four digits (the shop switches first when it is another). */
  const open = (row: GlobalSearchItem) => {
    const day = seoulDay(row.createdAt);
    const url = `/database-status?${new URLSearchParams({ q: row.phoneLast4, from: day, to: day })}`;
    if (row.shopId === shop.id) return navigate(url);
    sessionStorage.setItem(CURRENT_SHOP_KEY, String(row.shopId));
    // The shop area reads the current shop once: a fresh load enters the other shop.
    window.location.assign(url);
  };

  const columns: ColumnsType<GlobalSearchItem> = [
    { title: '업체', dataIndex: 'shopName', key: 'shop', render: (v: string, row) => <Space size={4}>{v}{row.shopId === shop.id && <Tag>현재 업체</Tag>}</Space> },
    { title: '랜딩', dataIndex: 'landingTitle', key: 'landing', render: (v: string | null, row) => <Typography.Text ellipsis style={{ maxWidth: 200 }}>{v ?? (row.source === 'landing' ? '-' : '직접 등록')}</Typography.Text> },
    { title: '접수', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span> },
    { title: '이름', dataIndex: 'name', key: 'name', render: (v: string) => (opens ? <Typography.Link>{v}</Typography.Link> : v) },
    { title: '연락처', dataIndex: 'phone', key: 'phone', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
    { title: '상태', dataIndex: 'csStatus', key: 'csStatus', render: (v: GlobalSearchItem['csStatus']) => <StatusTag status={v} /> },
    { title: '담당', dataIndex: 'assigneeName', key: 'assignee', render: (v: string | null) => v ?? <Typography.Text type="secondary">미배분</Typography.Text> },
  ];

  return (
    <Card variant="borderless">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Input.Search
          key={q}
          size="large"
          allowClear
          enterButton="검색"
          aria-label="전화번호 또는 이름"
          defaultValue={q}
          placeholder="전화번호(끝 4자리, 010-1234 …) 또는 이름"
          style={{ maxWidth: 560 }}
          onSearch={(v) => update({ page: 1, filters: { q: v.trim() } })}
        />
        <Typography.Text type="secondary">
          접근 권한이 있는 모든 업체에서 찾습니다{account?.dataScope === 'assigned' ? ' (내 담당 DB만)' : ''}. 전화번호는 {SEARCH_MIN_DIGITS}자리 이상(끝자리, 또는{' '}
          {SEARCH_PREFIX_DIGITS}자리 이상이면 앞자리), 이름은 앞 {SEARCH_MIN_NAME}자 이상 · 삭제된 DB 제외 · 검색은 개인정보 접근 기록에 남습니다.
        </Typography.Text>
        {term && 'error' in term && <Alert type="warning" showIcon title={term.error} />}
        {valid && result.isError && <Alert type="error" showIcon title={(result.error as Error).message} />}
        {data?.capped && (
          <Alert
            type="warning"
            showIcon
            title={`결과가 ${formatNumber(GLOBAL_SEARCH_MAX)}건을 넘어 최근 ${formatNumber(GLOBAL_SEARCH_MAX)}건만 보여 줍니다.`}
            description="전화번호를 더 입력하거나 이름을 끝까지 입력해 범위를 좁히세요."
          />
        )}
        {data && (
          <Typography.Text>
            {KIND_LABELS[data.kind]} 검색 · 업체 {formatNumber(data.foundShopCount)}곳에서 {formatNumber(data.total)}건{data.capped ? ' 이상' : ''} (검색한 업체 {formatNumber(data.shopCount)}곳)
            {data.scope === 'assigned' && <Tag color="blue" style={{ marginInlineStart: 8 }}>내 담당 DB만</Tag>}
          </Typography.Text>
        )}
        <Table<GlobalSearchItem>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={data?.items ?? []}
          loading={valid && result.isFetching}
          scroll={{ x: 'max-content' }}
          onRow={(row) => (opens ? { onClick: () => open(row), style: { cursor: 'pointer' }, title: `${row.shopName}의 DB 현황에서 열기` } : {})}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={valid ? (result.isFetching ? '찾는 중입니다…' : '찾은 DB가 없습니다.') : '전화번호나 이름을 입력하고 검색하세요.'}
              />
            ),
          }}
          pagination={{
            ...listPagination(params, data?.total ?? 0),
            onChange: (page, pageSize) => update({ page: pageSize !== params.pageSize ? 1 : page, pageSize }),
          }}
        />
      </Space>
    </Card>
  );
}
