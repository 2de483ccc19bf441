// 삭제 DB 관리: the current shop's deleted leads, each with the day the automatic purge will
// destroy it — restored, or destroyed now, with a reason; the destruction log (by hand and
// automatic); and the automatic purge itself: the shop's grace period and the destructions of
// the coming days. Each tab keeps its view in the URL.
import { Tabs } from 'antd';
import { DeletedTab } from './deleted-tab.tsx';
import { LogTab } from './log-tab.tsx';
import { AutoTab } from './auto-tab.tsx';
import { useTab } from '@/lib/search-state.ts';

const TABS = ['deleted', 'log', 'auto'] as const;

export default function DeletedDataManagement() {
  const [tab, setTab] = useTab(TABS);
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'deleted', label: '삭제된 DB', children: tab === 'deleted' && <DeletedTab /> },
        { key: 'log', label: '파기 기록', children: tab === 'log' && <LogTab /> },
        { key: 'auto', label: '자동 파기', children: tab === 'auto' && <AutoTab /> },
      ]}
    />
  );
}
