// 계약 관리: the current shop's contracts (period, quantity, unit price, daily cap, what counts,
// the return terms) and their returns (무효 교체) — requested from a lead's detail in DB 현황,
// approved or rejected here within the contract's window and maximum rate. Each tab keeps its
// view in the URL.
import { Tabs } from 'antd';
import { ContractsTab } from './contracts-tab.tsx';
import { ReturnsTab } from './returns-tab.tsx';
import { useTab } from '@/lib/search-state.ts';

const TABS = ['contracts', 'returns'] as const;

export default function ContractManagement() {
  const [tab, setTab] = useTab(TABS);
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'contracts', label: '계약 목록', children: tab === 'contracts' && <ContractsTab /> },
        { key: 'returns', label: '무효 교체', children: tab === 'returns' && <ReturnsTab /> },
      ]}
    />
  );
}
