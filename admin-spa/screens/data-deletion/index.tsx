// DB 삭제: the current shop's leads filtered as in DB 현황; chosen rows, or every lead the list's
// period and filters find, deleted with a reason after a confirmation that says how many. A
// deleted lead leaves every list and statistic at once and waits in 삭제 DB 관리 — where it can
// be restored — until the shop's grace period is over and it is destroyed for good.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Space, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { useQueryClient } from '@tanstack/react-query';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { DEFAULT_GRACE_DAYS, DELETE_MATCHING_MAX, leadDeleteInput, leadDeletionApi } from '@contracts/lead-deletion.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber } from '@/lib/format.ts';
import { usePeriod } from '@/components/period-picker.tsx';
import { LeadPeriodTable } from '@/components/leads/lead-period-table.tsx';
import { readOnlyLeadColumns, tagsColumn } from '@/components/leads/lead-columns.tsx';
import { leadFilterValues, useLeadFilters } from '@/components/lead-filters.tsx';
import { ReasonModal } from '@/components/reason-modal.tsx';

/** What a deletion changes: every view of leads, and 삭제 DB 관리. */
const DELETION_VIEWS = [leadsApi.list, leadsApi.get, leadDeletionApi.deleted, leadDeletionApi.deleters, leadDeletionApi.upcoming];

/** What the confirmation deletes: chosen rows, or what the list's conditions found when it was asked (counted and deleted alike). */
type Target = { kind: 'chosen'; ids: number[] } | { kind: 'matching'; count: number; filter: Record<string, string> };

export default function DataDeletion() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('data-deletion', 'write');
  const params = { shopId: shop.id };
  const period = usePeriod(7);
  const { from, to } = period;
  const filters = useLeadFilters(shop.id);
  const settings = useCall(leadDeletionApi.settings, { params }, { enabled: can('deleted-data-management') });
  const graceDays = settings.data?.graceDays ?? DEFAULT_GRACE_DAYS;
  const [selected, setSelected] = useState<number[]>([]);
  const [target, setTarget] = useState<Target | null>(null);
  const [counting, setCounting] = useState(false);
  const [countError, setCountError] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const columns: ColumnsType<LeadListItem> = [
    ...readOnlyLeadColumns(),
    tagsColumn(),
  ];

  /**
   * How many leads the list's period and filters find now (the confirmation says it). The
   * conditions are read from the address bar at the click — the list on screen shows them — and
   * the deletion takes the very ones counted.
   */
  const deleteMatching = async () => {
    setCounting(true);
    setCountError(null);
    try {
      const live = new URLSearchParams(window.location.search);
      const filter = leadFilterValues(live, live.get('from') ?? from, live.get('to') ?? to);
      const { total } = await call(leadsApi.list, { params, query: { ...filter, page: 1, pageSize: 1 } });
      if (!total) setCountError('조건에 맞는 DB가 없습니다.');
      else if (total > DELETE_MATCHING_MAX) {
        setCountError(`조건에 맞는 DB가 ${formatNumber(total)}건입니다. 한 번에 ${formatNumber(DELETE_MATCHING_MAX)}건까지 삭제할 수 있으니 기간이나 조건을 좁히세요.`);
      } else setTarget({ kind: 'matching', count: total, filter });
    } catch (err) {
      setCountError((err as Error).message);
    } finally {
      setCounting(false);
    }
  };

  const count = target ? (target.kind === 'chosen' ? target.ids.length : target.count) : 0;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {countError && <Alert type="warning" showIcon closable title={countError} onClose={() => setCountError(null)} />}
      <LeadPeriodTable
        shopId={shop.id}
        period={period}
        columns={columns}
        filters={filters}
        selection={writable ? { selected, onChange: setSelected } : undefined}
        actions={writable && (
          <>
            <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={() => setTarget({ kind: 'chosen', ids: selected })}>
              선택한 {selected.length}건 삭제
            </Button>
            <Button danger loading={counting} onClick={deleteMatching}>
              조건에 맞는 전체 삭제
            </Button>
          </>
        )}
      />
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        삭제한 DB는 DB 현황·통계·캘린더·배분에서 바로 빠지고, {graceDays}일 동안 <Link to="/deleted-data-management">삭제 DB 관리</Link>에서 복구할 수 있습니다.
        그 뒤에는 자동으로 파기되어 되살릴 수 없습니다.
      </Typography.Paragraph>
      <ReasonModal
        open={!!target}
        title="DB 삭제"
        danger
        okText={`${formatNumber(count)}건 삭제`}
        schema={leadDeleteInput}
        placeholder="예: 고객이 삭제를 요청함, 광고 테스트 유입"
        description={
          <Alert
            type="warning"
            showIcon
            title={target?.kind === 'matching'
              ? `접수 기간 ${target.filter.from} ~ ${target.filter.to}, 지금 목록의 조건에 맞는 DB ${formatNumber(count)}건을 삭제합니다.`
              : `선택한 DB ${formatNumber(count)}건을 삭제합니다.`}
            description={`삭제한 DB는 ${graceDays}일 안에 삭제 DB 관리에서 복구할 수 있고, 그 뒤에는 자동으로 파기됩니다.`}
          />
        }
        submit={async (reason) => {
          const body = target?.kind === 'chosen' ? { ids: target.ids, reason } : { filter: target!.filter, reason };
          const { deleted } = await call(leadDeletionApi.remove, { params, body });
          await invalidate(queryClient, DELETION_VIEWS);
          return `${formatNumber(deleted)}건을 삭제했습니다.`;
        }}
        onClose={(done) => {
          setTarget(null);
          if (done) setSelected([]);
        }}
      />
    </Space>
  );
}
