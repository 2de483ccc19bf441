// 계약 관리: the current shop's contracts (period, quantity, unit price, daily cap, what counts,
// the return terms) and their returns (무효 교체) — requested from a lead's detail in DB 현황,
// approved or rejected here within the contract's window and maximum rate. Each tab keeps its
// view in the URL.
import { ContractsTab } from './contracts-tab.tsx';
import { UrlTabs } from '@/components/url-tabs.tsx';
import { ReturnsTab } from './returns-tab.tsx';

export default function ContractManagement() {
  return (
    <UrlTabs
      tabs={[
        { key: 'contracts', label: '계약 목록', render: () => <ContractsTab /> },
        { key: 'returns', label: '무효 교체', render: () => <ReturnsTab /> },
      ]}
    />
  );
}
