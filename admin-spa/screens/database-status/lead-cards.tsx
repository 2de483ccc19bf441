// DB 현황 on a phone: the leads as cards (name, masked phone, landing, when it came in, status and
// the SLA countdown), newest first, twenty at a time with 더 보기 — the same list endpoint, period
// and filters as the table, so the server scopes a counselor to their own leads. A tap opens the
// lead's drawer, where the call is.
import { useMemo } from 'react';
import { Alert, Button, Empty, Input, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useInfiniteQuery } from '@tanstack/react-query';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { addDays } from '@contracts/kst.ts';
import { call } from '@/lib/api.ts';
import { apiKey } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useSearchPatch } from '@/lib/search-state.ts';
import type { Period } from '@/components/period-picker.tsx';
import { StatusTag } from '@/components/status-tag.tsx';
import { statusOptions } from '@/components/leads/lead-edits.tsx';
import { SLA_REFRESH_MS, SlaCountdown } from '@/components/leads/sla-countdown.tsx';

const PAGE_SIZE = 20;

/** The periods a phone offers (the table's range picker is wider than the screen). */
const RANGES = [
  { value: '1', label: '오늘' },
  { value: '7', label: '최근 7일' },
  { value: '30', label: '최근 30일' },
];

export function LeadCards({ shopId, period, onOpen, empty }: { shopId: number; period: Period; onOpen: (id: number) => void; empty: string }) {
  const [search, patch] = useSearchPatch();
  const { from, to, today } = period;
  const q = search.get('q') ?? '';
  const status = search.get('status') ?? '';
  const query = { from, to, ...(q ? { q } : {}), ...(status ? { status } : {}) };
  const params = { shopId };
  const list = useInfiniteQuery({
    // Under the endpoint's key: every change to leads that refreshes the table refreshes the cards.
    queryKey: [...apiKey(leadsApi.list, { params, query }), 'cards'],
    queryFn: ({ pageParam }) => call(leadsApi.list, { params, query: { ...query, page: pageParam, pageSize: PAGE_SIZE } }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
    // The minutes left are the server's, on the shop's calendar: read again each minute while they show.
    refetchInterval: (qr) => (qr.state.data?.pages[0]?.slaMinutes != null ? SLA_REFRESH_MS : false),
  });
  const pages = list.data?.pages;
  const slaOn = (pages?.[0]?.slaMinutes ?? null) !== null;
  // Leads that arrived while paging shift later pages: each lead shows once.
  const items = useMemo(() => {
    const seen = new Set<number>();
    return (pages ?? []).flatMap((p) => p.items).filter((i) => !seen.has(i.id) && seen.add(i.id));
  }, [pages]);
  const total = pages?.[0]?.total ?? 0;

  const days = RANGES.find((r) => to === today && from === addDays(today, -(Number(r.value) - 1)))?.value;
  return (
    <div className="lr-lead-cards">
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Space.Compact block>
          <Select
            aria-label="접수 기간"
            value={days ?? 'custom'}
            options={[...RANGES, ...(days ? [] : [{ value: 'custom', label: `${from} ~ ${to}` }])]}
            onChange={(v) => v !== 'custom' && patch({ from: addDays(today, -(Number(v) - 1)), to: today })}
            style={{ width: '45%' }}
          />
          <Select
            aria-label="상태"
            allowClear
            placeholder="상태 전체"
            value={status || undefined}
            options={statusOptions}
            onChange={(v?: string) => patch({ status: v ?? null })}
            style={{ width: '55%' }}
          />
        </Space.Compact>
        <Input.Search
          aria-label="이름 또는 전화번호"
          placeholder="이름 또는 전화번호"
          allowClear
          defaultValue={q}
          onSearch={(v) => patch({ q: v.trim() || null })}
        />
        <Typography.Text type="secondary">총 {total.toLocaleString('ko-KR')}건</Typography.Text>
        {list.isError && <Alert type="error" showIcon title={(list.error as Error).message} />}
        {list.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
        {!list.isPending && !items.length && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={q || status ? '조건에 맞는 결과가 없습니다.' : empty} />}
        <ul className="lr-card-list" aria-label="DB 목록">
          {items.map((l) => (
            <li key={l.id}>
              <LeadCard lead={l} slaOn={slaOn} onOpen={onOpen} />
            </li>
          ))}
        </ul>
        {list.hasNextPage && (
          <Button block size="large" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            더 보기 ({items.length.toLocaleString('ko-KR')} / {total.toLocaleString('ko-KR')})
          </Button>
        )}
      </Space>
    </div>
  );
}

function LeadCard({ lead: l, slaOn, onOpen }: { lead: LeadListItem; slaOn: boolean; onOpen: (id: number) => void }) {
  return (
    <button type="button" className={`lr-lead-card${l.overdue || (l.slaLeftMinutes === 0 && !l.firstContactAt) ? ' lr-lead-card-late' : ''}`} onClick={() => onOpen(l.id)}>
      <span className="lr-lead-card-row">
        <Typography.Text strong className="lr-lead-card-name">{l.name}</Typography.Text>
        <span>
          {l.duplicateOf && <Tag color="magenta">중복</Tag>}
          <StatusTag status={l.csStatus} />
        </span>
      </span>
      <span className="lr-lead-card-row">
        <span>{l.phone}</span>
        <SlaCountdown row={l} slaOn={slaOn} />
      </span>
      <span className="lr-lead-card-row">
        <Typography.Text type="secondary" ellipsis className="lr-lead-card-landing">
          {l.landingTitle ?? (l.source === 'landing' ? '-' : '직접 등록')}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(l.createdAt)}</Typography.Text>
      </span>
      {l.reservedAt && l.csStatus === '상담예약' && (
        <span className="lr-lead-card-row">
          <Typography.Text type="secondary">예약 {formatDateTime(l.reservedAt)}</Typography.Text>
        </span>
      )}
    </button>
  );
}
