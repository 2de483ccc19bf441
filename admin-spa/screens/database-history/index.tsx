// 개인정보 접근 기록: the current shop's access record (every view, reveal, change, deletion,
// restoration, purge, export, search and import, with who, when, from where and which lead) and
// the privacy officer's monthly review. Each tab keeps its view in the URL; a review finding
// opens the record filtered to it.
import { useSearchParams } from 'react-router-dom';
import { Tabs } from 'antd';
import { RecordTab } from './record-tab.tsx';
import { ReviewTab } from './review-tab.tsx';

export default function DatabaseHistory() {
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'review' ? 'review' : 'record';
  return (
    <Tabs
      activeKey={tab}
      // Each tab's own view: the record's filters and the review's month do not mix.
      onChange={(k) => setSearch(k === 'review' ? { tab: 'review' } : {})}
      items={[
        { key: 'record', label: '접근 기록', children: tab === 'record' && <RecordTab /> },
        { key: 'review', label: '월간 점검', children: tab === 'review' && <ReviewTab openRecord={(filters) => setSearch(filters)} /> },
      ]}
    />
  );
}
