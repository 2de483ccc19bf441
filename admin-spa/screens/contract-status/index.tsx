// 계약 현황: the progress of the current shop's contracts — those running or ended within the last
// month, or the one chosen (?contractId=, so 계약 관리 links to it). Every count opens the leads
// behind it. Live: the lead stream refreshes the figures as leads arrive and change, and a
// background refresh every minute catches what no lead announces (a landing reopening at
// midnight, a new day).
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, Card, Empty, Select, Skeleton, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { shopContractsApi, type ContractItem } from '@contracts/shop-contracts.ts';
import { CONTRACT_STATUS_LABELS } from '@contracts/money.ts';
import { ApiError } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { ServerError } from '@/layouts/results.tsx';
import { ContractCard } from './contract-card.tsx';
import { ContractLeadsDrawer, type LeadsTarget } from './contract-leads-drawer.tsx';
import { UncoveredLandings } from '@/components/uncovered-landings.tsx';

const api = shopContractsApi;

export default function ContractStatus() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const canManage = can('contract-management', 'read');
  const canCreate = can('contract-management', 'write');
  const params = { shopId: shop.id };
  const [search, setSearch] = useSearchParams();
  const contractId = Number(search.get('contractId')) || undefined;
  const choose = (id: number | undefined) => setSearch(id ? { contractId: String(id) } : {});

  const input = { params, query: contractId ? { contractId } : {} };
  const q = useCall(api.status, input, { keepPrevious: true });
  useBackgroundRefresh(api.status, input);
  // Every contract to choose from is 계약 관리's list; without it, the current ones shown here.
  const contracts = useCall(api.list, { params, query: { pageSize: 100, sort: '-startsOn' } }, { staleTime: 30_000, enabled: canManage });
  const [leads, setLeads] = useState<LeadsTarget | null>(null);

  // An unknown ?contractId= is a choice to correct, not a failure of the screen.
  const missing = q.isError && q.error instanceof ApiError && q.error.status === 404 && !!contractId;
  const d = missing ? { contracts: [], uncoveredLandings: [] } : q.data;
  const label = (c: ContractItem) => `${c.name} (${CONTRACT_STATUS_LABELS[c.status]} · ${c.startsOn} ~ ${c.endsOn})`;
  const options = (contracts.data?.items ?? []).map((c) => ({ value: c.id, label: label(c) }));
  // The contracts on screen are named even before (or beyond) the list of choices.
  for (const { contract: c } of d?.contracts ?? []) if (!options.some((o) => o.value === c.id)) options.push({ value: c.id, label: label(c) });

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={12}>
        <Select<number>
          aria-label="계약 선택"
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder="진행 중이거나 최근 끝난 계약 모두"
          value={contractId}
          onChange={(v) => choose(v)}
          options={options}
          loading={contracts.isFetching && !contracts.data}
          style={{ width: 380 }}
        />
        <Typography.Text type="secondary">유효 DB 기준 (중복·무효·반품·삭제 제외) · 금액은 VAT 별도 단가 기준 · 숫자를 누르면 해당 DB를 볼 수 있습니다</Typography.Text>
      </Space>
      {d && (
        <UncoveredLandings
          items={d.uncoveredLandings}
          link={(u) => <Link to={`/landing-status?edit=${u.landingId}`}>{u.title}</Link>}
        />
      )}
      {q.isError && !missing ? (
        <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : d.contracts.length === 0 ? (
        <Card variant="borderless">
          <Empty
            description={
              contractId
                ? '이 계약을 찾을 수 없습니다. 위에서 다른 계약을 고르세요.'
                : '진행 중이거나 최근 한 달 안에 끝난 계약이 없습니다. 계약을 등록하면 유효 DB 집계와 청구 금액, 예상 완료일을 여기서 볼 수 있습니다.'
            }
          >
            {canCreate && !contractId && (
              <Link to="/contract-management?new=1">
                <Button type="primary" icon={<PlusOutlined />}>
                  계약 등록
                </Button>
              </Link>
            )}
            {!canCreate && canManage && !contractId && <Link to="/contract-management">계약 목록 보기</Link>}
          </Empty>
        </Card>
      ) : (
        d.contracts.map((f) => <ContractCard key={f.contract.id} shopId={shop.id} f={f} canManage={canManage} onShow={(kind) => setLeads({ contract: f.contract, kind })} />)
      )}
      <ContractLeadsDrawer shopId={shop.id} target={leads} onClose={() => setLeads(null)} />
    </Space>
  );
}
