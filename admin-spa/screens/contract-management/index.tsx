// 계약 관리: the current shop's contracts (period, quantity, unit price, daily cap, what counts,
// the return terms) and their returns (무효 교체) — requested from a lead's detail in DB 현황,
// approved or rejected here within the contract's window and maximum rate. Each tab keeps its
// view in the URL.
import { useSearchParams } from 'react-router-dom';
import { Tabs } from 'antd';
import { ContractsTab } from './contracts-tab.tsx';
import { ReturnsTab } from './returns-tab.tsx';

const TABS = ['contracts', 'returns'] as const;
type Tab = (typeof TABS)[number];

export default function ContractManagement() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'contracts';
  return (
    <Tabs
      activeKey={tab}
      // Each tab's own view: one table's filters do not carry over to the other.
      onChange={(k) => setSearch(k === 'contracts' ? {} : { tab: k })}
      items={[
        { key: 'contracts', label: '계약 목록', children: tab === 'contracts' && <ContractsTab /> },
        { key: 'returns', label: '무효 교체', children: tab === 'returns' && <ReturnsTab /> },
      ]}
    />
  );
}
