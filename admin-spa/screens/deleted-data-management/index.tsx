// 삭제 DB 관리: the current shop's deleted leads, each with the day the automatic purge will
// destroy it — restored, or destroyed now, with a reason; the destruction log (by hand and
// automatic); and the automatic purge itself: the shop's grace period and the destructions of
// the coming days. Each tab keeps its view in the URL.
import { DeletedTab } from './deleted-tab.tsx';
import { LogTab } from './log-tab.tsx';
import { UrlTabs } from '@/components/url-tabs.tsx';
import { AutoTab } from './auto-tab.tsx';

export default function DeletedDataManagement() {
  return (
    <UrlTabs
      tabs={[
        { key: 'deleted', label: '삭제된 DB', render: () => <DeletedTab /> },
        { key: 'log', label: '파기 기록', render: () => <LogTab /> },
        { key: 'auto', label: '자동 파기', render: () => <AutoTab /> },
      ]}
    />
  );
}
