// The table every list screen uses: server-side paging, sorting and filtering through
// the one list contract, with the whole view kept in the URL (shareable, reloadable).
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CallInput, ResponseOf } from '@contracts/endpoint.ts';
import { Alert, Button, Card, Empty, Form, Input, Select, Space, Table, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface.js';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { PAGE_SIZES, type ListEndpoint } from '@contracts/list.ts';
import type { Query } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';

export interface FilterDef {
  name: string;
  label: string;
  /** `multi`: several values, kept in the URL comma-joined (a=x,y). */
  type: 'search' | 'select' | 'multi';
  /** Shown after 상세 조건 (or when set): the filters people reach for less often. */
  advanced?: boolean;
  options?: Array<{ value: string | number; label: string }>;
  width?: number;
}

interface ListParams {
  page: number;
  pageSize: number;
  sort?: string;
  filters: Record<string, string>;
}

/**
 * Reads and writes the list view (page, pageSize, sort, filters) in the URL; `prefix` keeps two
 * lists on one screen apart (h.page, h.sort …).
 */
export function useListParams(filterNames: string[], prefix = '') {
  const [search, setSearch] = useSearchParams();
  const key = (k: string) => prefix + k;
  const params: ListParams = {
    page: Math.max(1, Number(search.get(key('page'))) || 1),
    pageSize: PAGE_SIZES.includes(Number(search.get(key('pageSize'))) as 10) ? Number(search.get(key('pageSize'))) : 20,
    sort: search.get(key('sort')) ?? undefined,
    filters: Object.fromEntries(filterNames.map((n) => [n, search.get(key(n)) ?? '']).filter(([, v]) => v !== '')),
  };
  const update = (patch: Partial<ListParams>) => {
    const next = { ...params, ...patch, filters: { ...params.filters, ...patch.filters } };
    // Parameters the table does not own (a screen's period, an open editor) survive paging and filtering.
    const out = new URLSearchParams(search);
    for (const k of ['page', 'pageSize', 'sort', ...filterNames]) out.delete(key(k));
    if (next.page > 1) out.set(key('page'), String(next.page));
    if (next.pageSize !== 20) out.set(key('pageSize'), String(next.pageSize));
    if (next.sort) out.set(key('sort'), next.sort);
    for (const [k, v] of Object.entries(next.filters)) if (v !== '' && v !== undefined) out.set(key(k), v);
    setSearch(out, { replace: false });
  };
  return { params, update };
}

/** A list table's pager: the page and size in the URL, the list's total, the sizes every list offers. */
export function listPagination(params: { page: number; pageSize: number }, total: number) {
  return {
    current: params.page,
    pageSize: params.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showTotal: (n: number) => `총 ${n.toLocaleString('ko-KR')}건`,
  };
}

type ItemOf<E extends ListEndpoint> = ResponseOf<E> extends { items: Array<infer T> } ? T : never;

interface ResourceTableProps<E extends ListEndpoint> {
  endpoint: E;
  /** The endpoint's path params (e.g. the current shop). */
  params?: CallInput<E>['params'];
  /** Columns whose key is one of the endpoint's sort keys sort on the server. */
  columns: ColumnsType<ItemOf<E>>;
  filters?: FilterDef[];
  rowKey?: string;
  /** Buttons at the right of the filter bar (e.g. 등록). */
  toolbar?: ReactNode;
  /** Fixed query parameters sent with every request. */
  extraQuery?: Query;
  rowSelection?: TableProps<ItemOf<E>>['rowSelection'];
  expandable?: TableProps<ItemOf<E>>['expandable'];
  /** What an empty list says when no filter is set (who fills it, what will show); filtered lists say 검색 결과가 없습니다. */
  empty?: ReactNode;
  rowClassName?: TableProps<ItemOf<E>>['rowClassName'];
  /** Keeps this table's view apart in the URL when a screen shows two (e.g. 'h.'). */
  urlPrefix?: string;
  /** A title above the filters (a screen with two tables names them). */
  title?: ReactNode;
  onRow?: TableProps<ItemOf<E>>['onRow'];
  /** Reads the page again every this many ms (a list with countdowns). */
  refetchInterval?: number | false;
}

export function ResourceTable<E extends ListEndpoint>(props: ResourceTableProps<E>) {
  type T = ItemOf<E>;
  const { endpoint, columns, filters = [], rowKey = 'id', toolbar, extraQuery, rowSelection, expandable, empty, rowClassName, onRow, urlPrefix, title, refetchInterval } = props;
  const names = filters.map((f) => f.name);
  const { params, update } = useListParams(names, urlPrefix);
  const [form] = Form.useForm();
  const [advancedOpen, setShowAdvanced] = useState(false);
  const showAdvanced = advancedOpen || filters.some((f) => f.advanced && params.filters[f.name]);
  const query = { page: params.page, pageSize: params.pageSize, sort: params.sort, ...params.filters, ...extraQuery };
  const list = useCall(endpoint, { params: props.params, query } as unknown as CallInput<E>, { keepPrevious: true, refetchInterval });
  const data = list.data as { items: T[]; total: number } | undefined;

  const sortField = params.sort?.replace(/^-/, '');
  const sortedColumns = useMemo(
    () =>
      columns.map((c) =>
        c.key && endpoint.sortKeys.includes(String(c.key))
          ? { ...c, sorter: true, sortOrder: sortField === c.key ? (params.sort!.startsWith('-') ? ('descend' as const) : ('ascend' as const)) : null }
          : c,
      ),
    [columns, endpoint.sortKeys, sortField, params.sort],
  );

  const onChange: TableProps<T>['onChange'] = (pagination, _f, sorter) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const sort = s?.order && s.columnKey ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : undefined;
    const sortChanged = sort !== params.sort;
    update({
      page: sortChanged ? 1 : (pagination.current ?? 1),
      pageSize: pagination.pageSize ?? params.pageSize,
      sort,
    });
  };

  return (
    <Card variant="borderless" title={title} styles={{ body: { paddingTop: 16 } }}>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', marginBottom: 16, alignItems: 'flex-start' }}>
        {filters.length > 0 && (
          <Form
            form={form}
            name="list-filter"
            layout="inline"
            initialValues={Object.fromEntries(filters.map((f) => [f.name, f.type === 'multi' ? params.filters[f.name]?.split(',').filter(Boolean) : params.filters[f.name]]))}
            key={JSON.stringify(params.filters)}
            onFinish={(values: Record<string, string | string[] | undefined>) =>
              update({
                page: 1,
                filters: Object.fromEntries(names.map((n) => {
                  const v = values[n];
                  return [n, v == null ? '' : Array.isArray(v) ? v.join(',') : String(v)];
                })),
              })
            }
            style={{ flex: 1, rowGap: 8 }}
          >
            {filters.filter((f) => showAdvanced || !f.advanced).map((f) => (
              <Form.Item key={f.name} name={f.name} style={{ marginInlineEnd: 8 }}>
                {f.type === 'search' ? (
                  <Input allowClear placeholder={f.label} prefix={<SearchOutlined />} style={{ width: f.width ?? 220 }} aria-label={f.label} />
                ) : (
                  <Select
                    allowClear
                    mode={f.type === 'multi' ? 'multiple' : undefined}
                    maxTagCount={f.type === 'multi' ? 'responsive' : undefined}
                    showSearch={f.type === 'multi' ? false : undefined}
                    placeholder={f.label}
                    aria-label={f.label}
                    style={{ width: f.width ?? (f.type === 'multi' ? 220 : 150) }}
                    options={f.options?.map((o) => ({ value: String(o.value), label: o.label }))}
                  />
                )}
              </Form.Item>
            ))}
            <Space>
              <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                검색
              </Button>
              {filters.some((f) => f.advanced) && (
                <Button type="link" onClick={() => setShowAdvanced(!showAdvanced)} aria-expanded={showAdvanced}>
                  {showAdvanced ? '상세 조건 닫기' : '상세 조건'}
                </Button>
              )}
              <Button
                onClick={() => {
                  form.resetFields();
                  update({ page: 1, filters: Object.fromEntries(names.map((n) => [n, ''])) });
                }}
              >
                초기화
              </Button>
            </Space>
          </Form>
        )}
        <Space style={{ marginLeft: 'auto' }}>
          <Button icon={<ReloadOutlined />} aria-label="새로고침" onClick={() => list.refetch()} />
          {toolbar}
        </Space>
      </div>
      {list.isError && <Alert type="error" showIcon title={(list.error as Error).message} style={{ marginBottom: 16 }} />}
      <Table<T>
        rowKey={rowKey}
        size="middle"
        columns={sortedColumns}
        dataSource={data?.items ?? []}
        loading={list.isFetching}
        onChange={onChange}
        rowSelection={rowSelection}
        // With rowExpandable, the expand column shows only when a row of this page can expand.
        expandable={expandable && { showExpandColumn: (data?.items ?? []).some((r) => expandable.rowExpandable?.(r) ?? true), ...expandable }}
        rowClassName={rowClassName}
        onRow={onRow}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={Object.values(params.filters).some((v) => v !== undefined && v !== '') ? '조건에 맞는 결과가 없습니다.' : (empty ?? '아직 데이터가 없습니다.')}
            />
          ),
        }}
        scroll={{ x: 'max-content' }}
        pagination={listPagination(params, data?.total ?? 0)}
      />
    </Card>
  );
}
